# esbuild (Go): bundle two ES modules (the unused export is dropped, the
# import inlined) to stdout, then minified into a file.
checks="bundle minify-file"

job() {
	cp "$fx/main.js" "$fx/lib.js" "$tmp/"
	run_prog "$exe" main.js --bundle --format=esm
	expect esbuild/bundle $? "$fx/bundle.expected"
	run_prog "$exe" main.js --bundle --minify --outfile=out.js
	expect_file esbuild/minify-file $? "$tmp/out.js" "$fx/minified.expected"
}
