#!/bin/sh
# make check-long: the nd2peer rig (tests/vm/suites/nd2peer.sh) with a long
# RDMA Write stream, 500,000 1-byte Writes through a bound window, and a
# ping-pong of 250,000 round trips of 1-byte Writes each side spins on (a
# foreign client once saw ND_ACCESS_VIOLATION after 500,000 such Writes).  Run by tests/vm/run,
# on one guest and on two.
. "$NDSHIM_VM_PROJECT/tests/vm/lib.sh"
NDSHIM_ND2PEER_WRITES=${NDSHIM_ND2PEER_WRITES:-500000}
NDSHIM_ND2PEER_PINGS=${NDSHIM_ND2PEER_PINGS:-250000}
NDSHIM_ND2PEER_TIMEOUT=600
. "$NDSHIM_VM_PROJECT/tests/vm/suites/nd2peer.sh"
# What the device and the link saw: retransmissions, sequence errors, drops.
for _c in /sys/class/infiniband/*/ports/1/hw_counters/*; do
	[ -f "$_c" ] && echo "    note: $NDSHIM_VM_HOST: rxe $(basename "$_c") $(cat "$_c")"
done
ip -s link show dev "${NDSHIM_VM_NETDEV:-eth0}" 2> /dev/null | sed "s/^/    note: $NDSHIM_VM_HOST: /"
vm_finish
