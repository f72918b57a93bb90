# ast-grep (Rust, MSVC), structural search and rewrite: find the
# console.log calls of a JavaScript file as JSON (each match with its
# captured argument and position), then rewrite them in place.
checks="search rewrite"

job() {
	cp "$fx/app.js" "$tmp/"
	run_prog "$exe" run -p 'console.log($A)' -l js --json=compact app.js
	expect ast-grep/search $? "$fx/matches.expected"
	run_prog "$exe" run -p 'console.log($A)' -r 'logger.info($A)' -l js -U app.js
	expect_file ast-grep/rewrite $? "$tmp/app.js" "$fx/rewritten.expected"
}
