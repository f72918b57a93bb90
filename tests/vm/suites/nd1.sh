# nd2prov.dll's ND v1 objects: tests/nd2/nd1_rig.exe (each v1 method's
# documented codes, a v1 and a v2 client finding the provider through the
# catalog in the same run, request batches, SendAndInvalidate) and samples/ndv1pingpong.exe (every byte
# checked), under ndrun.  Sourced by the rig's batched boots after
# lib.sh.  One guest: server and client are two ndrun processes on rxe0;
# two guests: A serves, B connects.
nd1_build=$NDSHIM_VM_BUILD
nd1_rig=$nd1_build/tests/nd2/nd1_rig.exe
nd1_pp=$nd1_build/samples/ndv1pingpong.exe
nd1_tag=$NDSHIM_VM_HOSTS-$NDSHIM_VM_HOST

nd1_one() { # NAME ARGS...: the rig program, its log and status kept
	_n=$1
	shift
	_rc=0
	timeout 150 "$nd1_build/ndrun" "$nd1_rig" "$@" > "$vm_tmp/nd1-$_n.log" 2>&1 || _rc=$?
	vm_lf "$vm_tmp/nd1-$_n.log"
	echo $_rc > "$vm_tmp/nd1-$_n.rc"
}

nd1_report() { # NAME
	vm_report "$vm_tmp/nd1-$1.log" "$(cat "$vm_tmp/nd1-$1.rc")" "nd1 $1"
}

nd1_pp() { # ROLE ARGS...
	_r=$1
	shift
	_o=$vm_tmp/nd1pp-$_r-$nd1_tag.txt
	_rc=0
	timeout 150 "$nd1_build/ndrun" "$nd1_pp" "$@" > "$_o" 2>&1 || _rc=$?
	vm_lf "$_o"
	cat "$_o"
	[ $_rc -eq 0 ] || return 1
	if [ "$_r" = server ]; then
		grep -q 'received, checked and echoed' "$_o"
	else
		# A row for every size, 0 B to 64 KiB.
		for _s in 0 1 2 4 8 16 32 64 128 256 512 1024 2048 4096 8192 16384 32768 65536; do
			grep -Eq "^ $_s +5 " "$_o" || { echo "no row for $_s bytes"; return 1; }
		done
	fi
}

nd1_pp_local() {
	nd1_pp server -s "$NDSHIM_VM_ADDR:54421" > "$vm_tmp/nd1pp-server" 2>&1 & _srv=$!
	_crc=0
	nd1_pp client -c "$NDSHIM_VM_ADDR:54421" -w 60 -n 5 -S 0 -M 65536 || _crc=1
	_src=0
	wait $_srv || _src=1
	echo "--- server:"
	cat "$vm_tmp/nd1pp-server"
	[ $_crc -eq 0 ] && [ $_src -eq 0 ]
}

if [ ! -x "$nd1_build/ndrun" ] || [ ! -f "$nd1_build/nd2prov.dll" ] || [ ! -f "$nd1_rig" ] ||
	[ ! -f "$nd1_pp" ]; then
	echo "FAIL: $(vm_name "nd1: ndrun, nd2prov.dll, $nd1_rig and $nd1_pp are built in $nd1_build (make)")"
	vm_failed=$((vm_failed + 1))
elif [ "${NDSHIM_VM_HOSTS:-1}" = 1 ]; then
	nd1_one server server "$NDSHIM_VM_ADDR" "$NDSHIM_VM_ADDR" &
	_nd1srv=$!
	nd1_one client client "$NDSHIM_VM_ADDR" "$NDSHIM_VM_ADDR"
	wait $_nd1srv
	nd1_report server
	nd1_report client
	vm_check "ndv1pingpong, two processes: 0 B to 64 KiB checked" nd1_pp_local
elif [ "$NDSHIM_VM_HOST" = A ]; then
	nd1_one server server "$NDSHIM_VM_ADDR" "$NDSHIM_VM_PEER"
	nd1_report server
	vm_check "ndv1pingpong server for B: every message checked" nd1_pp server -s "$NDSHIM_VM_ADDR:54421"
else
	nd1_one client client "$NDSHIM_VM_ADDR" "$NDSHIM_VM_PEER"
	nd1_report client
	vm_check "ndv1pingpong client to A: 0 B to 64 KiB checked" \
		nd1_pp client -c "$NDSHIM_VM_PEER:54421" -w 60 -n 5 -S 0 -M 65536
fi
