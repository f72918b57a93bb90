# Shared receive queues and completion-queue notification: the rig program
# tests/nd2/nd2srq_rig.exe (see the top of that file), then the ndsrq
# sample (one SRQ serving several connections, every size up to the
# adapter's MaxTransferLength checked, polling and blocking).  Sourced by
# the rig's batched boots after lib.sh.  One guest: server and client are
# two ndrun processes; two guests: A serves, B connects.  The logs are kept
# in $NDSHIM_VM_RESULTS/nd2srq-HOST/.
# NDSHIM_ND2SRQ_NDRUN picks another ndrun (and the nd2prov.dll beside it).
nd2srq_exe=$NDSHIM_VM_BUILD/tests/nd2/nd2srq_rig.exe
nd2srq_ndrun=${NDSHIM_ND2SRQ_NDRUN:-$NDSHIM_VM_BUILD/ndrun}
nd2srq_logs=$vm_tmp
if [ -n "${NDSHIM_VM_RESULTS:-}" ] && mkdir -p "$NDSHIM_VM_RESULTS/nd2srq-${NDSHIM_VM_HOST:-A}" 2> /dev/null; then
	nd2srq_logs=$NDSHIM_VM_RESULTS/nd2srq-${NDSHIM_VM_HOST:-A}
fi

# nd2srq_one TAG EXE ARGS...: one ndrun process, its log and status kept.
nd2srq_one() {
	_otag=$1
	shift
	_orc=0
	timeout 180 "$nd2srq_ndrun" "$@" > "$nd2srq_logs/$_otag.log" 2>&1 || _orc=$?
	vm_lf "$nd2srq_logs/$_otag.log"
	echo $_orc > "$nd2srq_logs/$_otag.rc"
}

# nd2srq_report TAG: the rig program's own lines; a non-zero exit without a
# FAIL line is a failure of its own.
nd2srq_report() {
	vm_report "$nd2srq_logs/$1.log" "$(cat "$nd2srq_logs/$1.rc")" "nd2srq $1"
}

nd2srq_rig() {
	if [ ! -x "$nd2srq_ndrun" ] || [ ! -f "$(dirname "$nd2srq_ndrun")/nd2prov.dll" ] || [ ! -f "$nd2srq_exe" ]; then
		echo "FAIL: $(vm_name "nd2srq: $nd2srq_ndrun, nd2prov.dll beside it and $nd2srq_exe are built (make)")"
		vm_failed=$((vm_failed + 1))
		return 0
	fi
	if [ "${NDSHIM_VM_HOSTS:-1}" = 1 ]; then
		nd2srq_one rig-server "$nd2srq_exe" server "$NDSHIM_VM_ADDR" "$NDSHIM_VM_ADDR" &
		_srv=$!
		nd2srq_one rig-client "$nd2srq_exe" client "$NDSHIM_VM_ADDR" "$NDSHIM_VM_ADDR"
		wait $_srv || true
		nd2srq_report rig-server
		nd2srq_report rig-client
	elif [ "$NDSHIM_VM_HOST" = A ]; then
		nd2srq_one rig-server "$nd2srq_exe" server "$NDSHIM_VM_ADDR" "$NDSHIM_VM_PEER"
		nd2srq_report rig-server
	else
		nd2srq_one rig-client "$nd2srq_exe" client "$NDSHIM_VM_ADDR" "$NDSHIM_VM_PEER"
		nd2srq_report rig-client
	fi
}

nd2srq_rig

# ndsrq: a server with one SRQ for four connections, from two client
# processes of two connections each; every size from 0 B to the adapter's
# MaxTransferLength (8 MiB on rxe), every byte checked, on one guest and
# across two.  Few iterations: TCG is slow and 8 MiB messages many.
# Across two guests a run failed now and then (one in five, with the host
# loaded or not: a connection silent at 32 KiB, 128 KiB, 4 MiB, ...): QEMU 7.2's
# virtio-net had stopped sending one guest's packets for good (NETDEV
# WATCHDOG in that guest's kernel log: A's in one such run, B's in
# another), over the stream netdev and over a TCP socket netdev alike
# (virtio-net's x-txburst=4096 did not prevent it; a UDP netdev never
# stalled but lost so much under load that 8 MiB transfers crawled past
# ndsrq's 30 s).  The rig's link is an e1000 since (tests/vm/run), which
# has not stalled; nd2srq_link_stall still names a stall of either NIC on
# the guest that has it, so it reads apart from an ndsrq failure.
nd2srq_sample_exe=$NDSHIM_VM_BUILD/samples/ndsrq.exe

# After a failure: a link whose transmit queue stalled on this guest
# (NETDEV WATCHDOG, or the e1000's Tx Unit Hang) makes a failure the
# rig's, not ndsrq's.  Each
# guest looks at its own: a stall of A's queue shows only in A's dmesg.
nd2srq_link_stall() {
	if dmesg 2> /dev/null | grep -q -e 'NETDEV WATCHDOG' -e 'Detected Tx Unit Hang'; then
		echo "this guest's link to the other stalled (dmesg):"
		dmesg | grep -e 'NETDEV WATCHDOG' -e 'Detected Tx Unit Hang' | tail -n 3
	fi
}

