# bsc, the ReScript compiler (OCaml, mingw-w64 with msvcrt.dll): format a
# ReScript module (text-mode stdout: "\r\n"), and refuse one with a
# syntax error (exit 1, the position and what it could not parse).
checks="format syntax-error"

job() {
	cp "$fx/Demo.res" "$fx/Bad.res" "$tmp/"
	crlf "$fx/formatted.expected" > "$tmp/formatted.expected"
	run_prog "$exe" -format Demo.res
	expect bsc/format $? "$tmp/formatted.expected"
	run_prog "$exe" -format Bad.res
	expect_grep bsc/syntax-error $? 1 - "Syntax error!" "Bad.res" "1:18-19" \
		"I'm not sure what to parse here when looking at \"=>\"."
}
