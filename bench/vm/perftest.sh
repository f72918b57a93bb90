# Sourced by bench/vm/nd2lat.sh and nd2rdma.sh, inside a guest: one
# perftest pair over rdma_cm (-R), and where its programs go.
#
# Why a perftest client used to be rejected (Unexpected CM event 8,
# RDMA_CM_EVENT_REJECTED, its server then waiting out its timeout): the
# client came before the server listened.  Under TCG on a loaded host a
# perftest server takes 10-30 s from exec to rdma_listen (seen at load 20),
# and the old wait looked for "Waiting for client rdma_cm QP", which
# perftest prints only after the client's first connection (the exchange
# channel) and which sat in stdio's buffer anyway: the wait was a fixed
# 10 s.  The server's rdma_cm id in state LISTEN (rdma res show cm_id) is
# what tells that a client may come; one rejected all the same is started
# again while the server lives.

# pt_cpus: where servers, clients and everything else run.  With three
# vCPUs or more the script (and whatever the kernel schedules freely) keeps
# vCPU 0, polling clients get vCPU 1 and servers vCPU 2, so a spinning
# program never shares its vCPU with anything but its own kernel work
# (perftest's servers spin on their exchange channel for the whole test);
# blocking pairs both take vCPU 1 (a wake-up across TCG vCPUs costs about
# 2 ms, bench/vm/nd2lat.sh).  With two, the old layout: server 0, client 1.
pt_cpus() {
	_n=$(nproc)
	if [ "$_n" -ge 3 ]; then
		taskset -p -c 0 $$ > /dev/null
		poll_srv="taskset -c 2" poll_cli="taskset -c 1"
		block_srv="taskset -c 1" block_cli="taskset -c 1"
		echo "bench-vm: $_n vCPUs: the script on vCPU 0, polling servers on vCPU 2 and clients on vCPU 1, blocking pairs on vCPU 1"
	elif [ "$_n" -eq 2 ]; then
		poll_srv="taskset -c 0" poll_cli="taskset -c 1"
		block_srv="taskset -c 0" block_cli="taskset -c 0"
		echo "bench-vm: 2 vCPUs: polling pairs on vCPUs 0 and 1 with everything else (NDSHIM_VM_SMP=3 gives them a vCPU each beside the rest)"
	else
		poll_srv="" poll_cli="" block_srv="" block_cli=""
		echo "bench-vm: the guest has one vCPU: polling server and client share it (NDSHIM_VM_SMP=3 gives one each)"
	fi
}

# pt_listening PORT: an rdma_cm id listens on PORT.
pt_listening() {
	rdma res show cm_id 2> /dev/null | grep -Eq "state LISTEN .*src-addr [^ ]*:$1( |$)"
}

# pt_pair OUT PORT SRV_CPU CLI_CPU PROGRAM ARG...: the server (OUT.srv),
# then the client (OUT.cli) against NDSHIM_VM_ADDR.  Returns 0 when both
# exited 0; otherwise pt_why says why in one line.  SRV_CPU and CLI_CPU
# are a taskset prefix or empty.
pt_pair() {
	_out=$1 _port=$2 _scpu=$3 _ccpu=$4
	shift 4
	pt_why=
	# shellcheck disable=SC2086
	$_scpu timeout 300 stdbuf -oL "$@" -d "$NDSHIM_VM_RDMA_DEV" -R -p "$_port" > "$_out.srv" 2>&1 &
	_sp=$!
	_i=0
	until pt_listening "$_port"; do
		if ! kill -0 $_sp 2> /dev/null; then
			wait $_sp
			pt_why="$1's server exited ($?) before it listened: $(grep -v '^ *-*$' "$_out.srv" | tail -n 1)"
			return 1
		fi
		# rdma(8) missing or too old: the server's banner, now that
		# stdbuf makes it visible, then a moment for rdma_listen.
		if [ $_i = 0 ] && ! rdma res show cm_id > /dev/null 2>&1; then
			until grep -q 'Waiting for client' "$_out.srv"; do
				kill -0 $_sp 2> /dev/null || break
				sleep 0.2
			done
			sleep 1
			break
		fi
		_i=$((_i + 1))
		if [ $_i -gt 600 ]; then
			kill $_sp 2> /dev/null
			wait $_sp
			pt_why="$1's server did not listen on port $_port within 120 s"
			return 1
		fi
		sleep 0.2
	done
	_try=1
	while :; do
		# shellcheck disable=SC2086
		$_ccpu timeout 300 "$@" -d "$NDSHIM_VM_RDMA_DEV" -R -p "$_port" "$NDSHIM_VM_ADDR" > "$_out.cli" 2>&1
		_c=$?
		[ $_c = 0 ] && break
		_err=$(grep -m 1 -E 'Unexpected CM event|Unable|rror|failed|[Cc]ouldn' "$_out.cli")
		if [ $_try -ge 5 ] || ! kill -0 $_sp 2> /dev/null || ! grep -q 'Unexpected CM event' "$_out.cli"; then
			kill $_sp 2> /dev/null
			wait $_sp
			# Kept for a look afterwards: the next pair overwrites OUT.
			cp "$_out.cli" "$_out.failed-$_port.cli"
			cp "$_out.srv" "$_out.failed-$_port.srv"
			pt_why="$1's client failed ($_c) on try $_try: ${_err:-its last line: $(grep -v '^ *-*$' "$_out.cli" | tail -n 1)} ($(basename "$_out").failed-$_port.cli)"
			return 1
		fi
		echo "bench-vm: $1 client rejected on try $_try while its server listened ($_err); again" >&2
		_try=$((_try + 1))
		sleep 1
	done
	wait $_sp
	_w=$?
	if [ $_w != 0 ]; then
		pt_why="$1's server failed ($_w): $(grep -v '^ *-*$' "$_out.srv" | tail -n 1)"
		return 1
	fi
	[ $_try = 1 ] || echo "bench-vm: $1 client connected on try $_try" >&2
	return 0
}

