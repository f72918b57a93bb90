#!/bin/sh
# The rig's self-test on one guest: the promised environment, then rdma-core's
# own tools between two processes on rxe0.
# Usage (through tests/vm/run): one-host.sh TOKEN "SECOND ARG"
# TOKEN goes to $NDSHIM_VM_RESULTS/selftest/token for the host to find; the
# same token written elsewhere must not reach the host (overlay root).
set -eu
. "$NDSHIM_VM_PROJECT/tests/vm/lib.sh"
. "$NDSHIM_VM_PROJECT/tests/vm/selftest/common.sh"
token=$1
out=$NDSHIM_VM_RESULTS/selftest
mkdir -p "$out"

vm_check "runs in the project folder at the host's path" \
	sh -c '[ "$(pwd -P)" = "$NDSHIM_VM_PROJECT" ] && [ -x tests/vm/run ]'
vm_check "arguments arrive intact" \
	sh -c '[ $# = 2 ] && [ "$2" = "two words, it'\''s" ]' sh "$@"
vm_check "environment of host A alone" \
	sh -c '[ "$NDSHIM_VM_HOST $NDSHIM_VM_HOSTS $NDSHIM_VM_ADDR ${NDSHIM_VM_PEER:-none} $NDSHIM_VM_NETDEV" = "A 1 198.18.0.1 none nd0" ]'
vm_check "rxe0 on nd0 at 198.18.0.1" rxe_on_netdev
vm_check "ibv_devinfo sees rxe0" devinfo_rxe0
vm_check "no route off the machine" no_route_out

rping_server_here() { rping_server "$NDSHIM_VM_ADDR"; }
vm_check "rping between two processes" local_pair rping_server_here rping_client "$NDSHIM_VM_ADDR"

vm_check "ib_send_lat -R between two processes" \
	local_pair lat_server lat_client "$NDSHIM_VM_ADDR" "$out/ib_send_lat-one-host.txt"

# The host checks that the first file arrived and the second did not.
vm_check "write to the results folder" sh -c 'echo "$1" > "$2/token"' sh "$token" "$out"
vm_check "write outside the results folder" \
	sh -c 'echo "$1" > "$NDSHIM_VM_BUILD/vm-overlay-probe" && grep -qx "$1" "$NDSHIM_VM_BUILD/vm-overlay-probe"' sh "$token"
# Other suites ride on this boot: one boot costs more than their checks.
# Those marked "rig-order: last" (they cut the link or delete rxe0) come
# after the rest, so no other suite runs on a device or link just restored.
for suite in "$NDSHIM_VM_PROJECT"/tests/vm/suites/*.sh; do
	grep -q '^# rig-order: last' "$suite" || . "$suite"
done
for suite in "$NDSHIM_VM_PROJECT"/tests/vm/suites/*.sh; do
	! grep -q '^# rig-order: last' "$suite" || . "$suite"
done
vm_finish
