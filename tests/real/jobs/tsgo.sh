# tsgo, the native TypeScript compiler (Go): type-check a file with an
# error (exit 1 and the exact diagnostic), then compile a correct one to
# JavaScript and a declaration file.
checks="type-error compile declaration"

job() {
	cp "$fx/bad.ts" "$fx/good.ts" "$tmp/"
	run_prog "$exe" --noEmit --pretty false bad.ts
	expect tsgo/type-error $? "$fx/check.expected" 1
	run_prog "$exe" --pretty false --outDir out --declaration good.ts
	rc=$?
	expect_file tsgo/compile $rc "$tmp/out/good.js" "$fx/good.js.expected"
	expect_file tsgo/declaration $rc "$tmp/out/good.d.ts" "$fx/good.d.ts.expected"
}
