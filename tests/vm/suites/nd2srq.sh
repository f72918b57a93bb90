# Shared receive queues and completion-queue notification: the rig program
# tests/nd2/nd2srq_rig.exe (see the top of that file), then the ndsrq
# sample (one SRQ serving several connections, every size up to the
# adapter's MaxTransferLength checked, polling and blocking).  Sourced by
# the rig's batched boots after lib.sh.  One guest: server and client are
# two ndrun processes; two guests: A serves, B connects.  The logs are kept
# in $NDSHIM_VM_RESULTS/nd2srq-HOST/.
# NDSHIM_ND2SRQ_NDRUN picks another ndrun (and the nd2prov.dll beside it).
nd2srq_exe=$NDSHIM_VM_BUILD/tests/nd2/nd2srq_rig.exe
nd2srq_ndrun=${NDSHIM_ND2SRQ_NDRUN:-$NDSHIM_VM_BUILD/ndrun}
nd2srq_logs=$vm_tmp
if [ -n "${NDSHIM_VM_RESULTS:-}" ] && mkdir -p "$NDSHIM_VM_RESULTS/nd2srq-${NDSHIM_VM_HOST:-A}" 2> /dev/null; then
	nd2srq_logs=$NDSHIM_VM_RESULTS/nd2srq-${NDSHIM_VM_HOST:-A}
fi

# nd2srq_one TAG EXE ARGS...: one ndrun process, its log and status kept.
nd2srq_one() {
	_tag=$1
	shift
	_rc=0
	timeout 180 "$nd2srq_ndrun" "$@" > "$nd2srq_logs/$_tag.log" 2>&1 || _rc=$?
	echo $_rc > "$nd2srq_logs/$_tag.rc"
}

# nd2srq_report TAG: the rig program's own lines; a non-zero exit without a
# FAIL line is a failure of its own.
nd2srq_report() {
	_log=$nd2srq_logs/$1.log
	_pre=$(vm_name '')
	sed -e "s/^ok: /ok: $_pre/" -e "s/^FAIL: /FAIL: $_pre/" -e '/^ok: \|^FAIL: /!s/^/    | /' "$_log"
	_rc=$(cat "$nd2srq_logs/$1.rc")
	if [ "$_rc" -ne 0 ]; then
		grep -q '^FAIL: ' "$_log" || echo "FAIL: ${_pre}nd2srq $1 exited $_rc"
		vm_failed=$((vm_failed + 1))
	fi
}

nd2srq_rig() {
	if [ ! -x "$nd2srq_ndrun" ] || [ ! -f "$(dirname "$nd2srq_ndrun")/nd2prov.dll" ] || [ ! -f "$nd2srq_exe" ]; then
		echo "FAIL: $(vm_name "nd2srq: $nd2srq_ndrun, nd2prov.dll beside it and $nd2srq_exe are built (make)")"
		vm_failed=$((vm_failed + 1))
		return 0
	fi
	if [ "${NDSHIM_VM_HOSTS:-1}" = 1 ]; then
		nd2srq_one rig-server "$nd2srq_exe" server "$NDSHIM_VM_ADDR" "$NDSHIM_VM_ADDR" &
		_srv=$!
		nd2srq_one rig-client "$nd2srq_exe" client "$NDSHIM_VM_ADDR" "$NDSHIM_VM_ADDR"
		wait $_srv || true
		nd2srq_report rig-server
		nd2srq_report rig-client
	elif [ "$NDSHIM_VM_HOST" = A ]; then
		nd2srq_one rig-server "$nd2srq_exe" server "$NDSHIM_VM_ADDR" "$NDSHIM_VM_PEER"
		nd2srq_report rig-server
	else
		nd2srq_one rig-client "$nd2srq_exe" client "$NDSHIM_VM_ADDR" "$NDSHIM_VM_PEER"
		nd2srq_report rig-client
	fi
}

nd2srq_rig
