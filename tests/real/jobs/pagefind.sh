# Pagefind (Rust, MSVC; the extended build), a static-site search
# indexer: index a two-page site.  Its entry file names the index by a
# hash of what was indexed, so an index built from other words or pages
# shows up there; one fragment per page.
checks="index entry fragments"

job() {
	cp -r "$fx/site" "$tmp/"
	run_prog "$exe" --site site
	rc=$?
	expect_grep pagefind/index $rc 0 "$out" "Indexed 2 pages" "Indexed 11 words"
	expect_file pagefind/entry $rc "$tmp/site/pagefind/pagefind-entry.json" "$fx/entry.expected"
	ls "$tmp/site/pagefind/fragment" 2>/dev/null | wc -l | tr -d ' ' > "$out"
	expect_text pagefind/fragments $rc 2
}
