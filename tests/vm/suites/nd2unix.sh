# nd2prov_unix.so on real rdma-core: the driver (tests/nd2unix/driver.c)
# calls its table the way nd2prov.dll will.  Sourced by the rig's batched
# boots (tests/vm/selftest/one-host.sh and two-hosts.sh), after lib.sh.
# One guest: server and client are two processes on rxe0.  Two guests: A
# serves, B connects.  The driver prints its own ok:/FAIL: lines.
nd2unix_run() {
	_so=$NDSHIM_VM_BUILD/nd2prov_unix.so
	_drv=$NDSHIM_VM_BUILD/tests/nd2unix-driver
	if [ ! -f "$_so" ] || [ ! -x "$_drv" ]; then
		echo "FAIL: $(vm_name "nd2unix: $_so and $_drv are built (make)")"
		vm_failed=$((vm_failed + 1))
		return 0
	fi
	_rc=0
	ND2UNIX_SO=$_so timeout 240 "$_drv" "$@" > "$vm_tmp/nd2unix.log" 2>&1 || _rc=$?
	vm_lf "$vm_tmp/nd2unix.log"
	sed -e "s/^ok: /ok: $(vm_name '')/" -e "s/^FAIL: /FAIL: $(vm_name '')/" \
		-e '/^ok: \|^FAIL: /!s/^/    | /' "$vm_tmp/nd2unix.log"
	if [ $_rc -ne 0 ]; then
		grep -q '^FAIL: ' "$vm_tmp/nd2unix.log" || echo "FAIL: $(vm_name "nd2unix driver $1 exited $_rc")"
		vm_failed=$((vm_failed + 1))
	fi
}

if [ "${NDSHIM_VM_HOSTS:-1}" = 1 ]; then
	nd2unix_run local "$NDSHIM_VM_ADDR"
elif [ "$NDSHIM_VM_HOST" = A ]; then
	nd2unix_run server "$NDSHIM_VM_ADDR" "$NDSHIM_VM_PEER"
else
	nd2unix_run client "$NDSHIM_VM_ADDR" "$NDSHIM_VM_PEER"
fi
