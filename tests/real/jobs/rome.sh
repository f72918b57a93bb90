# Rome (Rust, MSVC): format a JavaScript file in place, lint it (one
# finding: a `let` never re-assigned, exit 1), then apply the fix.
checks="format lint fix"

job() {
	cp "$fx/input.js" "$tmp/app.js"
	run_prog "$exe" format --write app.js
	expect_file rome/format $? "$tmp/app.js" "$fx/formatted.expected"
	run_prog "$exe" check app.js
	expect_grep rome/lint $? 1 - "app.js:5:1 lint/style/useConst" "This 'let' declares a variable which is never re-assigned." \
		"Found 1 error(s)"
	run_prog "$exe" check --apply-unsafe app.js
	expect_file rome/fix $? "$tmp/app.js" "$fx/fixed.expected"
}
