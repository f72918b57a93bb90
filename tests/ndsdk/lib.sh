# Running Microsoft's NetworkDirect SDK tools (make ndsdk) under ndrun in a
# rig guest, and judging them.  Sourced after tests/vm/lib.sh by
# tests/ndsdk/one.sh and two.sh (make check-ndsdk) and by the check-vm part
# (tests/vm/suites/ndsdk.sh).  docs/ND-CONFORMANCE.md says what each tool
# checks and how it is judged:
#   - a unit test (ndconn, ndcq, ndmval, ndmpic, ndmemorytest's sub-tests,
#     ndadapterinfo, ndcat, ndmrlat, ndmrrate): every process exits 0 and
#     prints no failure;
#   - ndmw: the client prints "Phase 1: complete" (its second phase is 8.4
#     million awaited 4-byte Writes: hours under TCG);
#   - the ping tools (ndping, ndpingpong, ndrping, ndrpingpong), which run
#     1 B to 4 MiB at 100,000-500,000 iterations a size and cannot be told
#     to do less: the client prints at least SDK_MIN_ROWS table rows within
#     its time bound, and no failure.  Stopped at the bound, it leaves its
#     server with requests flushed: that is not the server's failure, so a
#     server is judged only when its client finished.
# The SDK's tools report a failure as "... failed with XXXXXXXX" and exit
# with their source line number.

# The ping tools' bound: the client must print SDK_MIN_ROWS rows (default
# 1: the 1-byte row is 500,000 messages for the streams ndping and ndrping,
# 101,000 round trips for the ping-pongs, one to four minutes under TCG on
# a quiet host, 25 on one guest at load 20) with no failure, while rxe0
# keeps moving packets: SDK_STALL_SECONDS (default 120) without one stops
# and fails it (a lost completion, a Write that never lands: the tool
# would wait for ever).  SDK_PING_SECONDS (default 3600) caps the whole.
# A fixed bound short enough to catch a hang failed ndpingpong and
# ndrpingpong on a loaded machine while they moved 100 round trips a
# second.  tests/ndsdk/run writes them into the results folder, since a
# guest gets no other variables.
SDK_PING_SECONDS=3600
SDK_STALL_SECONDS=120
SDK_MIN_ROWS=
[ ! -r "$NDSHIM_VM_RESULTS/ndsdk/settings" ] || . "$NDSHIM_VM_RESULTS/ndsdk/settings"

sdk_stop_at=
sdk_stop_line=
# SDK_PHASE1_STOP=1: ndmw's client is stopped at "Phase 1: complete", which
# is all it is judged by; otherwise it runs on through phase 2 (8.4 million
# awaited 4-byte Writes: 290 s in check-vm's guest) until it ends or meets
# its bound.  check-vm's fast part (tests/vm/suites/ndsdk.sh) sets it.
SDK_PHASE1_STOP=${SDK_PHASE1_STOP:-}

# rxe0's packet counters, "SENT RECEIVED": a ping tool stopped at its bound
# without a row says by them whether it was moving.
sdk_packets() {
	rdma statistic show link "${NDSHIM_VM_RDMA_DEV:-rxe0}/1" 2>/dev/null |
		sed -n 's/.* sent_pkts \([0-9]*\) rcvd_pkts \([0-9]*\) .*/\1 \2/p'
}

