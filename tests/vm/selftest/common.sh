# Checks shared by the rig's self-tests (sourced after tests/vm/lib.sh).

# rxe0 is up on the netdev the rig promised, which has this guest's address.
rxe_on_netdev() {
	rdma link show rxe0/1 | grep -q "state ACTIVE .*netdev $NDSHIM_VM_NETDEV" &&
		ip -4 -o addr show dev "$NDSHIM_VM_NETDEV" | grep -q " $NDSHIM_VM_ADDR/24 "
}

devinfo_rxe0() {
	ibv_devinfo -d rxe0 | grep -q 'state:.*PORT_ACTIVE'
}

# The guest must not reach past the machine: no default route, no address
# outside 198.18.0.0/24 routable, and no links but lo and the rig's netdev.
no_route_out() {
	[ -z "$(ip route show default)" ] &&
		[ -z "$(ip -6 route show default)" ] &&
		! ip route get 192.0.2.1 &&
		! ip -6 route get 2001:db8::1 &&
		[ "$(ip -o link show | awk -F': ' '{ print $2 }' | sort | tr '\n' ' ')" = \
			"$(printf '%s\n' lo "$NDSHIM_VM_NETDEV" | sort | tr '\n' ' ')" ]
}

# A server and its client, on two guests or on one guest, in tries.
# rdma-core's tools serve one client each: once ib_send_lat -R or rping -s
# has taken a connection its listener is gone, so a client killed mid-run
# (by a time limit, under load) leaves nothing to connect to, and every
# later connect of a client retrying alone is REJECTED until the server's
# own time runs out (seen in make check's lanes: REJECTED on every try for
# 120 s, issue 27).  And perftest races itself: with -R its client
# connects twice, first the channel on which the two exchange their
# parameters, then the data QP, which its server starts listening for
# only after that exchange; a client there first is REJECTED (reason 8,
# no listener for the service ID; the server's rdma_cm ids at that moment:
# the exchange's connection and, just made, the data listener) and
# perftest 4.5+0.17's own retry of that connect crashes (status 139 after
# 1 s; linux-rdma/perftest#93).  Under TCG beside the other boot that
# race is lost often enough (in one make check run two tries of one pair
# in a row) that a pair gets pair_tries tries, pair_gap seconds apart so
# a burst of load on the host can pass.  Server and client retry
# together, each failed try printed: the server of try N listens over
# rdma_cm, then marks NAME.N (vm_mark); the client of try N waits for
# that mark (under TCG, beside other boots, a server may start minutes
# after its client), runs once, and marks its verdict, NAME.N.passed or
# NAME.N.failed; on a failed verdict the server stops and try N+1 starts.
pair_tries=5
pair_gap=10

# cm_listening_by PID: PID's child (the server under timeout) has an
# rdma_cm listener.  Any listener on the guest would not do: the one of a
# server that has just ended (the pair before, or this pair's try before)
# can still be listed for a moment, and a client let in then is REJECTED
# (seen: the first try of the ib_send_lat pair right after the rping pair,
# which perftest answered with a segfault).
cm_listening_by() {
	_cl_child=$(pgrep -P "$1" | head -n 1)
	[ -n "$_cl_child" ] &&
		rdma resource show cm_id 2>/dev/null | grep -Eq "state LISTEN .*pid $_cl_child comm "
}

# pair_server NAME SECONDS OUT CHECK CMD...: CMD, the server, at most
# SECONDS a try, its output in OUT; a try passes when CMD exits 0, CHECK
# OUT holds and the client's verdict is "passed".
pair_server() {
	_ps_name=$1 _ps_t=$2 _ps_out=$3 _ps_check=$4
	shift 4
	for _ps_try in $(seq "$pair_tries"); do
		timeout "$_ps_t" "$@" > "$_ps_out" 2>&1 &
		_ps_pid=$!
		# A server that never listens still marks its try: its client's
		# connect fails, and both go on to the next try.
		vm_retry 300 cm_listening_by $_ps_pid || echo "pair: $_ps_name server: try $_ps_try: not listening after 300 s" >&2
		vm_mark "$_ps_name.$_ps_try"
		_ps_verdict=none
		_ps_end=$(($(date +%s) + _ps_t + 300))
		while [ "$(date +%s)" -lt $_ps_end ]; do
			vm_take_mark "$_ps_name.$_ps_try.passed" && { _ps_verdict=passed; break; }
			vm_take_mark "$_ps_name.$_ps_try.failed" && { _ps_verdict=failed; break; }
			sleep 1
		done
		if [ $_ps_verdict = failed ]; then
			# What this guest's rdma_cm had when the client gave up: which
			# listeners, which connections of the last try still there.
			echo "pair: $_ps_name server: try $_ps_try: rdma_cm ids here as the client failed:" >&2
			rdma resource show cm_id 2>&1 | sed 's/^/    /' >&2
		fi
		[ $_ps_verdict = passed ] || kill $_ps_pid 2>/dev/null
		_ps_st=0
		wait $_ps_pid || _ps_st=$?
		if [ $_ps_verdict = passed ]; then
			[ $_ps_st = 0 ] && "$_ps_check" "$_ps_out" && return 0
			echo "pair: $_ps_name server: try $_ps_try: the client passed, the server did not (status $_ps_st):" >&2
			sed 's/^/    /' "$_ps_out" >&2
			return 1
		fi
		echo "pair: $_ps_name server: try $_ps_try of $pair_tries: the client's verdict: $_ps_verdict (server status $_ps_st):" >&2
		sed 's/^/    /' "$_ps_out" >&2
		[ $_ps_verdict = failed ] || return 1
		sleep $pair_gap
	done
	return 1
}

