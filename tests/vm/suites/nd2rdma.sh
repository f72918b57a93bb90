# samples/ndrdma under ndrun with nd2prov.dll on rxe0: RDMA Write and RDMA
# Read, latency and bandwidth, polling and blocking (Notify + IOCP), every
# size from 1 B to 8 MiB (ndrdma's default; rxe's max_msg_sz on Linux 6.1),
# every transfer's data checked on the side
# it lands on.  Half the runs reach the peer through a bound memory window,
# half through the region's own token (-r).  One guest: server and client
# are two ndrun processes on it, and -X runs (a byte corrupted on purpose)
# must fail with the mismatch counted; two guests: A serves, B connects
# (four of the eight runs).
# Sourced by the rig's batched boots after lib.sh (tests/vm/selftest/*.sh);
# tests/vm/long/nd2rdma-long.sh runs it with more iterations.
# Few iterations per size here: the boot is shared and TCG is slow.
nr_build=$NDSHIM_VM_BUILD
nr_out=$NDSHIM_VM_RESULTS/nd2rdma
nr_tag=$NDSHIM_VM_HOSTS-$NDSHIM_VM_HOST
nr_lat_iters=${NDSHIM_ND2RDMA_LAT_ITERS:-3}
nr_bw_iters=${NDSHIM_ND2RDMA_BW_ITERS:-8}
nr_timeout=${NDSHIM_ND2RDMA_TIMEOUT:-240}
mkdir -p "$nr_out"

# The runs: NAME:PORT:CLIENT-ARGS, spaces as _ (the server gets -b when the
# client has it); NDSHIM_ND2RDMA_RUNS replaces the list.
nr_runs=${NDSHIM_ND2RDMA_RUNS:-"write-lat-polling:54341:-t_write_-m_lat
write-lat-blocking:54342:-t_write_-m_lat_-b_-r
read-lat-polling:54343:-t_read_-m_lat_-r
read-lat-blocking:54344:-t_read_-m_lat_-b
write-bw-polling:54345:-t_write_-m_bw
write-bw-blocking:54346:-t_write_-m_bw_-b_-r
read-bw-polling:54347:-t_read_-m_bw_-r
read-bw-blocking:54348:-t_read_-m_bw_-b"}
# Across two guests every run costs about twice as much: check-vm takes
# four of them, each test once, polling and blocking, window and region
# token both used; tests/vm/long/nd2rdma-long.sh takes all eight.
nr_runs_two=${NDSHIM_ND2RDMA_RUNS_TWO:-"write-lat-polling:54341:-t_write_-m_lat
read-lat-blocking:54344:-t_read_-m_lat_-b
write-bw-blocking:54346:-t_write_-m_bw_-b_-r
read-bw-polling:54347:-t_read_-m_bw_-r"}

nr_args() { # UNDERSCORED-ARGS
	echo "$1" | tr _ ' '
}

nr_iters() { # ARGS
	case " $1 " in
	*" -m bw "*) echo "$nr_bw_iters" ;;
	*) echo "$nr_lat_iters" ;;
	esac
}

# The client's table has a row for every size from 1 B to its largest
# (ndrdma's default: 8 MiB, or less if MaxTransferLength is), each with
# every transfer checked; that largest is what the kernel says rxe0 takes
# (max_msg_sz, 8 MiB on Linux 6.1), and the adapter's MaxTransferLength
# no less (the provider reports rxe's real limit, 2 GiB).
nr_table_complete() { # FILE ITERS
	_mtl=$(sed -n 's/.*the adapter.s MaxTransferLength \([0-9]*\)).*/\1/p' "$1" | head -n 1)
	_max=$(sed -n 's/^ *Max transfer *: \([0-9]*\) .*/\1/p' "$1" | head -n 1)
	_dev=$(ibv_devinfo -v -d rxe0 | sed -n 's/^[[:space:]]*max_msg_sz:[[:space:]]*\(0x[0-9a-f]*\).*/\1/p')
	[ -n "$_max" ] && [ -n "$_mtl" ] && [ -n "$_dev" ] && [ "$_max" -eq "$(printf '%d' "$_dev")" ] &&
		[ "$_mtl" -ge "$_max" ] ||
		{ echo "largest size '$_max', MaxTransferLength '$_mtl', ibv_devinfo's max_msg_sz '$_dev'"; return 1; }
	_s=1
	while [ "$_s" -le "$_max" ]; do
		# Size, iterations, ..., and the last column: transfers checked.
		awk -v s="$_s" -v n="$2" '$1 == s && $2 == n && $NF == n { found = 1 } END { exit !found }' "$1" ||
			{ echo "no row for $_s bytes with $2 transfers checked"; return 1; }
		_s=$((_s * 2))
	done
	grep -q "mismatched: 0 here, 0 there" "$1" || { echo "no count of 0 mismatched transfers"; return 1; }
}

