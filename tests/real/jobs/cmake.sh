# CMake 4.0 (C++, MSVC with a static CRT; libuv inside, which looks up a
# set of ntdll functions at start and stops without them): -E sha256sum
# (checked against the host's sha256sum), -E tar into a pax archive that
# the host's tar lists and extracts identically, and a -P script whose
# string, math and list results it writes to a file (in text mode: "\r\n").
checks="sha256sum tar script"

job() {
	cp "$fx/a.txt" "$fx/b.txt" "$tmp/"
	(cd "$fx" && sha256sum a.txt b.txt) > "$tmp/sums.expected"
	run_prog "$exe" -E sha256sum a.txt b.txt
	expect cmake/sha256sum $? "$tmp/sums.expected"
	run_prog "$exe" -E tar cf arch.tar --format=pax a.txt b.txt
	rc=$?
	mkdir -p "$tmp/x"
	if [ "$rc" -eq 0 ] && tar xf "$tmp/arch.tar" -C "$tmp/x" 2>"$err"; then
		(cd "$tmp/x" && sha256sum a.txt b.txt) > "$out" 2>>"$err"
	fi
	expect cmake/tar $rc "$tmp/sums.expected"
	crlf "$fx/result.expected" > "$tmp/result.expected"
	run_prog "$exe" -P "$fx/script.cmake"
	expect_file cmake/script $? "$tmp/result.txt" "$tmp/result.expected"
}
