# nd2prov.dll end to end: tests/nd2/nd2prov_rig.exe under ndrun, found
# through the Winsock catalog (nd2prov.dll beside ndrun).  Sourced by the
# rig's batched boots after lib.sh.  One guest: server and client are two
# ndrun processes on rxe0.  Two guests: A serves, B connects.
# NDSHIM_ND2PROV_NDRUN picks another ndrun (the ASan build).
nd2prov_one() {
	_ndrun=${NDSHIM_ND2PROV_NDRUN:-$NDSHIM_VM_BUILD/ndrun}
	_exe=$NDSHIM_VM_BUILD/tests/nd2/nd2prov_rig.exe
	_rc=0
	timeout 150 "$_ndrun" "$_exe" "$@" > "$vm_tmp/nd2prov-$1.log" 2>&1 || _rc=$?
	echo $_rc > "$vm_tmp/nd2prov-$1.rc"
}

nd2prov_report() {
	sed -e "s/^ok: /ok: $(vm_name '')/" -e "s/^FAIL: /FAIL: $(vm_name '')/" \
		-e '/^ok: \|^FAIL: /!s/^/    | /' "$vm_tmp/nd2prov-$1.log"
	_rc=$(cat "$vm_tmp/nd2prov-$1.rc")
	if [ "$_rc" -ne 0 ]; then
		grep -q '^FAIL: ' "$vm_tmp/nd2prov-$1.log" || echo "FAIL: $(vm_name "nd2prov $1 exited $_rc")"
		vm_failed=$((vm_failed + 1))
	fi
}

nd2prov_run() {
	if [ ! -x "${NDSHIM_ND2PROV_NDRUN:-$NDSHIM_VM_BUILD/ndrun}" ] || [ ! -f "$NDSHIM_VM_BUILD/nd2prov.dll" ] ||
	   [ ! -f "$NDSHIM_VM_BUILD/tests/nd2/nd2prov_rig.exe" ]; then
		echo "FAIL: $(vm_name "nd2prov: ndrun, nd2prov.dll and tests/nd2/nd2prov_rig.exe are built (make)")"
		vm_failed=$((vm_failed + 1))
		return 0
	fi
	if [ "${NDSHIM_VM_HOSTS:-1}" = 1 ]; then
		nd2prov_one server "$NDSHIM_VM_ADDR" "$NDSHIM_VM_ADDR" &
		_srv=$!
		nd2prov_one client "$NDSHIM_VM_ADDR" "$NDSHIM_VM_ADDR"
		wait $_srv
		nd2prov_report server
		nd2prov_report client
	elif [ "$NDSHIM_VM_HOST" = A ]; then
		nd2prov_one server "$NDSHIM_VM_ADDR" "$NDSHIM_VM_PEER"
		nd2prov_report server
	else
		nd2prov_one client "$NDSHIM_VM_ADDR" "$NDSHIM_VM_PEER"
		nd2prov_report client
	fi
}

nd2prov_run
