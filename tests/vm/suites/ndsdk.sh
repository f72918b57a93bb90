# Microsoft's NetworkDirect SDK tools (make ndsdk), the fast part of
# make check-ndsdk (tests/ndsdk/; docs/ND-CONFORMANCE.md), on the rig's
# batched boots, one guest: the tools that finish in seconds, and ndmw to
# its "Phase 1: complete" (the tool that met two of the provider's bugs of
# issue 27), each judged as check-ndsdk judges it (tests/ndsdk/lib.sh).
# The ping tools need minutes for a row (100,000 round trips or 500,000
# messages at 1 byte): they run in check-ndsdk only; the provider
# behaviours they showed are checked here by tests/vm/suites/nd2sdk.sh.
# Sourced after lib.sh.  ndmw's client is stopped at its "Phase 1:
# complete" (SDK_PHASE1_STOP): running on through phase 2 took 290 of this
# suite's 333 s.
SDK_PHASE1_STOP=1
. "$NDSHIM_VM_PROJECT/tests/ndsdk/lib.sh"

if [ ! -f "$sdk_dir/ndmw.exe" ] || [ ! -x "$sdk_ndrun" ]; then
	echo "FAIL: $(vm_name "ndsdk: ndrun and the SDK's tools are built in $NDSHIM_VM_BUILD (make ndsdk)")"
	vm_failed=$((vm_failed + 1))
elif [ "${NDSHIM_VM_HOSTS:-1}" = 1 ]; then
	for sdk_t in ndadapterinfo ndcat ndcq; do
		vm_check "ndsdk: $sdk_t" sdk_alone "$sdk_t" 300 "$sdk_t" "$NDSHIM_VM_ADDR"
	done
	vm_check "ndsdk: ndmval, server and client" \
		sdk_pair ndmval 54331 300 unit ndmval -s "$NDSHIM_VM_ADDR" -- -c "$NDSHIM_VM_ADDR"
	vm_check "ndsdk: ndmw, server and client: Phase 1 complete" \
		sdk_pair ndmw 54323 300 phase1 ndmw -s "$NDSHIM_VM_ADDR" -- -c "$NDSHIM_VM_ADDR"
	# NdQpMax is the server's alone: it never listens.
	for sdk_m in NdInvalidWrite NdMRDeregister NdQpMax NdSendNoReceive; do
		sdk_wait=54360
		[ "$sdk_m" != NdQpMax ] || sdk_wait=-
		vm_check "ndsdk: ndmemorytest -t $sdk_m" \
			sdk_pair "ndmemorytest-$sdk_m" $sdk_wait 300 unit ndmemorytest -s -t "$sdk_m" "$NDSHIM_VM_ADDR:54360" -- \
			-c -t "$sdk_m" "$NDSHIM_VM_ADDR:54360"
	done
fi
