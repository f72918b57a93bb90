# git-cliff (Rust, MSVC; libgit2 inside), a changelog generator: read a
# repository of conventional commits made by fixtures/git-cliff/make-repo.sh
# with the host's git, write the changelog grouped by tag and type, and
# work out the next version.
checks="changelog bump"

job() {
	(cd "$tmp" && sh "$fx/make-repo.sh") >"$out" 2>"$err"
	cp "$fx/cliff.toml" "$tmp/"
	run_prog "$exe" -c cliff.toml -o CHANGELOG.md
	expect_file git-cliff/changelog $? "$tmp/CHANGELOG.md" "$fx/changelog.expected"
	run_prog "$exe" -c cliff.toml --bumped-version
	expect_text git-cliff/bump $? v1.1.1
}
