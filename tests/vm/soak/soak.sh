#!/bin/sh
# make soak: tests/nd2/ndsoak_rig.exe's ping-pong and RDMA Write stream
# between two ndrun processes on one guest for SECONDS (default 600), every
# byte checked, with each process's resident memory sampled every 10 s.
# Run by tests/vm/run; the report goes to stdout and to
# $NDSHIM_VM_RESULTS/soak/report.txt.
#
# Memory is flat when, for each process, the resident set (VmRSS) and its
# anonymous part (RssAnon: heap, the program's allocations, where a leak
# shows), at the end and at their highest, lie within 1 MiB of the sample
# taken once the warm-up is over (a tenth of the run, at least 30 s: the
# first registrations, the CQ's and the heap's first growth).  1 MiB is 256 pages;
# a per-request leak of 16 bytes would exceed it after about 65,000
# requests, what the client alone posts in four to ten minutes under TCG.
. "$NDSHIM_VM_PROJECT/tests/vm/lib.sh"
secs=${1:-600}
exe=$NDSHIM_VM_BUILD/tests/nd2/ndsoak_rig.exe
ndrun=$NDSHIM_VM_BUILD/ndrun
out=$NDSHIM_VM_RESULTS/soak
mkdir -p "$out"
rm -f "$out"/*.log "$out/rss.txt" "$out/report.txt"
addr=$NDSHIM_VM_ADDR
limit_kb=1024
warm=$((secs / 10))
[ $warm -ge 30 ] || warm=30

# VmRSS, and RssAnon (the heap and the program's own allocations, where a
# leak shows) in kB; 0 0 once the process is gone.
rss_kb() {
	awk '/^VmRSS:/ { r = $2 } /^RssAnon:/ { a = $2 } END { print (r ? r : 0), (a ? a : 0) }' "/proc/$1/status" 2> /dev/null ||
		echo 0 0
}

"$ndrun" "$exe" serve "$addr" "$addr" > "$out/server.log" 2>&1 &
srv=$!
"$ndrun" "$exe" connect "$addr" "$addr" "$secs" > "$out/client.log" 2>&1 &
cli=$!
t0=$(date +%s)
sleep 1
echo "soak: sampled processes: $(cat /proc/$srv/comm 2> /dev/null) $srv, $(cat /proc/$cli/comm 2> /dev/null) $cli" > "$out/pids.txt"
# Sampled until both end, or the run is far past its time (a hang).
while kill -0 $srv 2> /dev/null || kill -0 $cli 2> /dev/null; do
	t=$(($(date +%s) - t0))
	if kill -0 $srv 2> /dev/null && kill -0 $cli 2> /dev/null; then
		echo "$t $(rss_kb $srv) $(rss_kb $cli)" >> "$out/rss.txt"
	fi
	if [ $t -gt $((secs + 180)) ]; then
		echo "still running $t s into a $secs s run: a hang" >> "$out/client.log"
		kill -KILL $srv $cli 2> /dev/null || true
	fi
	sleep 10
done
src=0
wait $srv || src=$?
crc=0
wait $cli || crc=$?
vm_lf "$out/server.log" "$out/client.log"

{
	echo "soak: $(date -u '+%Y-%m-%d %H:%M UTC'), $secs s asked, $(($(date +%s) - t0)) s taken"
	cat "$out/pids.txt"
	grep '^soak: server: ' "$out/server.log" || echo "soak: server: no final report (exit $src)"
	grep '^soak: client: ' "$out/client.log" || echo "soak: client: no final report (exit $crc)"
	awk -v warm=$warm -v limit=$limit_kb '
		$1 >= warm && !base_t { base_t = $1; for (i = 2; i <= 5; i++) b[i] = $i }
		base_t { for (i = 2; i <= 5; i++) if ($i > m[i]) m[i] = $i }
		{ last_t = $1; for (i = 2; i <= 5; i++) e[i] = $i; n++ }
		END {
			if (!base_t) { print "soak: memory: no sample after the warm-up (" n " samples)"; exit 1 }
			printf "soak: memory: %d samples; after the warm-up (%d s): server RSS %d kB (anonymous %d), client RSS %d kB (anonymous %d)\n", n, base_t, b[2], b[3], b[4], b[5]
			printf "soak: memory: at the end (%d s): server RSS %d kB (anonymous %d), client RSS %d kB (anonymous %d)\n", last_t, e[2], e[3], e[4], e[5]
			bad = 0
			for (i = 2; i <= 5; i++) { g[i] = (m[i] > e[i] ? m[i] : e[i]) - b[i]; if (g[i] > limit) bad = 1 }
			printf "soak: memory: growth (highest or last sample minus the first after the warm-up): server RSS %d kB, anonymous %d kB; client RSS %d kB, anonymous %d kB (flat: at most %d kB each)\n", g[2], g[3], g[4], g[5], limit
			exit bad
		}' "$out/rss.txt"
	echo "memory $?"
} > "$out/report.raw" 2>&1
mem_ok=$(sed -n 's/^memory //p' "$out/report.raw")
grep -v '^memory ' "$out/report.raw" > "$out/report.txt"
rm -f "$out/report.raw"
sed 's/^/    /' "$out/report.txt"

errors() { sed -n 's/.* \([0-9]*\) errors;.*/\1/p' "$1"; }
check_side() { # NAME LOG RC
	_e=$(errors "$2")
	[ "$3" -eq 0 ] && [ "${_e:-x}" = 0 ] && grep -q "^soak: $1: [1-9][0-9]* round trips, .* [1-9][0-9]* batches" "$2"
}
vm_check "soak: the server ran clean: round trips and batches checked, 0 errors" check_side server "$out/server.log" $src
vm_check "soak: the client ran clean for $secs s: round trips and batches checked, 0 errors" \
	sh -c 'cat "$1"; [ "$2" = 0 ] && grep -q "^soak: client: .* 0 errors; \([0-9]*\) s" "$1" &&
		[ "$(sed -n "s/^soak: client: .* errors; \([0-9]*\) s$/\1/p" "$1")" -ge "$3" ]' sh "$out/client.log" $crc $secs
vm_check "soak: memory flat (growth at most $limit_kb kB per process after the warm-up)" test "$mem_ok" = 0
if [ "$src" -ne 0 ] || [ "$crc" -ne 0 ]; then
	echo "    server log:"; tail -n 20 "$out/server.log" | sed 's/^/    | /'
	echo "    client log:"; tail -n 20 "$out/client.log" | sed 's/^/    | /'
fi
vm_finish
