# 7-Zip 21.07's 7za (C++, MSVC with msvcrt.dll): pack a folder into a 7z
# archive, test it, unpack it elsewhere and compare the trees; pack it
# into a zip that Python's zipfile reads back whole.
checks="7z-test 7z-roundtrip zip"

job() {
	cp -r "$fx/tree" "$tmp/"
	run_prog "$exe" a -bd t.7z tree
	rc=$?
	[ "$rc" -eq 0 ] && run_prog "$exe" t -bd t.7z
	expect_grep 7za/7z-test $? 0 "$out" "Everything is Ok" "Files: 2"
	run_prog "$exe" x -bd -oout t.7z
	rc=$?
	diff -r "$fx/tree" "$tmp/out/tree" > "$err" 2>&1 && echo same > "$out"
	expect_text 7za/7z-roundtrip $rc same
	printf 'tree/a.txt 1\ntree/docs/b.txt 2\n' > "$tmp/zip.expected"
	run_prog "$exe" a -bd -tzip t.zip tree
	rc=$?
	[ "$rc" -eq 0 ] && python3 -c 'import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
assert z.testzip() is None
for n in sorted(z.namelist()):
    if not n.endswith("/"):
        print(n, z.read(n).decode().count("\n"))' "$tmp/t.zip" >"$out" 2>"$err"
	expect 7za/zip $rc "$tmp/zip.expected"
}
