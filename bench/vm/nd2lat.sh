#!/bin/sh
# make bench-vm, inside one Soft-RoCE guest (tests/vm/run): ndpingpong under
# ndrun against perftest's ib_send_lat over rdma_cm (-R), polling and
# blocking (ndpingpong -b, ib_send_lat -e), size by size, the two programs
# interleaved, the same iteration count, server and client pinned to the
# guest's two vCPUs.  One figure per size and mode: the median over the
# repetitions of each run's t_typical (its median one-way latency); a
# warm-up pair runs first and is not counted.  Prints `bench:` lines and
# the spread of the per-repetition ratios.  Mode "hop" is blocking with
# NDSHIM_ND_DIRECT_WAIT=0: every CQ event through the provider's event
# thread, as before the waiter could read the channel itself (issue 16),
# for a before/after comparison in one run.
#
#   nd2lat.sh [--reps N] [--iters N] [--sizes "2 4 ..."] [--modes "polling blocking hop"]
#   nd2lat.sh --summarize RAW [--reps N] [--sizes ...]   (on the host too:
#             the bench: lines again from a run's raw.txt)
set -u

reps=3
iters=1000
summarize=
sizes="2 4 8 16 32 64 128 256 512 1024 2048 4096 8192 16384 32768 65536"
modes="polling blocking"
while [ $# -gt 0 ]; do
	case $1 in
	--reps) reps=$2; shift 2 ;;
	--iters) iters=$2; shift 2 ;;
	--sizes) sizes=$2; shift 2 ;;
	--modes) modes=$2; shift 2 ;;
	--summarize) summarize=$2; shift 2 ;;
	*) echo "usage: nd2lat.sh [--reps N] [--iters N] [--sizes LIST] [--modes LIST]" >&2; exit 2 ;;
	esac
done

failed=0
if [ -n "$summarize" ]; then
	raw=$summarize
