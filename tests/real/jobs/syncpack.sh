# syncpack (Rust, MSVC): find the mismatched lodash versions of a
# workspace (exit 1, the mismatch and where), then fix them: the lower
# version is raised in packages/a/package.json.
checks="lint fix"

job() {
	cp -r "$fx/package.json" "$fx/packages" "$tmp/"
	run_prog "$exe" lint
	expect_grep syncpack/lint $? 1 - "4.17.20 → 4.17.21 in packages\\a\\package.json at .dependencies" "Issues found"
	run_prog "$exe" fix
	expect_file syncpack/fix $? "$tmp/packages/a/package.json" "$fx/a-fixed.expected"
}
