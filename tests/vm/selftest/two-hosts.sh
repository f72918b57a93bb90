#!/bin/sh
# The rig's self-test across two guests (the same script runs on both):
# each checks its environment, then A serves and B connects with rdma-core's
# own tools over the link between them.
set -eu
. "$NDSHIM_VM_PROJECT/tests/vm/lib.sh"
. "$NDSHIM_VM_PROJECT/tests/vm/selftest/common.sh"
out=$NDSHIM_VM_RESULTS/selftest
mkdir -p "$out"

case $NDSHIM_VM_HOST in
A) want="2 198.18.0.1 198.18.0.2 eth0" ;;
B) want="2 198.18.0.2 198.18.0.1 eth0" ;;
*) want="a host named A or B" ;;
esac
vm_check "environment of host $NDSHIM_VM_HOST of two" \
	sh -c '[ "$NDSHIM_VM_HOSTS $NDSHIM_VM_ADDR $NDSHIM_VM_PEER $NDSHIM_VM_NETDEV" = "$1" ]' sh "$want"
vm_check "rxe0 on eth0 at $NDSHIM_VM_ADDR" rxe_on_netdev
vm_check "ibv_devinfo sees rxe0" devinfo_rxe0
vm_check "no route off the machine" no_route_out

if [ "$NDSHIM_VM_HOST" = A ]; then
	vm_check "rping server for B" rping_server "$NDSHIM_VM_ADDR"
	vm_check "ib_send_lat -R server for B" lat_server
	vm_check "ib_send_lat -R server for B, its first client failing on purpose: a later try passes" \
		lat_server lat-retry
else
	vm_check "rping client to A" rping_client "$NDSHIM_VM_PEER"
	vm_check "ib_send_lat -R client to A" lat_client "$NDSHIM_VM_PEER" "$out/ib_send_lat-two-hosts.txt"
	vm_check "ib_send_lat -R client to A, failing on purpose on its first try: a later try of the pair passes" \
		lat_client_killed_once "$NDSHIM_VM_PEER"
fi
# Other suites ride on this boot: one boot costs more than their checks.
run_suites
vm_finish