nr_server() { # NAME ADDR:PORT [-b]
	_o=$nr_out/server-$1-$nr_tag.txt
	shift
	_rc=0
	timeout "$nr_timeout" "$nr_build/ndrun" "$nr_build/samples/ndrdma.exe" -s "$@" > "$_o" 2>&1 || _rc=$?
	vm_lf "$_o"
	cat "$_o"
	[ $_rc -eq 0 ] && grep -q 'mismatched: 0 here, 0 there' "$_o"
}

nr_client() { # NAME SERVER:PORT ARGS...
	_o=$nr_out/client-$1-$nr_tag.txt
	shift
	_rc=0
	timeout "$nr_timeout" "$nr_build/ndrun" "$nr_build/samples/ndrdma.exe" -c "$@" -w 60 > "$_o" 2>&1 || _rc=$?
	vm_lf "$_o"
	cat "$_o"
	[ $_rc -eq 0 ] && nr_table_complete "$_o" "$(nr_iters "$*")"
}

nr_blocking() { # ARGS: -b when the client blocks
	case " $* " in *" -b "*) echo -b ;; esac
}

# Server and client on this guest.
nr_local() { # NAME PORT ARGS...
	_n=$1 _p=$2
	shift 2
	# shellcheck disable=SC2046
	nr_server "$_n" "$NDSHIM_VM_ADDR:$_p" $(nr_blocking "$@") > "$vm_tmp/nr-server" 2>&1 < /dev/null & _srv=$!
	_crc=0
	nr_client "$_n" "$NDSHIM_VM_ADDR:$_p" "$@" -n "$(nr_iters "$*")" || _crc=1
	_src=0
	wait $_srv || _src=1
	echo "--- server:"
	cat "$vm_tmp/nr-server"
	[ $_crc -eq 0 ] && [ $_src -eq 0 ]
}

# -X: one byte corrupted on purpose.  Both sides exit 1, the side the data
# lands on counts the mismatch, and the client's final line has it.
nr_corrupt() { # NAME PORT ARGS...
	_n=$1 _p=$2
	shift 2
	_o=$nr_out/corrupt-$_n-$nr_tag.txt
	timeout 120 "$nr_build/ndrun" "$nr_build/samples/ndrdma.exe" -s "$NDSHIM_VM_ADDR:$_p" \
		> "$_o.server" 2>&1 & _srv=$!
	_crc=0
	timeout 120 "$nr_build/ndrun" "$nr_build/samples/ndrdma.exe" -c "$NDSHIM_VM_ADDR:$_p" -w 60 -X \
		-S 1 -M 4096 -n 3 "$@" > "$_o" 2>&1 || _crc=$?
	_src=0
	wait $_srv || _src=$?
	cat "$_o"
	echo "--- server:"
	cat "$_o.server"
	[ $_crc -eq 1 ] && [ $_src -eq 1 ] || { echo "exit statuses $_crc and $_src, not 1 and 1"; return 1; }
	grep -q 'data mismatch in' "$_o" "$_o.server" || { echo "no mismatch reported"; return 1; }
	grep -Eq 'mismatched: ([1-9][0-9]* here, 0 there|0 here, [1-9][0-9]* there)' "$_o" ||
		{ echo "the client's count of mismatched transfers is not one side's nonzero count"; return 1; }
}

