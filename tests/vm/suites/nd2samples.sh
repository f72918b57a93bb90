# The ND2 samples (samples/ndinfo.cpp, samples/ndpingpong.cpp) under ndrun
# with nd2prov.dll on rxe0.  Sourced by the rig's batched boots
# (tests/vm/selftest/one-host.sh and two-hosts.sh), after lib.sh.
#   ndinfo      lists rxe0: its node GUID, its address and its limits, the
#               same as ibv_devinfo -v says
#   ndpingpong  every size from 0 B to 64 KiB, every byte checked on both
#               sides, polling and then blocking (Notify + IOCP); one guest:
#               server and client are two ndrun processes on it; two
#               guests: A serves, B connects.
# Few iterations per size: the boot is shared and TCG is slow.
ns_build=$NDSHIM_VM_BUILD
ns_out=$NDSHIM_VM_RESULTS/nd2samples
ns_tag=$NDSHIM_VM_HOSTS-$NDSHIM_VM_HOST
ns_ping_args="-n 5 -S 0 -M 65536"
mkdir -p "$ns_out"

# The value after "NAME:" in a devinfo-style listing.
ns_field() { # FILE NAME
	sed -n "s/^[[:space:]]*$2:[[:space:]]*\([^[:space:]]*\).*/\1/p" "$1" | head -n 1
}

ns_ndinfo() {
	_o=$ns_out/ndinfo-$ns_tag.txt
	"$ns_build/ndrun" "$ns_build/samples/ndinfo.exe" -v > "$_o" 2>&1 || { vm_lf "$_o"; cat "$_o"; return 1; }
	vm_lf "$_o"
	cat "$_o"
	"$ns_build/ndrun" "$ns_build/samples/ndinfo.exe" -l > "$_o.l" 2>&1 || { vm_lf "$_o.l"; cat "$_o.l"; return 1; }
	vm_lf "$_o.l"
	cat "$_o.l"
	ibv_devinfo -v -d rxe0 > "$vm_tmp/devinfo" || return 1
	_guid=$(ns_field "$vm_tmp/devinfo" node_guid)
	# rxe0 is the adapter: same node GUID, and this guest's address.
	grep -q "AdapterId:.*(node_guid $_guid)" "$_o" || { echo "no adapter with node_guid $_guid"; return 1; }
	grep -Eq "^NetworkDirect addresses:.* $NDSHIM_VM_ADDR( |\$)" "$_o" ||
		{ echo "$NDSHIM_VM_ADDR not listed"; return 1; }
	# -l: one row, provider 0, rxe0's AdapterId and this guest's address.
	_id=$(sed -n 's/.*AdapterId:[[:space:]]*\(0x[0-9A-F]*\).*/\1/p' "$_o" | head -n1)
	[ "$(grep -c '^    [0-9]' "$_o.l")" -eq 1 ] &&
		grep -Eq "^    0 +$_id +$NDSHIM_VM_ADDR( |\$)" "$_o.l" ||
		{ echo "ndinfo -l has no single row '0 $_id $NDSHIM_VM_ADDR'"; return 1; }
	# Its limits are rxe0's; depths no larger than the provider's caps
	# (16384 work requests, 65536 CQ entries: docs/nd2-decisions.md).
	for _pair in max_mr_size:MaxRegistrationSize max_sge:MaxInitiatorSge max_sge:MaxReceiveSge \
		max_qp_wr:MaxReceiveQueueDepth:16384 max_qp_wr:MaxInitiatorQueueDepth:16384 \
		max_qp_rd_atom:MaxInboundReadLimit max_qp_init_rd_atom:MaxOutboundReadLimit \
		max_cqe:MaxCompletionQueueDepth:65536 vendor_part_id:DeviceId; do
		_cap=${_pair#*:*:}
		[ "$_cap" != "$_pair" ] || _cap=
		_pair=${_pair%:"$_cap"}
		_v=$(ns_field "$vm_tmp/devinfo" "${_pair%%:*}")
		_n=$(ns_field "$_o" "${_pair#*:}")
		case $_v in 0x*) ;; *) _n=$(printf '%d' "$_n") ;; esac
		if [ -n "$_cap" ] && [ -n "$_v" ] && [ "$_v" -gt "$_cap" ]; then
			_v=$_cap
		fi
		if [ -z "$_v" ] || [ "$_v" != "$_n" ]; then
			echo "${_pair#*:} is '$_n', ibv_devinfo's ${_pair%%:*} is '$_v'"
			return 1
		fi
	done
}

