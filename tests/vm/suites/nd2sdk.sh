# The provider behaviours Microsoft's NetworkDirect SDK tools found:
# tests/nd2/nd2sdk_rig.exe under ndrun (see the top of that file), a check
# per behaviour.  Sourced by the rig's batched boots after lib.sh.  One
# guest: server and client are two ndrun processes; two guests: A serves,
# B connects.  Each process gets NDSHIM_ND2SDK_TIMEOUT seconds (default
# 240); the logs are kept in $NDSHIM_VM_RESULTS/nd2sdk/.
nd2sdk_exe=$NDSHIM_VM_BUILD/tests/nd2/nd2sdk_rig.exe
nd2sdk_logs=$NDSHIM_VM_RESULTS/nd2sdk
mkdir -p "$nd2sdk_logs"

# NDSHIM_ND2SDK_PINGS and _ROUNDS: the lengths of the depth and spin runs.
nd2sdk_one() { # ROLE PEER
	_rc=0
	_y=
	[ "${NDSHIM_VM_HOSTS:-1}" = 2 ] || _y=yield
	timeout "${NDSHIM_ND2SDK_TIMEOUT:-240}" "$NDSHIM_VM_BUILD/ndrun" "$nd2sdk_exe" "$1" "$NDSHIM_VM_ADDR" "$2" \
		"${NDSHIM_ND2SDK_PINGS:-500}" "${NDSHIM_ND2SDK_ROUNDS:-20}" $_y > "$nd2sdk_logs/$1-$NDSHIM_VM_HOSTS.log" 2>&1 || _rc=$?
	echo $_rc > "$nd2sdk_logs/$1-$NDSHIM_VM_HOSTS.rc"
}

nd2sdk_report() { # ROLE
	vm_report "$nd2sdk_logs/$1-$NDSHIM_VM_HOSTS.log" "$(cat "$nd2sdk_logs/$1-$NDSHIM_VM_HOSTS.rc")" "nd2sdk $1"
}

if [ ! -f "$nd2sdk_exe" ] || [ ! -f "$NDSHIM_VM_BUILD/nd2prov.dll" ]; then
	echo "FAIL: $(vm_name "nd2sdk: ndrun, nd2prov.dll and $nd2sdk_exe are built (make)")"
	vm_failed=$((vm_failed + 1))
elif [ "${NDSHIM_VM_HOSTS:-1}" = 1 ]; then
	nd2sdk_one server "$NDSHIM_VM_ADDR" &
	nd2sdk_srv=$!
	nd2sdk_one client "$NDSHIM_VM_ADDR"
	wait $nd2sdk_srv || :
	nd2sdk_report server
	nd2sdk_report client
elif [ "$NDSHIM_VM_HOST" = A ]; then
	nd2sdk_one server "$NDSHIM_VM_PEER"
	nd2sdk_report server
else
	nd2sdk_one client "$NDSHIM_VM_PEER"
	nd2sdk_report client
fi
