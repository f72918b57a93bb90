# Checks shared by the rig's self-tests (sourced after tests/vm/lib.sh).

# rxe0 is up on the netdev the rig promised, which has this guest's address.
rxe_on_netdev() {
	rdma link show rxe0/1 | grep -q "state ACTIVE .*netdev $NDSHIM_VM_NETDEV" &&
		ip -4 -o addr show dev "$NDSHIM_VM_NETDEV" | grep -q " $NDSHIM_VM_ADDR/24 "
}

devinfo_rxe0() {
	ibv_devinfo -d rxe0 | grep -q 'state:.*PORT_ACTIVE'
}

# The guest must not reach past the machine: no default route, no address
# outside 198.18.0.0/24 routable, and no links but lo and the rig's netdev.
no_route_out() {
	[ -z "$(ip route show default)" ] &&
		[ -z "$(ip -6 route show default)" ] &&
		! ip route get 192.0.2.1 &&
		! ip -6 route get 2001:db8::1 &&
		[ "$(ip -o link show | awk -F': ' '{ print $2 }' | sort | tr '\n' ' ')" = \
			"$(printf '%s\n' lo "$NDSHIM_VM_NETDEV" | sort | tr '\n' ' ')" ]
}

# rping_server ADDR / rping_client ADDR: three verified round trips.
rping_server() {
	timeout 120 rping -s -a "$1" -C 3 -v > "$vm_tmp/rping-server" 2>&1 &&
		grep -q 'server ping data: rdma-ping-2' "$vm_tmp/rping-server"
}
rping_client() {
	vm_retry 60 timeout 30 rping -c -a "$1" -C 3 -v > "$vm_tmp/rping-client" 2>&1 &&
		grep -q '^ping data: rdma-ping-2' "$vm_tmp/rping-client"
}

# Writes the result table to RESULT_FILE; the line for 2-byte messages over
# 200 iterations proves the run completed.
lat_server() {
	timeout 120 ib_send_lat -R -n 200 > "$vm_tmp/lat-server" 2>&1 &&
		grep -Eq '^ *2 +200 ' "$vm_tmp/lat-server"
}
lat_client() { # ADDR RESULT_FILE
	vm_retry 60 timeout 60 ib_send_lat -R -n 200 "$1" > "$2" 2>&1 &&
		grep -Eq '^ *2 +200 ' "$2"
}