sdk_packets_since() { # "SENT RECEIVED" from before
	set -- $1 $(sdk_packets)
	[ $# = 4 ] && echo "rxe0 meanwhile: $(($3 - $1)) packets sent, $(($4 - $2)) received"
}

# The rows TOOL must print within the bound.
sdk_min_rows() { # TOOL
	if [ -n "$SDK_MIN_ROWS" ]; then
		echo "$SDK_MIN_ROWS"
	else
		echo 1
	fi
}

sdk_dir=$NDSHIM_VM_BUILD/ndsdk
sdk_ndrun=$NDSHIM_VM_BUILD/ndrun
sdk_out=$NDSHIM_VM_RESULTS/ndsdk
sdk_tag=$NDSHIM_VM_HOSTS-$NDSHIM_VM_HOST
mkdir -p "$sdk_out"

# sdk_tool NAME: the tool's .exe, or a failure if make ndsdk did not build it.
sdk_exe() {
	[ -f "$sdk_dir/$1.exe" ] || { echo "no $sdk_dir/$1.exe (make ndsdk)"; return 1; }
	echo "$sdk_dir/$1.exe"
}

# A failure line in a tool's output (the SDK's LOG_FAILURE_* helpers end
# theirs with the source line).
sdk_failed_output() { # FILE
	grep -Eq 'failed with [0-9a-fA-F]{8}|  Line: [0-9]+|Test failed|^Bad |Exactly one of' "$1"
}

# Table rows of a ping tool: size and iterations first (" %9ul %9ul ...":
# the SDK's format prints a literal l after each).
sdk_rows() { # FILE
	_rw_n=$(grep -Ec '^ +[0-9]+l +[0-9]+l ' "$1" 2>/dev/null) || :
	echo "${_rw_n:-0}"
}

# An rdma_cm listener on PORT exists on this guest.
sdk_listening() { # PORT
	rdma resource show cm_id 2>/dev/null | grep 'state LISTEN' | grep -q "src-addr [0-9.]*:$1 "
}

# The server listens on PORT, or has ended without (ndmemorytest's
# server-only and client-only sub-tests: the client runs anyway).
sdk_listening_or_gone() { # PORT SERVER-PID
	sdk_listening "$1" || ! kill -0 "$2" 2>/dev/null
}

# The last N lines of a tool's output, ending with a newline even when the
# tool's did not (a line printed after them must start its own).
sdk_tail() { # N FILE
	tail -n "$1" "$2"
	[ -z "$(tail -c 1 "$2")" ] || echo
}

# One shell word.
sdk_quote() {
	printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"
}

# sdk_run LOG TIMEOUT TOOL ARG...: one process, its output to LOG; prints
# nothing, returns its exit status (124 when the bound stopped it).  It runs
# on a pseudo-terminal (script): into a file, msvcrt's stdout is fully
# buffered, and a tool stopped at its bound would take its rows with it.
sdk_run() {
	_sr_log=$1 _sr_t=$2 _sr_tool=$3
	shift 3
	_sr_exe=$(sdk_exe "$_sr_tool") || { echo "$_sr_exe" > "$_sr_log"; return 2; }
	_sr_cmd="$(sdk_quote "$sdk_ndrun") $(sdk_quote "$_sr_exe")"
	for _sr_a in "$@"; do
		_sr_cmd="$_sr_cmd $(sdk_quote "$_sr_a")"
	done
	_sr_rc=0
	timeout -k 5 "$_sr_t" script -qfec "$_sr_cmd" /dev/null > "$_sr_log" 2>&1 < /dev/null &
	_sr_pid=$!
	# A ping tool's client (sdk_stop_at set) is stopped as soon as its
	# rows are in, as it would be at the bound, only sooner, and as a
	# failure once rxe0 has moved no packet for SDK_STALL_SECONDS; ndmw's
	# (sdk_stop_line set) once it has printed that line.
	_sr_stopped=0
	rm -f "$_sr_log.stall"
	_sr_pk=$(sdk_packets) _sr_moved=$(date +%s)
	while { [ -n "$sdk_stop_at" ] || [ -n "$sdk_stop_line" ]; } && kill -0 $_sr_pid 2>/dev/null; do
		if { [ -n "$sdk_stop_at" ] && [ "$(sdk_rows "$_sr_log")" -ge "$sdk_stop_at" ]; } ||
			{ [ -n "$sdk_stop_line" ] && grep -q "$sdk_stop_line" "$_sr_log"; }; then
			kill $_sr_pid 2>/dev/null
			_sr_stopped=1
			break
		fi
		# (Without rxe0's counters, only the cap.)
		if [ -n "$sdk_stop_at" ] && [ -n "$_sr_pk" ]; then
			_sr_now=$(sdk_packets)
			if [ "$_sr_now" != "$_sr_pk" ]; then
				_sr_pk=$_sr_now _sr_moved=$(date +%s)
			elif [ $(($(date +%s) - _sr_moved)) -ge "$SDK_STALL_SECONDS" ]; then
				kill $_sr_pid 2>/dev/null
				_sr_stopped=2
				echo "ndsdk: stopped: rxe0 moved no packet in $SDK_STALL_SECONDS s" >> "$_sr_log.stall"
				break
			fi
		fi
		sleep 2
	done
	wait $_sr_pid || _sr_rc=$?
	[ $_sr_stopped != 1 ] || _sr_rc=124
	# A stalled client: 125, a failure whatever it printed.
	[ $_sr_stopped != 2 ] || _sr_rc=125
	return $_sr_rc
}

# sdk_alone NAME TIMEOUT TOOL ARG...: a tool that needs no peer: exit 0 and
# no failure printed.
sdk_alone() {
	_sa_name=$1
	shift
	_sa_log=$sdk_out/$_sa_name-$sdk_tag.txt
	_sa_rc=0
	sdk_run "$_sa_log" "$@" || _sa_rc=$?
	if [ $_sa_rc -ne 0 ] || sdk_failed_output "$_sa_log"; then
		sdk_tail 30 "$_sa_log"
		echo "$_sa_name: exit $_sa_rc"
		return 1
	fi
}

# sdk_pair NAME PORT TIMEOUT KIND TOOL SERVER-ARGS -- CLIENT-ARGS: a server
# and its client on this guest, the client started once the server listens
# on PORT (PORT -: both at once, for a tool whose sides both listen).  KIND is "unit" (both exit 0, no failure printed), "rows"
# (a ping tool: the client prints sdk_min_rows rows, no failure, within
# TIMEOUT), or "phase1" (ndmw).
sdk_pair() {
	_sp_name=$1 _sp_port=$2 _sp_t=$3 _sp_kind=$4 _sp_tool=$5
	shift 5
	_sp_sargs=
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		_sp_sargs="$_sp_sargs $1"
		shift
	done
	shift
	_sp_slog=$sdk_out/$_sp_name-server-$sdk_tag.txt
	_sp_clog=$sdk_out/$_sp_name-client-$sdk_tag.txt
	rm -f "$_sp_slog" "$_sp_clog"
	# The server's bound is longer: it must outlive its client.
	# shellcheck disable=SC2086
	sdk_run "$_sp_slog" $((_sp_t + 30)) "$_sp_tool" $_sp_sargs & _sp_srv=$!
	if [ "$_sp_port" != - ] && ! vm_retry 60 sdk_listening_or_gone "$_sp_port" $_sp_srv; then
		kill $_sp_srv 2>/dev/null
		wait $_sp_srv 2>/dev/null
		echo "--- server (never listened on $_sp_port):"
		sdk_tail 30 "$_sp_slog"
		return 1
	fi
	_sp_crc=0
	_sp_pk=$(sdk_packets)
	[ "$_sp_kind" != rows ] || sdk_stop_at=$(sdk_min_rows "$_sp_tool")
	[ "$_sp_kind" != phase1 ] || [ -z "$SDK_PHASE1_STOP" ] || sdk_stop_line='Phase 1: complete'
	sdk_run "$_sp_clog" "$_sp_t" "$_sp_tool" "$@" || _sp_crc=$?
	sdk_stop_at=
	sdk_stop_line=
	[ "$_sp_kind" != rows ] || sdk_packets_since "$_sp_pk" || :

	sdk_judge_pair "$_sp_kind" "$_sp_crc" "$_sp_srv" "$_sp_clog" "$_sp_slog" "$(sdk_min_rows "$_sp_tool")"
}

# sdk_judge_pair KIND CLIENT-RC SERVER-PID CLIENT-LOG SERVER-LOG MIN-ROWS
sdk_judge_pair() {
	_jp_ok=1
	case $1 in
	rows)
		_jp_rows=$(sdk_rows "$4")
		if sdk_failed_output "$4" || [ "$_jp_rows" -lt "$6" ] ||
			{ [ "$2" -ne 0 ] && [ "$2" -ne 124 ]; }; then
			_jp_ok=0
		fi
		echo "client: $_jp_rows rows (at least $6), exit $2 (124: stopped at the bound or once its rows were in; 125: stalled)"
		[ ! -s "$4.stall" ] || cat "$4.stall"
		;;
	phase1)
		grep -q 'Phase 1: complete' "$4" && ! sdk_failed_output "$4" || _jp_ok=0
		;;
	*)
		[ "$2" -eq 0 ] && ! sdk_failed_output "$4" || _jp_ok=0
		;;
	esac
	_jp_src=0
	if [ "$2" -eq 124 ] || { [ "$1" = phase1 ] && [ $_jp_ok = 1 ]; }; then
		# Its client was stopped: what the server sees now is not its fault.
		kill "$3" 2>/dev/null
		wait "$3" 2>/dev/null
	else
		# A client that failed may leave its server waiting for ever.
		if [ "$2" -ne 0 ]; then
			_jp_n=0
			while kill -0 "$3" 2>/dev/null && [ $_jp_n -lt 20 ]; do
				sleep 1
				_jp_n=$((_jp_n + 1))
			done
			kill "$3" 2>/dev/null || :
		fi
		wait "$3" || _jp_src=$?
		if [ $_jp_src -ne 0 ] || sdk_failed_output "$5"; then
			_jp_ok=0
		fi
		echo "server: exit $_jp_src"
	fi
	if [ $_jp_ok = 0 ]; then
		echo "--- client:"
		sdk_tail 25 "$4"
		echo "--- server:"
		sdk_tail 25 "$5"
		return 1
	fi
	[ "$1" != rows ] || grep -E '^ +[0-9]+l +[0-9]+l ' "$4" | tail -n 3
}

