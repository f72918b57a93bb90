# parcel_css, lightningcss's earlier name (Rust, MSVC; an older rustc and
# std than lightningcss'): minify for an old browser target, which adds a
# vendor prefix, to stdout and to a file.
checks="minify minify-file"

job() {
	run_prog "$exe" --minify --targets "safari 12" "$fx/input.css"
	expect parcel-css/minify $? "$fx/minified.expected"
	# -o writes no final newline.
	printf '%s' "$(cat "$fx/minified.expected")" > "$tmp/file.expected"
	run_prog "$exe" --minify --targets "safari 12" "$fx/input.css" -o out.css
	expect_file parcel-css/minify-file $? "$tmp/out.css" "$tmp/file.expected"
}
