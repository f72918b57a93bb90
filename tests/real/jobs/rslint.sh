# rslint (Go; typescript-go inside), a TypeScript linter: a strict
# project with an explicit any and an unused variable gives two findings
# as JSON lines, each with its rule and range (exit 1).
checks="lint"

job() {
	cp "$fx/m.ts" "$fx/tsconfig.json" "$fx/rslint.json" "$tmp/"
	run_prog "$exe" --no-color --format jsonline
	rc=$?
	grep -v '^$' "$out" > "$tmp/findings"
	cp "$tmp/findings" "$out"
	expect rslint/lint $rc "$fx/findings.expected" 1
}
