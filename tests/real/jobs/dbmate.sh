# dbmate (Go with cgo: SQLite compiled in by zig cc): apply two migrations
# to a new SQLite database, read the rows back with Python's sqlite3, show
# the status, roll the last one back and show it again.
checks="up rows status rollback"

job() {
	cp -r "$fx/db" "$tmp/"
	run_prog "$exe" --url sqlite:app.db up
	expect_grep dbmate/up $? 0 "$out" "Creating: app.db" "Applied: 20240101000000_create_users.sql" \
		"Applied: 20240102000000_seed.sql"
	# The database file itself, read by another SQLite: the table and
	# its row, and dbmate's own bookkeeping.
	python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
print(c.execute("select name from users").fetchall(),
      c.execute("select version from schema_migrations order by version").fetchall())' "$tmp/app.db" >"$out" 2>"$err"
	expect_text dbmate/rows $? "[('ada',)] [('20240101000000',), ('20240102000000',)]"
	run_prog "$exe" --url sqlite:app.db status
	expect dbmate/status $? "$fx/status-up.expected"
	run_prog "$exe" --url sqlite:app.db rollback && run_prog "$exe" --url sqlite:app.db status
	expect dbmate/rollback $? "$fx/status-rollback.expected"
}
