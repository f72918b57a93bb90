# Every documented ND2 return code a client can cause by misuse (invalid
# parameters, wrong state, limits, cancellation): tests/nd2/nd2status_rig.exe
# under ndrun, both ends of its connections in one process on rxe0.
# docs/nd2-status.md names the check covering each code.  Sourced by the
# rig's batched boots after lib.sh; the codes do not depend on where the
# peer is, so the program runs in the one-guest boot, and in the two-guest
# boot only its Connect to an address no host on the link answers (A; one
# guest's dummy netdev has no ARP to fail).
nd2status_exe=$NDSHIM_VM_BUILD/tests/nd2/nd2status_rig.exe

# nd2status_run TAG DIR [unreachable]: the program under DIR's ndrun and
# provider; names prefixed with TAG (plain: none).
nd2status_run() {
	_nd=$2/ndrun
	_log=$vm_tmp/nd2status-$1$3.log
	_tag=
	[ "$1" = plain ] || _tag="$1: "
	_pre=$(vm_name '')$_tag
	if [ ! -x "$_nd" ] || [ ! -f "$2/nd2prov.dll" ] || [ ! -f "$nd2status_exe" ]; then
		echo "FAIL: ${_pre}nd2status: $_nd, $2/nd2prov.dll and $nd2status_exe are built"
		vm_failed=$((vm_failed + 1))
		return 0
	fi
	_rc=0
	timeout 300 "$_nd" "$nd2status_exe" "$NDSHIM_VM_ADDR" $3 > "$_log" 2>&1 || _rc=$?
	vm_lf "$_log"
	vm_report "$_log" "$_rc" nd2status "$_tag"
	if grep -q 'ERROR: AddressSanitizer\|ERROR: LeakSanitizer\|runtime error:' "$_log"; then
		echo "FAIL: ${_pre}nd2status: a sanitizer report (above)"
		vm_failed=$((vm_failed + 1))
	fi
}

# The misuse paths again under the ASan+UBSan ndrun and provider of
# build-asan/ (make check-vm builds it): where bad arguments meet the
# provider is where a stray read would hide.
if [ "${NDSHIM_VM_HOSTS:-1}" = 1 ]; then
	nd2status_run plain "$NDSHIM_VM_BUILD" ''
	nd2status_run asan "$NDSHIM_VM_PROJECT/build-asan" ''
elif [ "$NDSHIM_VM_HOST" = A ]; then
	nd2status_run plain "$NDSHIM_VM_BUILD" unreachable
fi