# The client's table must have a row for every size, 0 to 64 KiB.
ns_table_complete() { # FILE
	for _s in 0 1 2 4 8 16 32 64 128 256 512 1024 2048 4096 8192 16384 32768 65536; do
		grep -Eq "^ $_s +5 " "$1" || { echo "no row for $_s bytes"; return 1; }
	done
}

ns_server() { # MODE-NAME ADDR:PORT [-b]
	_o=$ns_out/server-$1-$ns_tag.txt
	shift
	_rc=0
	timeout 150 "$ns_build/ndrun" "$ns_build/samples/ndpingpong.exe" -s "$@" > "$_o" 2>&1 || _rc=$?
	vm_lf "$_o"
	cat "$_o"
	[ $_rc -eq 0 ] && grep -q 'received, checked and echoed' "$_o"
}

ns_client() { # MODE-NAME SERVER:PORT [-b]
	_o=$ns_out/client-$1-$ns_tag.txt
	shift
	_rc=0
	timeout 150 "$ns_build/ndrun" "$ns_build/samples/ndpingpong.exe" -c "$@" -w 60 $ns_ping_args \
		> "$_o" 2>&1 || _rc=$?
		vm_lf "$_o"
	cat "$_o"
	[ $_rc -eq 0 ] && ns_table_complete "$_o"
}

# Server and client on this guest.
ns_local() { # MODE-NAME PORT [-b]
	_mode=$1 _port=$2
	shift 2
	ns_server "$_mode" "$NDSHIM_VM_ADDR:$_port" "$@" > "$vm_tmp/ns-server" 2>&1 & _srv=$!
	_crc=0
	ns_client "$_mode" "$NDSHIM_VM_ADDR:$_port" "$@" || _crc=1
	_src=0
	wait $_srv || _src=1
	echo "--- server:"
	cat "$vm_tmp/ns-server"
	[ $_crc -eq 0 ] && [ $_src -eq 0 ]
}

# The table lines of a client run, for the report.
ns_show_table() { # FILE
	grep -E '^ #bytes|^ [0-9]+ ' "$1" 2>/dev/null | sed 's/^/    | /'
}

if [ ! -x "$ns_build/ndrun" ] || [ ! -f "$ns_build/nd2prov.dll" ] ||
	[ ! -f "$ns_build/samples/ndinfo.exe" ] || [ ! -f "$ns_build/samples/ndpingpong.exe" ]; then
	echo "FAIL: $(vm_name "nd2samples: ndrun, nd2prov.dll and samples/*.exe are built in $ns_build (make)")"
	vm_failed=$((vm_failed + 1))
elif [ "${NDSHIM_VM_HOSTS:-1}" = 1 ]; then
	vm_check "ndinfo lists rxe0 with its limits" ns_ndinfo
	vm_check "ndpingpong, polling, two processes: 0 B to 64 KiB checked" ns_local polling 54321
	ns_show_table "$ns_out/client-polling-$ns_tag.txt"
	vm_check "ndpingpong, blocking (Notify + IOCP), two processes: 0 B to 64 KiB checked" \
		ns_local blocking 54322 -b
	ns_show_table "$ns_out/client-blocking-$ns_tag.txt"
elif [ "$NDSHIM_VM_HOST" = A ]; then
	vm_check "ndinfo lists rxe0 with its limits" ns_ndinfo
	vm_check "ndpingpong server for B, polling: every message checked" \
		ns_server polling "$NDSHIM_VM_ADDR:54321"
	vm_check "ndpingpong server for B, blocking: every message checked" \
		ns_server blocking "$NDSHIM_VM_ADDR:54322" -b
else
	vm_check "ndinfo lists rxe0 with its limits" ns_ndinfo
	vm_check "ndpingpong client to A, polling: 0 B to 64 KiB checked" \
		ns_client polling "$NDSHIM_VM_PEER:54321"
	ns_show_table "$ns_out/client-polling-$ns_tag.txt"
	vm_check "ndpingpong client to A, blocking (Notify + IOCP), -l: 0 B to 64 KiB checked" \
		ns_client blocking "$NDSHIM_VM_PEER:54322" -b -l "$NDSHIM_VM_ADDR"
	ns_show_table "$ns_out/client-blocking-$ns_tag.txt"
fi
