# esbuild 0.15 (built by Go 1.19, whose runtime loads winmm.dll by its
# full system-folder path and calls timeBeginPeriod unconditionally): the
# same bundle as esbuild's job, and TypeScript types stripped.
checks="bundle typescript"

job() {
	cp "$src/fixtures/esbuild/main.js" "$src/fixtures/esbuild/lib.js" "$fx/input.ts" "$tmp/"
	run_prog "$exe" main.js --bundle --format=esm
	expect esbuild-go1.19/bundle $? "$src/fixtures/esbuild/bundle.expected"
	run_prog "$exe" input.ts
	expect esbuild-go1.19/typescript $? "$fx/stripped.expected"
}