else
	b=$NDSHIM_VM_BUILD
	dev=$NDSHIM_VM_RDMA_DEV
	addr=$NDSHIM_VM_ADDR
	out=$NDSHIM_VM_RESULTS/bench-vm
	mkdir -p "$out"
	raw=$out/raw.txt
	: > "$raw"
	port=20000

	# Polling: one vCPU each, or the two spinners share one and take turns by
	# the scheduler's time slice.  Blocking: both on vCPU 0, or every message
	# waits for a TCG vCPU to leave idle (about 2 ms here, for ndpingpong and
	# ib_send_lat alike) and the figure is that wake-up, not the transport.
	if [ "$(nproc)" -ge 2 ]; then
		poll_srv="taskset -c 0" poll_cli="taskset -c 1"
	else
		poll_srv="" poll_cli=""
		echo "bench-vm: the guest has one vCPU: polling server and client share it (NDSHIM_VM_SMP=2 gives one each)"
	fi
	block_srv="taskset -c 0" block_cli="taskset -c 0"
	for t in ib_send_lat taskset; do
		command -v $t > /dev/null || { echo "bench-vm: cannot measure: $t is not installed"; exit 1; }
	done

	# t_typical of the row for SIZE in a perftest-style table (column 5), or
	# x when the program printed none or no number there (ib_send_lat -e on
	# rxe prints "inf" in some runs: a figure it could not measure).
	typical() { # FILE SIZE
		awk -v s="$2" '$1 == s && NF >= 5 && $2 ~ /^[0-9]+$/ { v = $5 }
			END { print (v ~ /^[0-9]+(\.[0-9]+)?$/ && v > 0) ? v : "x" }' "$1"
	}

	# One ndpingpong pair at one size; prints t_typical or nothing.
	nd_run() { # SIZE [-b]
		_s=$1; shift
		port=$((port + 1))
		env NDSHIM_ND_DIRECT_WAIT=$dw $srv_cpu timeout 120 "$b/ndrun" "$b/samples/ndpingpong.exe" \
			-s "$addr:$port" "$@" > "$out/srv.txt" 2>&1 & _p=$!
		env NDSHIM_ND_DIRECT_WAIT=$dw $cli_cpu timeout 120 "$b/ndrun" "$b/samples/ndpingpong.exe" -c "$addr:$port" "$@" \
			-n "$iters" -S "$_s" -M "$_s" -w 30 > "$out/cli.txt" 2>&1
		_c=$?
		wait $_p
		_w=$?
		if [ $_c -ne 0 ] || [ $_w -ne 0 ] || ! grep -q 'received, checked and echoed' "$out/srv.txt"; then
			echo "bench-vm: ndpingpong $* at $_s B failed (client $_c, server $_w):" >&2
			sed 's/^/    | /' "$out/cli.txt" "$out/srv.txt" >&2
			return 1
		fi
		typical "$out/cli.txt" "$_s"
	}

	# One ib_send_lat pair at one size.
	ib_run() { # SIZE [-e]
		_s=$1; shift
		port=$((port + 1))
		$srv_cpu timeout 120 ib_send_lat -d "$dev" -R -p $port -s "$_s" -n "$iters" "$@" \
			> "$out/ibsrv.txt" 2>&1 & _p=$!
		_c=1
		for _try in 1 2 3 4 5 6 7 8 9 10; do
			sleep 0.5
			$cli_cpu timeout 120 ib_send_lat -d "$dev" -R -p $port -s "$_s" -n "$iters" "$@" "$addr" \
				> "$out/ibcli.txt" 2>&1 && { _c=0; break; }
			kill -0 $_p 2> /dev/null || break
		done
		wait $_p
		_w=$?
		if [ $_c -ne 0 ] || [ $_w -ne 0 ]; then
			echo "bench-vm: ib_send_lat $* at $_s B failed (client $_c, server $_w):" >&2
			sed 's/^/    | /' "$out/ibcli.txt" "$out/ibsrv.txt" >&2
			return 1
		fi
		typical "$out/ibcli.txt" "$_s"
	}

	srv_cpu=$poll_srv cli_cpu=$poll_cli dw=1
	# Warm-up: page cache, rxe's first QPs, ndrun's first load; not counted.
	nd_run 2 > /dev/null || failed=1
	ib_run 2 > /dev/null || failed=1

	r=1
	while [ $r -le "$reps" ]; do
		# Modes too: in reverse order on even repetitions.
		ms=$modes
		if [ $((r % 2)) = 0 ]; then
			ms=
			for mode in $modes; do ms="$mode $ms"; done
		fi
		for s in $sizes; do
			for mode in $ms; do
				dw=1
				case $mode in
				polling) nf= ef= srv_cpu=$poll_srv cli_cpu=$poll_cli ;;
				blocking) nf=-b ef=-e srv_cpu=$block_srv cli_cpu=$block_cli ;;
				hop) nf=-b ef=-e srv_cpu=$block_srv cli_cpu=$block_cli dw=0 ;;
				*) echo "bench-vm: no mode $mode" >&2; exit 2 ;;
				esac
				# Alternate which program goes first, so neither always
				# follows the other.
				if [ $((r % 2)) = 1 ]; then
					o=$(nd_run "$s" $nf) || failed=1
					p=$(ib_run "$s" $ef) || failed=1
				else
					p=$(ib_run "$s" $ef) || failed=1
					o=$(nd_run "$s" $nf) || failed=1
				fi
				echo "$r $mode $s ${o:-x} ${p:-x}" >> "$raw"
			done
		done
		r=$((r + 1))
	done

fi

# Medians over the repetitions; the spread is the lowest and highest ratio
# of one repetition.
for mode in $modes; do
	if [ $mode = polling ]; then base="ib_send_lat -R"; else base="ib_send_lat -R -e"; fi
	for s in $sizes; do
		awk -v m=$mode -v s="$s" -v base="$base" -v n="$reps" '
		function median(a, k,   i, j, t) {
			for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
			return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
		}
		$2 == m && $3 == s && $4 ~ /^[0-9.]+$/ && $5 ~ /^[0-9.]+$/ && $4 > 0 && $5 > 0 { k++; o[k] = $4; p[k] = $5; q[k] = $4 / $5 }
		END {
			name = sprintf("nd2 %s latency %s B", m, s)
			if (!k) { printf "bench: %s not measured: no repetition gave both figures (raw.txt)\n", name; exit 1 }
			mo = median(o, k); mp = median(p, k)
			lo = q[1]; hi = q[1]; for (i = 2; i <= k; i++) { if (q[i] < lo) lo = q[i]; if (q[i] > hi) hi = q[i] }
			printf "bench: %s ours=%.2fus baseline=%.2fus (%s) ratio=%.3f spread=%.3f..%.3f%s\n", name, mo, mp, base, mo / mp, lo, hi, \
				k < n ? sprintf(" (%d of %d repetitions: the others gave no figure)", k, n) : ""
		}' "$raw" || failed=1
	done
done
exit $failed
