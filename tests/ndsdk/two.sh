#!/bin/sh
# make check-ndsdk, two guests: the four ping tools across the link, A
# serving, B connecting (the same script runs on both).  ndrpingpong runs
# only here: each side spins on its own buffer until the peer's RDMA Write
# lands, which needs a vCPU of its own.
# Time bounds: tests/ndsdk/lib.sh (SDK_PING_SECONDS, SDK_STALL_SECONDS, SDK_MIN_ROWS).
set -eu
. "$NDSHIM_VM_PROJECT/tests/vm/lib.sh"
. "$NDSHIM_VM_PROJECT/tests/ndsdk/lib.sh"

# The ready marks of an earlier run must not start B's clients early.
[ "$NDSHIM_VM_HOST" = B ] || rm -f "$sdk_out"/ready-*

for t in ndping ndpingpong ndrping ndrpingpong; do
	port=$(case $t in ndping) echo 54324 ;; ndpingpong) echo 54325 ;; ndrping) echo 54326 ;; *) echo 54327 ;; esac)
	if [ "$NDSHIM_VM_HOST" = A ]; then
		# The server outlives its client's bound.
		vm_check "ndsdk: $t, server for B" \
			sdk_server_half "$t" $port $((SDK_PING_SECONDS + 60)) rows "$t" -s "$NDSHIM_VM_ADDR:$port"
	else
		vm_check "ndsdk: $t, client to A: $(sdk_min_rows $t) rows, rxe0 never still for $SDK_STALL_SECONDS s" \
			sdk_client_half "$t" $port "$SDK_PING_SECONDS" rows "$t" -c "$NDSHIM_VM_PEER:$port"
	fi
done
vm_finish
