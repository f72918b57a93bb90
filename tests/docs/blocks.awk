# Splits the README into its marked code blocks (tests/docs/run).
# A fence (```) must follow a marker line
#     <!-- check-docs: run -->                 run every line, all must succeed
#     <!-- check-docs: output [status=N] [if=no-rdma] -->
#                                              "$ cmd" lines and the output each prints
#     <!-- check-docs: skip: REASON -->        not run, and says why
# Each block goes to OUT/block-N (N counts blocks); OUT/manifest gets one
# line per block: "N LINE MODE ARGS...".  An unmarked fence, or a skip
# without a reason, is an error (printed, exit 1): no command shown to
# users escapes the test by accident.
BEGIN { n = 0; inblock = 0; marker = ""; bad = 0 }
inblock {
	if ($0 ~ /^```/) { inblock = 0; close(file); next }
	print > file
	next
}
/^<!-- check-docs: .*-->$/ {
	marker = $0
	sub(/^<!-- check-docs: /, "", marker)
	sub(/ *-->$/, "", marker)
	mline = NR
	next
}
/^```/ {
	n++
	if (marker == "" || mline != NR - 1) {
		printf "README.md:%d: a code block without a check-docs marker on the line before it\n", NR
		bad = 1
	} else if (marker ~ /^skip/ && marker !~ /^skip: ./) {
		printf "README.md:%d: check-docs: skip needs a reason (skip: why)\n", mline
		bad = 1
	}
	mode = marker
	sub(/:.*/, "", mode)
	args = marker
	if (args ~ /^skip/) args = ""
	else sub(/^[a-z]+ ?/, "", args)
	printf "%d %d %s %s\n", n, NR, (mode == "" ? "none" : mode), args >> (out "/manifest")
	file = out "/block-" n
	printf "" > file
	inblock = 1
	marker = ""
	next
}
END { exit bad }