# The two-guest halves: A serves, B connects to A.  A marks each server
# as listening in the results folder both guests share; B waits for it.
sdk_ready_file() { # NAME
	echo "$sdk_out/ready-$1"
}

sdk_server_half() { # NAME PORT TIMEOUT KIND TOOL ARG...
	_sh_name=$1 _sh_port=$2 _sh_t=$3 _sh_kind=$4 _sh_tool=$5
	shift 5
	_sh_log=$sdk_out/$_sh_name-server-$sdk_tag.txt
	_sh_rc=0
	rm -f "$sdk_out/done-$_sh_name"
	sdk_run "$_sh_log" "$_sh_t" "$_sh_tool" "$@" & _sh_pid=$!
	if vm_retry 60 sdk_listening "$_sh_port"; then
		: > "$(sdk_ready_file "$_sh_name")"
	else
		echo "never listened on $_sh_port"
	fi
	# B marks its client finished; a ping tool's server is then stopped
	# (stopped at its bound, the client leaves it waiting).
	while kill -0 $_sh_pid 2>/dev/null && [ ! -e "$sdk_out/done-$_sh_name" ]; do
		sleep 1
	done
	if [ "$_sh_kind" = rows ]; then
		sleep 5
		kill $_sh_pid 2>/dev/null || :
	fi
	wait $_sh_pid || _sh_rc=$?
	rm -f "$(sdk_ready_file "$_sh_name")" "$sdk_out/done-$_sh_name"
	echo "server: exit $_sh_rc"
	# A ping tool's client stops at its bound: its server then ends on
	# flushed requests or is stopped here, which is no failure of the
	# server's (the client judges the run).
	[ "$_sh_kind" = rows ] && return 0
	[ $_sh_rc -eq 0 ] && ! sdk_failed_output "$_sh_log" || { sdk_tail 30 "$_sh_log"; return 1; }
}

