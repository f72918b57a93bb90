#!/bin/sh
# The keys of every message ndrun prints, one per line, for the README's
# troubleshooting table to name (tests/docs/consistency): the first
# string literal of each ndrun_error(...), set_error(err, CODE, ...),
# fail(err, errlen, ...) and fprintf(stderr, "ndrun: ...") in the
# product's sources; in it, the first run of fixed text (between printf
# conversions) of 6 characters or more, cut before ": ", " (", "'" or
# " 0x", and of that the first two words.
# Usage: tests/docs/messages.sh SRCDIR
cd "$1" || exit 1
grep -rhoE '(ndrun_error\(|set_error\(err, [A-Z_]+, |fail\(err, errlen, |fprintf\(stderr, )"(\\.|[^"\\])*"' \
	--include='*.c' pe-loader winapi-shim nd2provider |
sed 's/^[^"]*"//; s/"$//; s/^ndrun: //' |
awk '{
	n = split($0, part, /%[-#0-9.lhzu]*[a-zA-Z]|\\n/)
	for (i = 1; i <= n; i++) {
		p = part[i]
		gsub(/^[ :;,()'"'"']+|[ :;,('"'"']+$/, "", p)
		if (length(p) < 6) continue
		sub(/(: | \(|'"'"'| 0x).*/, "", p)
		split(p, w, " ")
		print (w[2] == "" ? w[1] : w[1] " " w[2])
		break
	}
}' | sort -u
