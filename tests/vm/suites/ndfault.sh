# rig-order: last (it cuts B's link and deletes rxe0: tests/vm/selftest)
# Faults, with tests/nd2/ndfault_rig.exe under ndrun (see the top of that
# file).  Sourced by the rig's batched boots after lib.sh.
#  - the peer process killed (SIGKILL, once it printed "ready to be
#    killed"): while its connection request waits, between Connect and
#    CompleteConnect, and in the middle of a stream of Sends, Writes and
#    Reads; then a fresh peer connects.  One guest: the survivor serves,
#    then connects; two guests: A survives, B's processes are killed.
#  - two guests: B's link cut (ip link set down) under traffic, both sides'
#    requests end with errors and both programs end (B's releases its
#    objects once the link is back); the link comes back and a fresh
#    rdma_cm connection from B to A must work (B's rxe0 made anew if not).
#  - one guest: rxe0 deleted (rdma link delete) under traffic; it is added
#    again and a fresh pair connects.
# A process still running after its time counts as a hang, a failure.
# The logs are kept in $NDSHIM_VM_RESULTS/ndfault-HOST/.
nf_exe=$NDSHIM_VM_BUILD/tests/nd2/ndfault_rig.exe
nf_ndrun=$NDSHIM_VM_BUILD/ndrun
nf_logs=$vm_tmp
if [ -n "${NDSHIM_VM_RESULTS:-}" ] && mkdir -p "$NDSHIM_VM_RESULTS/ndfault-${NDSHIM_VM_HOST:-A}" 2> /dev/null; then
	nf_logs=$NDSHIM_VM_RESULTS/ndfault-${NDSHIM_VM_HOST:-A}
fi
nf_tags=
# B's word to A that its rdma_cm checks after the cut are over.
nf_done=${NDSHIM_VM_RESULTS:-$vm_tmp}/ndfault-B/rdma-done

# nf_one TAG SECONDS ARGS...: one ndrun process, its log and status kept.
nf_one() {
	_tag=$1
	_t=$2
	shift 2
	nf_tags="$nf_tags $_tag"
	_rc=0
	timeout -k 5 "$_t" "$nf_ndrun" "$nf_exe" "$@" > "$nf_logs/$_tag.log" 2>&1 || _rc=$?
	vm_lf "$nf_logs/$_tag.log"
	[ $_rc -ne 124 ] && [ $_rc -ne 137 ] || echo "still running after $_t s: a hang" >> "$nf_logs/$_tag.log"
	echo $_rc > "$nf_logs/$_tag.rc"
}

# nf_wait_for TAG PID TEXT: until the log has a line TEXT (120 s at most,
# less if the process ends); 0 when it came.
nf_wait_for() {
	_n=0
	until grep -q "^$3" "$nf_logs/$1.log" 2> /dev/null; do
		kill -0 "$2" 2> /dev/null || return 1
		[ $_n -lt 240 ] || return 1
		sleep 0.5
		_n=$((_n + 1))
	done
}

# nf_victim TAG ARGS...: a process killed with SIGKILL once it says so.
nf_victim() {
	_tag=$1
	shift
	nf_tags="$nf_tags $_tag"
	"$nf_ndrun" "$nf_exe" "$@" > "$nf_logs/$_tag.log" 2>&1 &
	_pid=$!
	if nf_wait_for "$_tag" $_pid 'ready to be killed'; then
		kill -KILL $_pid 2> /dev/null || true
		echo 0 > "$nf_logs/$_tag.rc"
	else
		kill -KILL $_pid 2> /dev/null || true
		echo "never became ready to be killed" >> "$nf_logs/$_tag.log"
		echo 1 > "$nf_logs/$_tag.rc"
	fi
	# Under set -e: the killed child's 137 must not end the boot's script.
	wait $_pid 2> /dev/null || true
}

