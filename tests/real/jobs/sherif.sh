# sherif (Rust, MSVC), a monorepo linter: a workspace whose two packages
# depend on different lodash versions and whose root names no package
# manager (two errors, exit 1), then the same workspace put right.
checks="lint clean"

job() {
	cp -r "$fx/package.json" "$fx/packages" "$tmp/"
	run_prog "$exe" --no-install
	expect_grep sherif/lint $? 1 "$out" "root-package-manager-field" "multiple-dependency-versions" \
		"Dependency lodash has multiple versions defined in the workspace." "2 issues found (2"
	cp "$fx/clean/package.json" "$tmp/package.json"
	sed -i 's/4\.17\.21/4.17.20/' "$tmp/packages/b/package.json"
	run_prog "$exe" --no-install
	expect_grep sherif/clean $? 0 "$out" "No issues found"
}
