# elm-format (Haskell, GHC 9 with the UCRT): validate an unformatted Elm
# module (exit 1, a JSON report naming it), then format it in place.
checks="validate format"

job() {
	cp "$fx/Main.elm" "$tmp/"
	run_prog "$exe" --validate Main.elm
	expect_grep elm-format/validate $? 1 "$out" \
		'[{"path":"Main.elm","message":"File is not formatted with elm-format-0.8.8 --elm-version=0.19"}'
	run_prog "$exe" --yes Main.elm
	expect_file elm-format/format $? "$tmp/Main.elm" "$fx/formatted.expected"
}
