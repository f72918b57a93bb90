# Bun (Zig, with JavaScriptCore in C++; the baseline build for CPUs
# without AVX2): run a TypeScript program, then one that reads a file,
# counts its words and writes JSON through Bun.file/Bun.write.
checks="typescript files"

job() {
	cp "$fx/answer.ts" "$fx/words.ts" "$fx/in.txt" "$tmp/"
	run_prog "$exe" run answer.ts
	expect bun/typescript $? "$fx/answer.expected"
	run_prog "$exe" run words.ts
	expect_file bun/files $? "$tmp/out.json" "$fx/out.expected"
}
