# nd2prov.dll end to end: tests/nd2/nd2prov_rig.exe under ndrun, found
# through the Winsock catalog (nd2prov.dll beside ndrun).  Sourced by the
# rig's batched boots after lib.sh.  One guest: server and client are two
# ndrun processes on rxe0, then the same pair again under the ASan+UBSan
# ndrun of build-asan/ (make check-vm builds it), where any sanitizer
# report fails.  Two guests: A serves, B connects.
# NDSHIM_ND2PROV_NDRUN picks another ndrun for the first pass.
nd2prov_exe=$NDSHIM_VM_BUILD/tests/nd2/nd2prov_rig.exe

# nd2prov_one TAG NDRUN ROLE ADDR PEER
nd2prov_one() {
	_tag=$1
	_nd=$2
	shift 2
	_rc=0
	timeout 150 "$_nd" "$nd2prov_exe" "$@" > "$vm_tmp/nd2prov-$_tag-$1.log" 2>&1 || _rc=$?
	vm_lf "$vm_tmp/nd2prov-$_tag-$1.log"
	echo $_rc > "$vm_tmp/nd2prov-$_tag-$1.rc"
}

# nd2prov_report TAG ROLE: the program's lines, names prefixed with TAG.
nd2prov_report() {
	_log=$vm_tmp/nd2prov-$1-$2.log
	_tag=
	[ "$1" = plain ] || _tag="$1: "
	_pre=$(vm_name '')$_tag
	vm_report "$_log" "$(cat "$vm_tmp/nd2prov-$1-$2.rc")" "nd2prov $2" "$_tag"
	if grep -q 'ERROR: AddressSanitizer\|ERROR: LeakSanitizer\|runtime error:' "$_log"; then
		echo "FAIL: ${_pre}nd2prov $2: a sanitizer report (above)"
		vm_failed=$((vm_failed + 1))
	fi
}

# nd2prov_pair TAG NDRUN: server and client on this guest.
nd2prov_pair() {
	nd2prov_one "$1" "$2" server "$NDSHIM_VM_ADDR" "$NDSHIM_VM_ADDR" &
	_srv=$!
	nd2prov_one "$1" "$2" client "$NDSHIM_VM_ADDR" "$NDSHIM_VM_ADDR"
	wait $_srv
	nd2prov_report "$1" server
	nd2prov_report "$1" client
}

# nd2prov_built NAME DIR: DIR has ndrun and nd2prov.dll, or say so as a failure.
nd2prov_built() {
	if [ -x "$2/ndrun" ] && [ -f "$2/nd2prov.dll" ] && [ -f "$nd2prov_exe" ]; then
		return 0
	fi
	echo "FAIL: $(vm_name "$1: $2/ndrun, $2/nd2prov.dll and $nd2prov_exe are built ($3)")"
	vm_failed=$((vm_failed + 1))
	return 1
}

nd2prov_run() {
	_ndrun=${NDSHIM_ND2PROV_NDRUN:-$NDSHIM_VM_BUILD/ndrun}
	nd2prov_built nd2prov "$(dirname "$_ndrun")" make || return 0
	if [ "${NDSHIM_VM_HOSTS:-1}" = 1 ]; then
		nd2prov_pair plain "$_ndrun"
		_asan=$NDSHIM_VM_PROJECT/build-asan
		nd2prov_built "asan: nd2prov" "$_asan" "make SANITIZE=1" || return 0
		nd2prov_pair asan "$_asan/ndrun"
	elif [ "$NDSHIM_VM_HOST" = A ]; then
		nd2prov_one plain "$_ndrun" server "$NDSHIM_VM_ADDR" "$NDSHIM_VM_PEER"
		nd2prov_report plain server
	else
		nd2prov_one plain "$_ndrun" client "$NDSHIM_VM_ADDR" "$NDSHIM_VM_PEER"
		nd2prov_report plain client
	fi
}

nd2prov_run
