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

# serve_marked NAME SECONDS OUT CMD...: CMD (a server) in the background,
# the NAME mark once it listens over rdma_cm (vm_mark), then its status.
serve_marked() {
	_sm_name=$1 _sm_t=$2 _sm_out=$3
	shift 3
	timeout "$_sm_t" "$@" > "$_sm_out" 2>&1 &
	_sm_pid=$!
	if ! vm_retry 300 cm_listening; then
		echo "$1: not listening after 300 s" >&2
		kill "$_sm_pid" 2>/dev/null
		wait "$_sm_pid"
		return 1
	fi
	vm_mark "$_sm_name"
	wait "$_sm_pid"
}

# rping_server ADDR / rping_client ADDR: three verified round trips.  The
# client connects once the server says it listens (vm_wait_mark): across
# two guests the server may start minutes later when other boots share
# the cores (check-vm runs its boots beside make check's host suites).
rping_server() {
	serve_marked rping 600 "$vm_tmp/rping-server" rping -s -a "$1" -C 3 -v &&
		grep -q 'server ping data: rdma-ping-2' "$vm_tmp/rping-server"
}
rping_client() {
	vm_wait_mark rping &&
		vm_retry 120 timeout 30 rping -c -a "$1" -C 3 -v > "$vm_tmp/rping-client" 2>&1 &&
		grep -q '^ping data: rdma-ping-2' "$vm_tmp/rping-client"
}

# Writes the result table to RESULT_FILE; the line for 2-byte messages over
# 200 iterations proves the run completed.
lat_server() {
	serve_marked lat 600 "$vm_tmp/lat-server" ib_send_lat -R -n 200 &&
		grep -Eq '^ *2 +200 ' "$vm_tmp/lat-server"
}
lat_client() { # ADDR RESULT_FILE
	vm_wait_mark lat &&
		vm_retry 120 timeout 60 ib_send_lat -R -n 200 "$1" > "$2" 2>&1 &&
		grep -Eq '^ *2 +200 ' "$2"
}

# An rdma_cm listener exists on this guest (the server side is ready).
cm_listening() {
	rdma resource show cm_id 2>/dev/null | grep -q 'state LISTEN'
}

# local_pair SERVER_FN CLIENT_FN [CLIENT_ARG...]: a server and its client
# on this guest.  The client starts once the server listens.  rdma-core's
# own tools occasionally die under TCG (seen: a general protection fault in
# librdmacm inside ib_send_lat), which says nothing about the rig, so the
# pair gets three tries; each failed try is printed.
local_pair() {
	_srv_fn=$1 _cli_fn=$2
	shift 2
	for _try in 1 2 3; do
		"$_srv_fn" & _srv=$!
		if vm_retry 30 cm_listening && "$_cli_fn" "$@" && wait $_srv; then
			return 0
		fi
		kill $_srv 2>/dev/null; wait $_srv 2>/dev/null
		echo "local_pair: try $_try of $_srv_fn/$_cli_fn failed" >&2
	done
	return 1
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
