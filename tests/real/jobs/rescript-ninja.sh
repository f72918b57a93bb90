# The ninja ReScript ships, a fork of ninja 1.9 (C++, MSVC with a static
# CRT: no C runtime DLL at all): its targets and commands over ninja's
# fixture (the fork lists targets without their rules), then a real build
# whose edges run upper.exe through CreateProcess (the fork's progress
# lines start "rescript: ").
checks="targets-all commands build build-outputs"

job() {
	fxn=$src/fixtures/ninja
	tree=$tmp/tree
	mkdir -p "$tree/src"
	cp "$fxn/build.ninja" "$tree/"
	touch "$tree/src/main.c" "$tree/src/util.c" "$tree/src/config.h"
	crlf "$fx/targets-all.expected" > "$tmp/targets-all.expected"
	dir=$tree run_prog "$exe" -t targets all
	expect rescript-ninja/targets-all $? "$tmp/targets-all.expected"
	crlf "$fxn/commands.expected" > "$tmp/commands.expected"
	dir=$tree run_prog "$exe" -t commands app.exe
	expect rescript-ninja/commands $? "$tmp/commands.expected"
	tree=$tmp/build
	mkdir -p "$tree"
	cp "$fxn/build-real.ninja" "$tree/build.ninja"
	cp "$tools/upper.exe" "$tree/"
	printf 'hello\n' > "$tree/a.txt"
	printf 'world\n' > "$tree/b.txt"
	dir=$tree run_prog "$exe"
	expect_grep rescript-ninja/build $? 0 "$out" "out/a.txt" "out/b.txt" "rescript: [2/2]"
	cat "$tree/out/a.txt" "$tree/out/b.txt" > "$out" 2>"$err"
	expect_text rescript-ninja/build-outputs $? "HELLO
WORLD"
}
