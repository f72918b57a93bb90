# lightningcss (Rust, MSVC): minify a style sheet to stdout and to a file
# (-o: CreateFileW/WriteFile, no newline at the end, unlike stdout).
checks="minify minify-file"

job() {
	run_prog "$exe" --minify "$fx/input.css"
	expect lightningcss/minify $? "$fx/input.min.expected"
	run_prog "$exe" --minify "$fx/input.css" -o "$tmp/input.min.css"
	expect_file lightningcss/minify-file $? "$tmp/input.min.css" "$fx/output-file.expected"
}
