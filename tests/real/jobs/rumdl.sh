# rumdl (Rust, MSVC), a Markdown linter: four findings in a small
# document (exit 1), each with its rule and position, then --fix rewrites
# the file.  The timing line of its summary is left out.
checks="lint fix"

job() {
	cp "$fx/doc.md" "$tmp/"
	run_prog "$exe" check --no-config doc.md
	rc=$?
	grep '^doc\.md:' "$out" > "$tmp/findings" && cp "$tmp/findings" "$out"
	expect rumdl/lint $rc "$fx/findings.expected" 1
	run_prog "$exe" check --no-config --fix doc.md
	expect_file rumdl/fix $? "$tmp/doc.md" "$fx/fixed.expected"
}
