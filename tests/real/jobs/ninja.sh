# ninja (C++, MSVC with the UCRT): its -t tools and a dry run over
# fixtures/ninja/build.ninja, then a real build whose edges run a Windows
# program (upper.exe) through CreateProcess, and a second run that finds
# nothing to do.
checks="version targets targets-all targets-depth0 query commands dry-run build rebuild"

job() {
	run_prog "$exe" --version
	printf '%s\r\n' "$version" > "$tmp/version.expected"
	expect ninja/version $? "$tmp/version.expected"
	tree=$tmp/tree
	mkdir -p "$tree/src"
	cp "$fx/build.ninja" "$tree/"
	touch "$tree/src/main.c" "$tree/src/util.c" "$tree/src/config.h"
	for t in "targets:-t targets" "targets-all:-t targets all" "targets-depth0:-t targets depth 0" \
		 "query:-t query obj/main.obj" "commands:-t commands app.exe" "dry-run:-n"; do
		check=${t%%:*}
		crlf "$fx/$check.expected" > "$tmp/$check.expected"
		dir=$tree run_prog "$exe" ${t#*:}
		expect "ninja/$check" $? "$tmp/$check.expected"
	done
	# Edges may finish in either order: the sorted lines without their
	# [n/2] counters.
	tree=$tmp/build
	mkdir -p "$tree"
	cp "$fx/build-real.ninja" "$tree/build.ninja"
	cp "$tools/upper.exe" "$tree/"
	printf 'hello\n' > "$tree/a.txt"
	printf 'world\n' > "$tree/b.txt"
	dir=$tree run_prog "$exe"
	rc=$?
	sed 's/\r$//; s/^\[[0-9]\/2\] //' "$out" | sort > "$tmp/build.out"
	if [ "$rc" -ne 0 ]; then
		failed ninja/build "exit status $rc"
	elif [ "$(cat "$tmp/build.out")" != "$(printf 'UPPER out/a.txt\nUPPER out/b.txt')" ]; then
		failed ninja/build "unexpected progress lines"
	elif [ "$(cat "$tree/out/a.txt" "$tree/out/b.txt" 2>/dev/null)" != "$(printf 'HELLO\nWORLD')" ]; then
		failed ninja/build "outputs not built: $(cat "$tree/out/a.txt" "$tree/out/b.txt" 2>&1)"
	else
		ok ninja/build
	fi
	dir=$tree run_prog "$exe"
	printf 'ninja: no work to do.\r\n' > "$tmp/nowork.expected"
	expect ninja/rebuild $? "$tmp/nowork.expected"
}