# pair_client NAME SECONDS OUT CHECK CMD...: one run of CMD, the client,
# a try, once that try's server listens; at most SECONDS a try, output in
# OUT; a try passes when CMD exits 0 and CHECK OUT holds.
pair_client() {
	_pc_name=$1 _pc_t=$2 _pc_out=$3 _pc_check=$4
	shift 4
	for _pc_try in $(seq "$pair_tries"); do
		vm_wait_mark "$_pc_name.$_pc_try" || return 1
		_pc_st=0
		_pc_t0=$(date +%s)
		timeout "$_pc_t" "$@" > "$_pc_out" 2>&1 || _pc_st=$?
		if [ $_pc_st = 0 ] && "$_pc_check" "$_pc_out"; then
			vm_mark "$_pc_name.$_pc_try.passed"
			return 0
		fi
		vm_mark "$_pc_name.$_pc_try.failed"
		echo "pair: $_pc_name client: try $_pc_try of $pair_tries failed (status $_pc_st after $(($(date +%s) - _pc_t0)) s):" >&2
		sed 's/^/    /' "$_pc_out" >&2
	done
	return 1
}

# local_pair SERVER_FN CLIENT_FN [CLIENT_ARG...]: a server and its client
# on this guest (their tries are pair_server's and pair_client's).
local_pair() {
	_lp_srv=$1 _lp_cli=$2
	shift 2
	"$_lp_srv" &
	_lp_pid=$!
	_lp_rc=0
	"$_lp_cli" "$@" || _lp_rc=1
	wait $_lp_pid || _lp_rc=1
	return $_lp_rc
}

# rping_server ADDR / rping_client ADDR: three verified round trips.
rping_server_ok() { grep -q 'server ping data: rdma-ping-2' "$1"; }
rping_client_ok() { grep -q '^ping data: rdma-ping-2' "$1"; }
rping_server() {
	pair_server rping 900 "$vm_tmp/rping-server" rping_server_ok rping -s -a "$1" -C 3 -v
}
rping_client() {
	pair_client rping 600 "$vm_tmp/rping-client" rping_client_ok rping -c -a "$1" -C 3 -v
}

# lat_server / lat_client ADDR RESULT_FILE: ib_send_lat -R over 200
# iterations; the table's line for 2-byte messages proves the run
# completed.
lat_ok() { grep -Eq '^ *2 +200 ' "$1"; }
lat_server() { # [NAME]
	pair_server "${1:-lat}" 900 "$vm_tmp/lat-server" lat_ok ib_send_lat -R -n 200
}
lat_client() {
	pair_client lat 600 "$2" lat_ok ib_send_lat -R -n 200 "$1"
}

# lat_client_killed_once ADDR: the tries themselves.  The first client
# fails on purpose: asked for far more iterations than its server, it is
# killed 5 s into its run (as a time limit under load would kill it; its
# server's listener went with its connection) or ends when its server,
# done, leaves; either way its try fails.  A later try of the pair must
# pass (lat_server lat-retry on the other guest).
lat_client_killed_once() {
	rm -f "$vm_tmp/lat-once"
	pair_client lat-retry 600 "$vm_tmp/lat-retry" lat_ok sh -c '
		if [ ! -e "$1" ]; then
			: > "$1"
			timeout 5 ib_send_lat -R -n 100000000 "$2"
			exit 1
		fi
		exec ib_send_lat -R -n 200 "$2"' sh "$vm_tmp/lat-once" "$1" 2> "$vm_tmp/lat-retry.err"
	_lk_rc=$?
	cat "$vm_tmp/lat-retry.err" >&2
	[ $_lk_rc = 0 ] && grep -q "^pair: lat-retry client: try 1 of $pair_tries failed" "$vm_tmp/lat-retry.err"
}

# run_suites: every suite in tests/vm/suites, sourced into this shell.
# Those marked "rig-order: last" (they cut the link or delete rxe0) come
# after the rest, so no other suite runs on a device or link just restored.
# Each suite's time is printed as a note ("    | time: SUITE N s"), which
# tests/vm/check gathers into its summary of where check-vm's time goes.
run_suites() {
	for _suite in "$NDSHIM_VM_PROJECT"/tests/vm/suites/*.sh; do
		grep -q '^# rig-order: last' "$_suite" || run_timed "$_suite"
	done
	for _suite in "$NDSHIM_VM_PROJECT"/tests/vm/suites/*.sh; do
		! grep -q '^# rig-order: last' "$_suite" || run_timed "$_suite"
	done
}

run_timed() { # SUITE-FILE: sourced, so it shares this shell (and no arguments)
	_rt_f=$1
	shift
	_rt_t0=$(date +%s)
	. "$_rt_f"
	echo "    | time: $(vm_name "$(basename "$_rt_f" .sh)") $(($(date +%s) - _rt_t0)) s"
}