sdk_client_half() { # NAME PORT TIMEOUT KIND TOOL ARG...
	_ch_name=$1 _ch_port=$2 _ch_t=$3 _ch_kind=$4 _ch_tool=$5
	shift 5
	_ch_log=$sdk_out/$_ch_name-client-$sdk_tag.txt
	if ! vm_retry 180 test -e "$(sdk_ready_file "$_ch_name")"; then
		echo "A's server never listened"
		: > "$sdk_out/done-$_ch_name"
		return 1
	fi
	_ch_rc=0
	_ch_pk=$(sdk_packets)
	[ "$_ch_kind" != rows ] || sdk_stop_at=$(sdk_min_rows "$_ch_tool")
	sdk_run "$_ch_log" "$_ch_t" "$_ch_tool" "$@" || _ch_rc=$?
	sdk_stop_at=
	[ "$_ch_kind" != rows ] || sdk_packets_since "$_ch_pk" || :

	: > "$sdk_out/done-$_ch_name"
	case $_ch_kind in
	rows)
		_ch_rows=$(sdk_rows "$_ch_log")
		echo "client: $_ch_rows rows, exit $_ch_rc (124: stopped at the bound or once its rows were in; 125: stalled)"
		[ ! -s "$_ch_log.stall" ] || cat "$_ch_log.stall"
		if sdk_failed_output "$_ch_log" || [ "$_ch_rows" -lt "$(sdk_min_rows "$_ch_tool")" ] ||
			{ [ $_ch_rc -ne 0 ] && [ $_ch_rc -ne 124 ]; }; then
			sdk_tail 30 "$_ch_log"
			return 1
		fi
		grep -E '^ +[0-9]+l +[0-9]+l ' "$_ch_log" | tail -n 3
		;;
	phase1)
		grep -q 'Phase 1: complete' "$_ch_log" && ! sdk_failed_output "$_ch_log" ||
			{ sdk_tail 30 "$_ch_log"; echo "client exit $_ch_rc"; return 1; }
		;;
	*)
		[ $_ch_rc -eq 0 ] && ! sdk_failed_output "$_ch_log" || { sdk_tail 30 "$_ch_log"; echo "client exit $_ch_rc"; return 1; }
		;;
	esac
}