# nf_reap PID TAG SECONDS WHEN: PID's status in TAG's .rc once it ends;
# still running after SECONDS it is a hang ("still running WHEN" in TAG's
# log), killed.
nf_reap() {
	_n=0
	while kill -0 $1 2> /dev/null && [ $_n -lt $(($3 * 2)) ]; do
		sleep 0.5
		_n=$((_n + 1))
	done
	if kill -0 $1 2> /dev/null; then
		echo "still running $4: a hang" >> "$nf_logs/$2.log"
		kill -KILL $1 2> /dev/null || true
	fi
	_rc=0
	wait $1 || _rc=$?
	echo $_rc > "$nf_logs/$2.rc"
}

nf_report() {
	_pre=$(vm_name '')
	for _t in $nf_tags; do
		_log=$nf_logs/$_t.log
		vm_report "$_log" "$(cat "$nf_logs/$_t.rc")" "ndfault $_t"
		if grep -q 'leaking a memory registration' "$_log"; then
			echo "FAIL: ${_pre}ndfault $_t: the provider leaked a memory registration"
			vm_failed=$((vm_failed + 1))
		fi
	done
	nf_tags=
}

nf_fail() {
	echo "FAIL: $(vm_name "ndfault: $1")"
	vm_failed=$((vm_failed + 1))
}

nf_ok() {
	echo "ok: $(vm_name "ndfault: $1")"
}

# nf_victims SIDE ADDR PEER: the three victims, then the fresh peer.
nf_victims() {
	nf_victim "victim-$1-requested" victim "$1" "$2" "$3" requested
	nf_victim "victim-$1-connected" victim "$1" "$2" "$3" connected
	nf_victim "victim-$1-xfer" victim "$1" "$2" "$3" xfer
	nf_one "fresh-$1" 120 fresh "$1" "$2" "$3"
}

nf_killed_one_host() {
	nf_one survivor-serve 400 survivor serve "$NDSHIM_VM_ADDR" "$NDSHIM_VM_ADDR" &
	_srv=$!
	nf_victims connect "$NDSHIM_VM_ADDR" "$NDSHIM_VM_ADDR"
	wait $_srv
	nf_one survivor-connect 400 survivor connect "$NDSHIM_VM_ADDR" "$NDSHIM_VM_ADDR" &
	_cli=$!
	nf_victims serve "$NDSHIM_VM_ADDR" "$NDSHIM_VM_ADDR"
	wait $_cli
	# The tags of the background runs were recorded in their subshells.
	nf_tags="survivor-serve survivor-connect$nf_tags"
	nf_report
}

# rxe0 deleted under traffic between two processes, then added again.
nf_remove() {
	nf_one remove-serve 200 remove serve "$NDSHIM_VM_ADDR" "$NDSHIM_VM_ADDR" &
	_srv=$!
	"$nf_ndrun" "$nf_exe" remove connect "$NDSHIM_VM_ADDR" "$NDSHIM_VM_ADDR" > "$nf_logs/remove-connect.log" 2>&1 &
	_cli=$!
	if ! nf_wait_for remove-connect $_cli 'ready to remove the device'; then
		nf_fail "remove: the traffic never started"
	fi
	_t0=$(date +%s)
	# Deleting the device waits for its users to let go of it.
	timeout 150 rdma link delete rxe0 > "$nf_logs/rdma-delete.log" 2>&1 &
	_del=$!
	nf_reap $_cli remove-connect 150 "150 s after the device went"
	wait $_srv
	_drc=0
	wait $_del || _drc=$?
	_secs=$(($(date +%s) - _t0))
	nf_tags="remove-serve remove-connect"
	nf_report
	if [ $_drc -eq 0 ]; then
		nf_ok "remove: rdma link delete rxe0 completed once the programs let go ($_secs s)"
	else
		nf_fail "remove: rdma link delete rxe0 exited $_drc after $_secs s"
		sed 's/^/    | /' "$nf_logs/rdma-delete.log"
	fi
	# Later suites need the device back.
	_n=0
	until rdma link show rxe0/1 2> /dev/null | grep -q ACTIVE; do
		rdma link show rxe0/1 > /dev/null 2>&1 ||
			rdma link add rxe0 type rxe netdev "$NDSHIM_VM_NETDEV" 2>> "$nf_logs/rdma-add.log" || true
		[ $_n -lt 60 ] || break
		sleep 1
		_n=$((_n + 1))
	done
	if rdma link show rxe0/1 2> /dev/null | grep -q ACTIVE; then
		nf_ok "remove: rxe0 added again"
	else
		nf_fail "remove: rxe0 could not be added again"
		cat "$nf_logs/rdma-add.log" 2> /dev/null | sed 's/^/    | /'
	fi
	nf_one after-remove-serve 120 fresh serve "$NDSHIM_VM_ADDR" "$NDSHIM_VM_ADDR" &
	_srv=$!
	nf_one after-remove-connect 120 fresh connect "$NDSHIM_VM_ADDR" "$NDSHIM_VM_ADDR"
	wait $_srv
	nf_tags="after-remove-serve after-remove-connect"
	nf_report
}

