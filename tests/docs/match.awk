# Does ACTUAL (the file given second) match EXPECTED (first)?  Expected
# lines match exactly, except "..." alone (any number of lines, none
# too) and a line ending in "..." (a line starting with what comes before).
# Prints the first difference and exits 1.
FNR == NR { want[++nw] = $0; next }
{ got[++ng] = $0 }
function prefix_ok(w, g) { return substr(g, 1, length(w) - 3) == substr(w, 1, length(w) - 3) }
function same(w, g) { return w ~ /\.\.\.$/ ? prefix_ok(w, g) : w == g }
END {
	i = 1; j = 1
	while (i <= nw) {
		if (want[i] == "...") {
			if (i == nw) exit 0
			while (j <= ng && !same(want[i + 1], got[j])) j++
			i++
			continue
		}
		if (j > ng) { printf "missing line %d: %s\n", i, want[i]; exit 1 }
		if (!same(want[i], got[j])) { printf "line %d: expected: %s\n         got: %s\n", j, want[i], got[j]; exit 1 }
		i++; j++
	}
	if (j <= ng) { printf "unexpected line %d: %s\n", j, got[j]; exit 1 }
}