# pt_column FILE SIZE COL: pt_val is column COL of the row for SIZE in a
# perftest-style table; returns 1 (pt_why says why) when there is no such
# row or no positive number there (ib_*_lat -e prints inf when its CPU
# frequency estimate failed in the guest).
pt_column() {
	pt_val=$(awk -v s="$2" -v c="$3" '$1 == s && NF >= c && $2 ~ /^[0-9]+$/ { v = $c } END { print v }' "$1")
	if [ -z "$pt_val" ]; then
		pt_why="no row for $2 B in its table"
		return 1
	fi
	if ! awk -v v="$pt_val" 'BEGIN { exit !(v ~ /^[0-9]+(\.[0-9]+)?$/ && v > 0) }'; then
		pt_why="'$pt_val' for $2 B in its table, not a figure"
		grep -q 'Correlation coefficient' "$1" && pt_why="$pt_why ($(grep -m 1 'Correlation coefficient' "$1"))"
		return 1
	fi
	return 0
}

# pt_summary RAW KEY SIZE LABEL UNIT BASELINE REPS: the bench: line of one
# figure from RAW's lines "REP KEY SIZE OURS THEIRS [# WHY]" (x for a
# missing figure): the medians over the repetitions that gave both, the
# lowest and highest ratio of one repetition as spread=, and the reason of
# every repetition left out.  Returns 1 when none gave both.
pt_summary() {
	awk -v t="$2" -v s="$3" -v label="$4" -v unit="$5" -v base="$6" -v n="$7" '
	function median(a, k,   i, j, x) {
		for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] < a[i]) { x = a[i]; a[i] = a[j]; a[j] = x }
		return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
	}
	$2 != t || $3 != s { next }
	$4 ~ /^[0-9.]+$/ && $5 ~ /^[0-9.]+$/ && $4 > 0 && $5 > 0 { k++; o[k] = $4; p[k] = $5; q[k] = $4 / $5; next }
	{
		why = $0; sub(/^[^#]*#? */, "", why)
		if (why == "") why = "no figure (ours " $4 ", baseline " $5 ")"
		missing = missing (missing == "" ? "" : "; ") "repetition " $1 ": " why
	}
	END {
		if (!k) {
			printf "bench: %s not measured: %s\n", label, missing == "" ? "no repetition ran" : missing
			exit 1
		}
		mo = median(o, k); mp = median(p, k)
		lo = q[1]; hi = q[1]; for (i = 2; i <= k; i++) { if (q[i] < lo) lo = q[i]; if (q[i] > hi) hi = q[i] }
		printf "bench: %s ours=%.2f%s baseline=%.2f%s (%s) ratio=%.3f spread=%.3f..%.3f%s\n", label, mo, unit, mp, unit,
			base, mo / mp, lo, hi, k < n ? sprintf(" (%d of %d repetitions; missing: %s)", k, n,
			missing == "" ? "the others did not run" : missing) : ""
	}' "$1"
}