# B's link cut under traffic; A's program must see it end too.
nf_link() {
	if [ "$NDSHIM_VM_HOST" = A ]; then
		nf_one link-serve 300 link serve "$NDSHIM_VM_ADDR" "$NDSHIM_VM_PEER"
		nf_report
		# B gives the link back some 30 s after its program ended.
		if vm_retry 150 busybox ping -c 1 -W 1 "$NDSHIM_VM_PEER" > /dev/null 2>&1; then
			nf_ok "link: B answers again once its link is back"
		else
			nf_fail "link: B does not answer after its link came back"
		fi
		nf_rdma_serve
		return 0
	fi
	rm -f "$nf_done"
	# The program releases nothing while the link is down (see
	# link_cut): it waits for this file.
	_gate=$vm_tmp/link-back
	rm -f "$_gate"
	"$nf_ndrun" "$nf_exe" link connect "$NDSHIM_VM_ADDR" "$NDSHIM_VM_PEER" "$_gate" > "$nf_logs/link-connect.log" 2>&1 &
	_cli=$!
	if nf_wait_for link-connect $_cli 'ready to cut the link'; then
		ip link set "$NDSHIM_VM_NETDEV" down
		nf_ok "link: $NDSHIM_VM_NETDEV cut under traffic"
	else
		nf_fail "link: the traffic never started"
	fi
	# Its checks take at most 60 s after the first failure.
	nf_wait_for link-connect $_cli 'waiting for the link to come back' ||
		echo "not waiting for the link 120 s after the cut" >> "$nf_logs/link-connect.log"
	# A's program waits for its own failures: give it the link back only
	# once it is surely past them (its 60 s), so the cut is a cut.
	sleep 30
	ip link set "$NDSHIM_VM_NETDEV" up
	: > "$_gate"
	nf_reap $_cli link-connect 60 "60 s after the link came back"
	nf_tags=link-connect
	nf_report
	if vm_retry 60 busybox ping -c 1 -W 1 "$NDSHIM_VM_PEER" > /dev/null 2>&1; then
		nf_ok "link: $NDSHIM_VM_NETDEV up again, A answers"
	else
		nf_fail "link: A does not answer after the link came back"
	fi
	nf_rdma_restore
}

