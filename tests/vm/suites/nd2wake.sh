# The blocking ND2 wait without the event thread's hop (issue 16;
# docs/nd2-decisions.md, "Blocking on a CQ through a port"): a blocking
# ndpingpong pair (Notify + IOCP) on one guest, traced (NDSHIM_DEBUG=+iocp),
# must have its CQ attached to its port and most of its CQ events read by
# the waiting thread itself; with NDSHIM_ND_DIRECT_WAIT=0 none is, and
# the pair works the same through the event thread.  Sourced by the rig's
# one-guest boot (tests/vm/selftest/one-host.sh), after lib.sh.
nw_build=$NDSHIM_VM_BUILD
nw_out=$NDSHIM_VM_RESULTS/nd2wake
nw_iters=50
mkdir -p "$nw_out"

# A traced blocking pair; prints the client's and the server's counts of
# sources attached and events drained by the waiter.
nw_pair() { # NAME PORT DIRECT(0|1)
	_o=$nw_out/$1
	NDSHIM_ND_DIRECT_WAIT=$3 NDSHIM_DEBUG=+iocp timeout 150 "$nw_build/ndrun" \
		"$nw_build/samples/ndpingpong.exe" -s "$NDSHIM_VM_ADDR:$2" -b > "$_o-srv.txt" 2> "$_o-srv.err" &
	_srv=$!
	_crc=0
	NDSHIM_ND_DIRECT_WAIT=$3 NDSHIM_DEBUG=+iocp timeout 150 "$nw_build/ndrun" \
		"$nw_build/samples/ndpingpong.exe" -c "$NDSHIM_VM_ADDR:$2" -b -n $nw_iters -S 64 -M 64 -w 60 \
		> "$_o-cli.txt" 2> "$_o-cli.err" || _crc=$?
	_src=0
	wait $_srv || _src=$?
	if [ $_crc -ne 0 ] || [ $_src -ne 0 ] || ! grep -q 'received, checked and echoed' "$_o-srv.txt"; then
		echo "ndpingpong -b failed (client $_crc, server $_src):"
		cat "$_o-cli.txt" "$_o-srv.txt"
		grep -v ':trace:' "$_o-cli.err" "$_o-srv.err"
		return 1
	fi
	for _side in cli srv; do
		echo "$_side $(grep -c ': source .* attached' "$_o-$_side.err") $(grep -c 'draining source' "$_o-$_side.err")"
	done > "$_o-counts"
	cat "$_o-counts"
}

nw_direct() {
	nw_pair direct 54391 1 || return 1
	# Every message the client waits for (nw_iters) either found its reply
	# at Notify or was read by the client's own thread; on a loaded TCG
	# guest some replies come before the Notify, so at least a fifth.
	awk -v n=$nw_iters '$2 < 1 { print $1 ": no CQ attached to the port"; bad = 1 }
		$1 == "cli" && $3 < n / 5 { print "client: only " $3 " of " n " events read by the waiter"; bad = 1 }
		END { exit bad }' "$nw_out/direct-counts"
}

nw_hop() {
	nw_pair hop 54392 0 || return 1
	awk '$2 || $3 { print $1 ": the path was used with NDSHIM_ND_DIRECT_WAIT=0"; bad = 1 } END { exit bad }' \
		"$nw_out/hop-counts"
}

if [ "${NDSHIM_VM_HOSTS:-1}" = 1 ]; then
	if [ ! -x "$nw_build/ndrun" ] || [ ! -f "$nw_build/samples/ndpingpong.exe" ]; then
		echo "FAIL: $(vm_name "nd2wake: ndrun and samples/ndpingpong.exe are built in $nw_build (make)")"
		vm_failed=$((vm_failed + 1))
	else
		vm_check "nd2wake: blocking ndpingpong: the waiting thread reads its CQ's events itself" nw_direct
		sed 's/^/    | attached, drained by the waiter: /' "$nw_out/direct-counts" 2> /dev/null
		vm_check "nd2wake: NDSHIM_ND_DIRECT_WAIT=0: every event through the event thread, the same pair works" nw_hop
	fi
fi
