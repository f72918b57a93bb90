# Turborepo (Rust, MSVC), a monorepo task runner: list an npm workspace's
# packages, then plan `turbo run build` without running it (--dry=json):
# b's build waits for a's, as b depends on a.
checks="ls dry-run"

job() {
	cp -r "$fx/." "$tmp/"
	export TURBO_TELEMETRY_DISABLED=1
	run_prog "$exe" ls
	expect_grep turbo/ls $? 0 "$out" "2 packages (npm)" "a packages\\a" "b packages\\b"
	run_prog "$exe" run build --dry=json
	rc=$?
	[ "$rc" -eq 0 ] && python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(sorted((t["taskId"], t["dependencies"]) for t in d["tasks"]))' "$out" > "$tmp/plan" 2>"$err"
	cp "$tmp/plan" "$out"
	expect_text turbo/dry-run $rc "[('a#build', []), ('b#build', ['a#build'])]"
}