# A fresh rdma_cm connection from B to A must work after the cut, or
# later suites fail.  Once it did not: ping worked both ways but B's rxe0
# counted no received RoCE packet (hw_counters/rcvd_pkts stayed put) while
# A's counted each of B's CM requests and A answered each; neighbour
# entries, routes, port state and GID table were as before, and an RC
# queue pair made without the CM (ibv_rc_pingpong) worked across the link
# at the same moment: B's GSI queue pair (QP1) had gone deaf, after the
# CM's DREQ was sent while the link was down (8 of 8 attempts over 200 s
# failed).  link_cut now releases nothing until the link is back, which
# avoids it; should it happen anyway, rxe0 is made anew (a new QP1), and
# a connection must then work within 60 s.
nf_rdma_restore() {
	_p=$nf_logs/rdma-probe.log
	: > "$_p"
	_t0=$(date +%s)
	# A's server may still be starting (a refusal comes at once).
	if vm_retry 20 timeout 15 rping -c -a "$NDSHIM_VM_PEER" -C 1 -v >> "$_p" 2>&1; then
		nf_ok "link: a fresh rdma_cm connection to A works after the cut ($(($(date +%s) - _t0)) s)"
		mkdir -p "$(dirname "$nf_done")" && : > "$nf_done"
		return 0
	fi
	echo "    | note: link: no rdma_cm connection to A within 20 s after the cut ($(cd /sys/class/infiniband/rxe0/ports/1/hw_counters && grep -H . rcvd_pkts sent_pkts 2> /dev/null | tr '\n' ' ')): rxe0 made anew"
	_t0=$(date +%s)
	timeout 60 rdma link delete rxe0 >> "$_p" 2>&1 || true
	_n=0
	until rdma link show rxe0/1 2> /dev/null | grep -q ACTIVE; do
		rdma link show rxe0/1 > /dev/null 2>&1 ||
			rdma link add rxe0 type rxe netdev "$NDSHIM_VM_NETDEV" >> "$_p" 2>&1 || true
		[ $_n -lt 30 ] || break
		sleep 1
		_n=$((_n + 1))
	done
	if ! rdma link show rxe0/1 2> /dev/null | grep -q ACTIVE; then
		nf_fail "link: rxe0 could not be made anew on $NDSHIM_VM_NETDEV"
		sed 's/^/    | /' "$_p"
		mkdir -p "$(dirname "$nf_done")" && : > "$nf_done"
		return 0
	fi
	if vm_retry 60 timeout 15 rping -c -a "$NDSHIM_VM_PEER" -C 1 -v >> "$_p" 2>&1; then
		nf_ok "link: rxe0 made anew, a fresh rdma_cm connection to A works ($(($(date +%s) - _t0)) s)"
	else
		nf_fail "link: no rdma_cm connection to A within 60 s of rxe0 being made anew: later suites would fail"
		tail -n 20 "$_p" | sed 's/^/    | /'
	fi
	mkdir -p "$(dirname "$nf_done")" && : > "$nf_done"
}

# A serves B's attempts (and those after rxe0 was made anew, if it was)
# until B says it is done, 150 s at most; one must succeed.
nf_rdma_serve() {
	_p=$nf_logs/rdma-serve.log
	: > "$_p"
	_end=$(($(date +%s) + 150))
	_got=0
	until [ -f "$nf_done" ] || [ "$(date +%s)" -ge $_end ]; do
		timeout 20 rping -s -a "$NDSHIM_VM_ADDR" -C 1 -v >> "$_p" 2>&1 && _got=$((_got + 1))
	done
	if [ $_got -ge 1 ]; then
		nf_ok "link: B connected over rdma_cm after the link came back ($_got connections)"
	else
		nf_fail "link: no rdma_cm connection from B within 150 s of the link coming back"
		tail -n 20 "$_p" | sed 's/^/    | /'
	fi
}

nf_run() {
	if [ ! -x "$nf_ndrun" ] || [ ! -f "$NDSHIM_VM_BUILD/nd2prov.dll" ] || [ ! -f "$nf_exe" ]; then
		nf_fail "$nf_ndrun, nd2prov.dll and $nf_exe are built (make)"
		return 0
	fi
	if [ "${NDSHIM_VM_HOSTS:-1}" = 1 ]; then
		nf_killed_one_host
		nf_remove
	elif [ "$NDSHIM_VM_HOST" = A ]; then
		nf_one survivor-serve 400 survivor serve "$NDSHIM_VM_ADDR" "$NDSHIM_VM_PEER"
		nf_report
		nf_link
	else
		nf_victims connect "$NDSHIM_VM_ADDR" "$NDSHIM_VM_PEER"
		nf_report
		nf_link
	fi
}

nf_run
