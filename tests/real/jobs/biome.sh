# Biome (Rust, MSVC), Rome's successor: format a JavaScript file in place,
# then lint it: two warnings (an unused variable, an unused function),
# each named with its rule and position.
checks="format lint"

job() {
	cp "$fx/input.js" "$tmp/app.js"
	run_prog "$exe" format --write app.js
	expect_file biome/format $? "$tmp/app.js" "$fx/formatted.expected"
	run_prog "$exe" lint app.js
	expect_grep biome/lint $? 0 - "app.js:1:7 lint/correctness/noUnusedVariables" "This variable a is unused." \
		"app.js:2:10 lint/correctness/noUnusedVariables" "This function f is unused." "Found 2 warnings."
}
