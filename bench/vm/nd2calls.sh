#!/bin/sh
# make bench-vm-calls, inside one Soft-RoCE guest: the instructions ndshim
# adds per ND2 call.  ndpingpong's client runs under callgrind, collecting
# only inside NdshimUnixCall (the door from nd2prov.dll to nd2prov_unix.so)
# and the fast entries nd2prov.dll calls directly (Send, Receive,
# GetResults: nd2provider/unix_call.h),
# polling and blocking, at 2 B; bench/vm/callgrind-split reads the profiles
# on the host and splits each call's instructions between ndshim's own code
# and libibverbs + the rxe provider (+ libc and the kernel, reported apart).
#
#   nd2calls.sh [--iters N]
set -u
iters=2000
[ "${1:-}" = --iters ] && iters=$2
b=$NDSHIM_VM_BUILD
addr=$NDSHIM_VM_ADDR
out=$NDSHIM_VM_RESULTS/bench-vm
mkdir -p "$out"
command -v valgrind > /dev/null || { echo "bench-vm: cannot count instructions: valgrind is not installed"; exit 1; }
failed=0
port=21000
# "notify": blocking again, collecting also in the provider's event thread
# (ibv_get_cq_event -> the completion port) and in the waiter's
# GetQueuedCompletionStatus: the Notify + completion path.
for mode in polling blocking notify; do
	case $mode in
	polling) f= t= ;;
	blocking) f=-b t= ;;
	notify) f=-b t="--toggle-collect=ev_thread --toggle-collect=GetQueuedCompletionStatus" ;;
	esac
	port=$((port + 1))
	timeout 600 "$b/ndrun" "$b/samples/ndpingpong.exe" -s "$addr:$port" $f > "$out/cg-srv-$mode.txt" 2>&1 & p=$!
	timeout 600 valgrind --tool=callgrind --toggle-collect=NdshimUnixCall --toggle-collect=nd_fast_qp_send \
		--toggle-collect=nd_fast_qp_receive --toggle-collect=nd_fast_cq_get_results $t \
		--callgrind-out-file="$out/callgrind-$mode.out" \
		"$b/ndrun" "$b/samples/ndpingpong.exe" -c "$addr:$port" $f -n "$iters" -S 2 -M 2 -w 120 \
		> "$out/cg-cli-$mode.txt" 2>&1 || { failed=1; sed 's/^/    | /' "$out/cg-cli-$mode.txt"; }
	wait $p || { failed=1; sed 's/^/    | /' "$out/cg-srv-$mode.txt"; }
	echo "callgrind $mode: $iters iterations, $out/callgrind-$mode.out"
done
exit $failed
