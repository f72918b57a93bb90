#!/bin/sh
# make check-long: the nd2peer rig (tests/vm/suites/nd2peer.sh) with a long
# RDMA Write stream, 500,000 1-byte Writes through a bound window (a foreign
# client once saw ND_ACCESS_VIOLATION after that many).  Run by tests/vm/run,
# on one guest and on two.
. "$NDSHIM_VM_PROJECT/tests/vm/lib.sh"
NDSHIM_ND2PEER_WRITES=${NDSHIM_ND2PEER_WRITES:-500000}
NDSHIM_ND2PEER_TIMEOUT=900
. "$NDSHIM_VM_PROJECT/tests/vm/suites/nd2peer.sh"
vm_finish
