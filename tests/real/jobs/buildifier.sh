# buildifier (Go 1.1x runtime, the one that loads winmm.dll by its full
# system-folder path): check an untidy Bazel BUILD file (exit 4, what
# needs doing), then format it in place: arguments one per line, name
# first, load() symbols sorted.
checks="check format"

job() {
	cp "$fx/BUILD.in" "$tmp/BUILD"
	run_prog "$exe" --mode=check BUILD
	rc=$?
	# Its report goes to stderr.
	cp "$err" "$out"
	expect buildifier/check $rc "$fx/check.expected" 4
	run_prog "$exe" BUILD
	expect_file buildifier/format $? "$tmp/BUILD" "$fx/BUILD.expected"
}