# The table lines of a client run, for the report.
nr_show_table() { # FILE
	grep -E '^ #bytes|^ [0-9]+ ' "$1" 2> /dev/null | sed 's/^/    | /'
}

# After the runs across the link, a note of what the link lost and what rxe
# retried on this guest: an RDMA Read's response is a burst of 1 KiB
# packets, and a link that drops some (tests/vm/guest-init sizes its rings
# and queue for them) shows as Read bandwidth collapsing from 1 MiB and a
# Read ending ND_CANCELED; these counters tell the rig's loss from the
# provider's.  A note, not a check: under heavy load some loss is normal.
nr_link_note() {
	_nl_rxe=$(rdma statistic show link "$NDSHIM_VM_RDMA_DEV/1" 2>/dev/null |
		grep -o -E '(completer_retry_err|retry_exceeded_err|duplicate_request|rcvd_seq_err) [0-9]+' | tr '\n' ' ' | sed 's/ $//')
	_nl_rx=$(ip -s link show "$NDSHIM_VM_NETDEV" | awk '/RX:/ { getline; print "receive dropped " $4 ", missed " $5; exit }')
	_nl_q=$(tc -s qdisc show dev "$NDSHIM_VM_NETDEV" | sed -n 's/.*(dropped \([0-9]*\),.*/qdisc dropped \1/p' | head -n 1)
	echo "    | note: $(vm_name "nd2rdma: rxe0 ${_nl_rxe}; $NDSHIM_VM_NETDEV $_nl_rx, $_nl_q")"
}

if [ ! -x "$nr_build/ndrun" ] || [ ! -f "$nr_build/nd2prov.dll" ] || [ ! -f "$nr_build/samples/ndrdma.exe" ]; then
	echo "FAIL: $(vm_name "nd2rdma: ndrun, nd2prov.dll and samples/ndrdma.exe are built in $nr_build (make)")"
	vm_failed=$((vm_failed + 1))
elif [ "${NDSHIM_VM_HOSTS:-1}" = 1 ]; then
	for nr_run in $nr_runs; do
		nr_name=${nr_run%%:*} nr_port=${nr_run#*:} nr_a=$(nr_args "${nr_run##*:}")
		nr_port=${nr_port%%:*}
		# shellcheck disable=SC2086
		vm_check "ndrdma $nr_name ($nr_a), two processes: 1 B to 8 MiB checked" \
			nr_local "$nr_name" "$nr_port" $nr_a
		nr_show_table "$nr_out/client-$nr_name-$nr_tag.txt"
	done
	vm_check "ndrdma -X write latency: a corrupted byte is counted and fails the run" \
		nr_corrupt write-lat 54351 -t write -m lat
	vm_check "ndrdma -X write bandwidth: a corrupted byte is counted by the server and fails the run" \
		nr_corrupt write-bw 54352 -t write -m bw
	vm_check "ndrdma -X read latency: a corrupted byte is counted and fails the run" \
		nr_corrupt read-lat 54353 -t read -m lat -b
	vm_check "ndrdma -X read bandwidth: a corrupted byte is counted and fails the run" \
		nr_corrupt read-bw 54354 -t read -m bw -r
else
	for nr_run in $nr_runs_two; do
		nr_name=${nr_run%%:*} nr_port=${nr_run#*:} nr_a=$(nr_args "${nr_run##*:}")
		nr_port=${nr_port%%:*}
		if [ "$NDSHIM_VM_HOST" = A ]; then
			# shellcheck disable=SC2046,SC2086
			vm_check "ndrdma server for B, $nr_name: every transfer checked" \
				nr_server "$nr_name" "$NDSHIM_VM_ADDR:$nr_port" $(nr_blocking $nr_a)
		else
			# shellcheck disable=SC2086
			vm_check "ndrdma client to A, $nr_name ($nr_a): 1 B to 8 MiB checked" \
				nr_client "$nr_name" "$NDSHIM_VM_PEER:$nr_port" $nr_a -n "$(nr_iters "$nr_a")"
			nr_show_table "$nr_out/client-$nr_name-$nr_tag.txt"
		fi
	done
	nr_link_note
fi
