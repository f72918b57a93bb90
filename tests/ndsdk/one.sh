#!/bin/sh
# make check-ndsdk, one guest: the 14 SDK tools between processes on rxe0
# (each server and its client are two ndrun processes on this guest).
# Usage (through tests/vm/run): one.sh [TOOL...]
#   default: all but ndrpingpong, whose two processes spin on their buffers
#   and so take turns at scheduler ticks on the guest's one vCPU (two.sh
#   runs it across two guests).
# Time bounds: tests/ndsdk/lib.sh (SDK_PING_SECONDS, SDK_STALL_SECONDS, SDK_MIN_ROWS).
set -eu
. "$NDSHIM_VM_PROJECT/tests/vm/lib.sh"
. "$NDSHIM_VM_PROJECT/tests/ndsdk/lib.sh"

a=$NDSHIM_VM_ADDR
tools=${*:-"ndadapterinfo ndcat ndcq ndmrlat ndmrrate ndconn ndmval ndmpic ndmw ndmemorytest ndping ndpingpong ndrping"}

# ndmpic's four ranks bind 54322 + 2 * rank + peer on their own address:
# two processes on one address would take each other's ports, so the
# second one gets an address of its own on the same netdev.
a2=198.18.0.3
ip addr add "$a2/24" dev "$NDSHIM_VM_NETDEV" 2>/dev/null || :

memtests="NdConnClose NdConnListenClosing NdConnReject NdDualConnection NdDualListen NdInvalidIP
NdInvalidRead NdInvalidWrite NdLargePrivateData NdLargeQPDepth NdMRDeregister NdMRInvalidBuffer
NdOverRead NdOverWrite NdQpMax NdReceiveFlushQP NdSendNoReceive NdReceiveConnClosed NdWriteViolation"

for t in $tools; do
	case $t in
	ndadapterinfo | ndcat | ndcq)
		vm_check "ndsdk: $t" sdk_alone "$t" 300 "$t" "$a" ;;
	ndmrlat | ndmrrate)
		# 10,000 registrations a size, 1 B to 4 MiB, twice: 2 minutes on
		# a quiet host, more than 10 at load 20.
		vm_check "ndsdk: $t" sdk_alone "$t" 1500 "$t" "$a" ;;
	ndconn)
		vm_check "ndsdk: ndconn, server and client" sdk_pair ndconn 54321 300 unit ndconn -s "$a" -- -c "$a" ;;
	ndmval)
		vm_check "ndsdk: ndmval, server and client" sdk_pair ndmval 54331 300 unit ndmval -s "$a" -- -c "$a" ;;
	ndmw)
		vm_check "ndsdk: ndmw, server and client: Phase 1 complete" \
			sdk_pair ndmw 54323 300 phase1 ndmw -s "$a" -- -c "$a" ;;
	ndmpic)
		# Each process's two ranks listen on its own address, then it gives
		# the other 5 s to come up before connecting: both start at once.
		vm_check "ndsdk: ndmpic, ranks 2-3 and 0-1 on two addresses" \
			sdk_pair ndmpic - 300 unit ndmpic -s "$a" "$a2" -- -c "$a2" "$a" ;;
	ndmemorytest)
		f0=$vm_failed
		port=54350
		for m in $memtests; do
			port=$((port + 1))
			# Nothing to wait for: NdConnListenClosing's server closes its
			# listener at once (the client's Connect must be refused),
			# NdQpMax is the server's alone, NdInvalidIP the client's.
			wait_port=$port
			case $m in NdConnListenClosing | NdQpMax | NdInvalidIP) wait_port=- ;; esac
			vm_check "ndsdk: ndmemorytest -t $m" \
				sdk_pair "ndmemorytest-$m" $wait_port 300 unit ndmemorytest -s -t "$m" "$a:$port" -- -c -t "$m" "$a:$port"
		done
		echo "ndmemorytest: $((19 - vm_failed + f0)) of 19 sub-tests passed"
		;;
	ndping | ndpingpong | ndrping | ndrpingpong)
		port=$(case $t in ndping) echo 54324 ;; ndpingpong) echo 54325 ;; ndrping) echo 54326 ;; *) echo 54327 ;; esac)
		vm_check "ndsdk: $t, polling: $(sdk_min_rows $t) rows, rxe0 never still for $SDK_STALL_SECONDS s" \
			sdk_pair "$t" $port "$SDK_PING_SECONDS" rows "$t" -s "$a" -- -c "$a"
		;;
	*)
		echo "FAIL: ndsdk: no tool $t"
		vm_failed=$((vm_failed + 1))
		;;
	esac
done
vm_finish