# The largest size the client's table must reach: the adapter's.
nd2srq_max() {
	ibv_devinfo -v -d "$NDSHIM_VM_RDMA_DEV" | sed -n 's/^[[:space:]]*max_msg_sz:[[:space:]]*\(0x[0-9a-f]*\).*/\1/p' | head -n 1
}

# nd2srq_table LOG MAX: a row per size 0, 1, 2, 4, ... MAX, two connections, two iterations.
nd2srq_table() {
	_ts=0
	while :; do
		grep -Eq "^ $_ts +2 +2 +4 " "$1" || { echo "no row for $_ts bytes in $1"; return 1; }
		[ "$_ts" -lt "$2" ] || return 0
		if [ "$_ts" = 0 ]; then _ts=1; elif [ $((_ts * 2)) -gt "$2" ]; then _ts=$2; else _ts=$((_ts * 2)); fi
	done
}

# nd2srq_server TAG PORT [-b]: four connections, and the server's summary.
nd2srq_server() {
	_stag=$1 _sport=$2
	shift 2
	nd2srq_one "ndsrq-server-$_stag" "$nd2srq_sample_exe" -s "$NDSHIM_VM_ADDR:$_sport" -C 4 "$@"
	cat "$nd2srq_logs/ndsrq-server-$_stag.log"
	if [ "$(cat "$nd2srq_logs/ndsrq-server-$_stag.rc")" = 0 ] &&
		grep -Eq '^ndsrq server: 4 connections through one SRQ: ([0-9]+) of \1 messages received, checked and echoed; [1-9][0-9]* replenishments on Notify' \
			"$nd2srq_logs/ndsrq-server-$_stag.log"; then
		return 0
	fi
	nd2srq_link_stall
	return 1
}

# nd2srq_clients TAG SERVER PORT [-b]: two client processes at once; sizes
# up to MaxTransferLength.
nd2srq_clients() {
	_ctag=$1 _caddr=$2 _cport=$3
	shift 3
	_max=$(nd2srq_max)
	[ -n "$_max" ] || { echo "ibv_devinfo -v shows no max_msg_sz for $NDSHIM_VM_RDMA_DEV"; return 1; }
	_max=$(printf '%d' "$_max")
	nd2srq_one "ndsrq-client1-$_ctag" "$nd2srq_sample_exe" -c "$_caddr:$_cport" -C 2 -n 2 -w 60 "$@" &
	_c1=$!
	nd2srq_one "ndsrq-client2-$_ctag" "$nd2srq_sample_exe" -c "$_caddr:$_cport" -C 2 -n 2 -w 60 "$@"
	wait $_c1 || true
	_cok=0
	for _c in 1 2; do
		_clog=$nd2srq_logs/ndsrq-client$_c-$_ctag.log
		echo "--- client $_c:"
		cat "$_clog"
		[ "$(cat "$nd2srq_logs/ndsrq-client$_c-$_ctag.rc")" = 0 ] && nd2srq_table "$_clog" "$_max" || _cok=1
	done
	[ $_cok -eq 0 ] || nd2srq_link_stall
	return $_cok
}

# Server and both clients on this guest.
nd2srq_local() { # TAG PORT [-b]
	_ltag=$1 _lport=$2
	shift 2
	nd2srq_server "$_ltag" "$_lport" "$@" > "$vm_tmp/nd2srq-server" 2>&1 &
	_lpid=$!
	_lcrc=0
	nd2srq_clients "$_ltag" "$NDSHIM_VM_ADDR" "$_lport" "$@" || _lcrc=1
	_lsrc=0
	wait $_lpid || _lsrc=1
	echo "--- server:"
	cat "$vm_tmp/nd2srq-server"
	[ $_lcrc -eq 0 ] && [ $_lsrc -eq 0 ]
}

if [ ! -f "$nd2srq_sample_exe" ] || [ ! -x "$nd2srq_ndrun" ]; then
	echo "FAIL: $(vm_name "ndsrq: $nd2srq_ndrun and $nd2srq_sample_exe are built (make)")"
	vm_failed=$((vm_failed + 1))
elif [ "${NDSHIM_VM_HOSTS:-1}" = 1 ]; then
	vm_check "ndsrq, polling: 4 connections (2 processes) through one SRQ, 0 B to MaxTransferLength checked" \
		nd2srq_local polling 54860
	vm_check "ndsrq, blocking (Notify + IOCP): the same" nd2srq_local blocking 54861 -b
elif [ "$NDSHIM_VM_HOST" = A ]; then
	vm_check "ndsrq server for B, polling: 4 connections through one SRQ, every message checked" \
		nd2srq_server polling 54860
	vm_check "ndsrq server for B, blocking: the same" nd2srq_server blocking 54861 -b
else
	vm_check "ndsrq clients to A, polling: 2 processes x 2 connections, 0 B to MaxTransferLength checked" \
		nd2srq_clients polling "$NDSHIM_VM_PEER" 54860
	vm_check "ndsrq clients to A, blocking (Notify + IOCP): the same" \
		nd2srq_clients blocking "$NDSHIM_VM_PEER" 54861 -b
fi
