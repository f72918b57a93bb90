# recheck (Scala compiled ahead of time by GraalVM native-image), a
# ReDoS checker: a regular expression with nested quantifiers is
# vulnerable (exponential, with an attack string; exit 1), a plain one is
# safe.
checks="vulnerable safe"

job() {
	run_prog "$exe" '/^(a+)+$/'
	expect_grep recheck/vulnerable $? 1 "$out" "Status       : vulnerable" "Complexity   : exponential" \
		"Attack string: 'a' + 'a'.repeat("
	# Java's println ends lines with the platform's separator: "\r\n".
	crlf "$fx/safe.expected" > "$tmp/safe.expected"
	run_prog "$exe" '/^(a|b)*c$/'
	expect recheck/safe $? "$tmp/safe.expected"
}
