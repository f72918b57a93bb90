# buf (Go): lint a Protocol Buffers module (one field breaks the
# lower_snake_case rule: exit 100 and the exact finding), then compile it
# into a JSON image of its descriptors.
checks="lint build"

job() {
	cp -r "$fx/." "$tmp/"
	run_prog "$exe" lint
	expect buf/lint $? "$fx/lint.expected" 100 # 100: findings, as documented
	run_prog "$exe" build --exclude-source-info -o image.json
	expect_file buf/build $? "$tmp/image.json" "$fx/image.expected"
}
