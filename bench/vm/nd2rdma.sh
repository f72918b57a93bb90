#!/bin/sh
# make bench-vm, inside one Soft-RoCE guest (tests/vm/run): samples/ndrdma
# under ndrun against perftest over rdma_cm (-R), size by size, the two
# programs interleaved, the same iteration count and the same depth:
#
#   write-bw            ndrdma -t write -m bw        ib_write_bw -R -t DEPTH
#   read-bw             ndrdma -t read -m bw         ib_read_bw -R -t DEPTH -o DEPTH
#   write-lat           ndrdma -t write -m lat       ib_write_lat -R
#   read-lat            ndrdma -t read -m lat        ib_read_lat -R
#   read-lat-blocking   ndrdma -t read -m lat -b     ib_read_lat -R -e
#
# Polling runs put the server on vCPU 0 and the client on vCPU 1, blocking
# runs both on vCPU 0 (bench/vm/nd2lat.sh says why).  Bandwidth: the
# tables' BW average (MB/sec, 2^20 bytes); latency: t_typical (ib_write_lat
# and ndrdma's write ping-pong halve the round trip, the reads do not).
# One figure per size and test: the median over the repetitions; a warm-up
# pair of each program runs first and is not counted.  ndrdma checks every
# transfer between its timed rounds; perftest checks nothing.
#
#   nd2rdma.sh [--reps N] [--iters N] [--bw-iters N] [--depth N]
#              [--lat-sizes "2 ..."] [--bw-sizes "4096 ..."] [--tests "write-bw ..."]
#   nd2rdma.sh --summarize RAW [same options]   (the bench: lines again)
set -u

reps=3
iters=1000
bw_iters=200
depth=16
lat_sizes="2 64 4096 65536"
bw_sizes="4096 65536 1048576"
tests="write-bw read-bw write-lat read-lat read-lat-blocking"
summarize=
while [ $# -gt 0 ]; do
	case $1 in
	--reps) reps=$2; shift 2 ;;
	--iters) iters=$2; shift 2 ;;
	--bw-iters) bw_iters=$2; shift 2 ;;
	--depth) depth=$2; shift 2 ;;
	--lat-sizes) lat_sizes=$2; shift 2 ;;
	--bw-sizes) bw_sizes=$2; shift 2 ;;
	--tests) tests=$2; shift 2 ;;
	--summarize) summarize=$2; shift 2 ;;
	*) echo "usage: nd2rdma.sh [--reps N] [--iters N] [--bw-iters N] [--depth N] [--lat-sizes LIST] [--bw-sizes LIST] [--tests LIST]" >&2
	   exit 2 ;;
	esac
done

sizes_of() { # TEST
	case $1 in *-bw) echo "$bw_sizes" ;; *) echo "$lat_sizes" ;; esac
}

failed=0
if [ -n "$summarize" ]; then
	raw=$summarize
else
	b=$NDSHIM_VM_BUILD
	dev=$NDSHIM_VM_RDMA_DEV
	addr=$NDSHIM_VM_ADDR
	out=$NDSHIM_VM_RESULTS/bench-vm
	mkdir -p "$out"
	raw=$out/raw-rdma.txt
	: > "$raw"
	port=21000

	if [ "$(nproc)" -ge 2 ]; then
		poll_srv="taskset -c 0" poll_cli="taskset -c 1"
	else
		poll_srv="" poll_cli=""
		echo "bench-vm: the guest has one vCPU: polling server and client share it (NDSHIM_VM_SMP=2 gives one each)"
	fi
	block_srv="taskset -c 0" block_cli="taskset -c 0"
	for t in ib_write_bw ib_read_bw ib_write_lat ib_read_lat taskset; do
		command -v $t > /dev/null || { echo "bench-vm: cannot measure: $t is not installed"; exit 1; }
	done

	# Column COL of the row for SIZE in a perftest-style table, or x when
	# there is no such row or no positive number there.
	column() { # FILE SIZE COL
		awk -v s="$2" -v c="$3" '$1 == s && NF >= c && $2 ~ /^[0-9]+$/ { v = $c }
			END { print (v ~ /^[0-9]+(\.[0-9]+)?$/ && v > 0) ? v : "x" }' "$1"
	}

	# TEST -> ndrdma's arguments, perftest's program and arguments, and the
	# columns of the figure in each table.
	setup_test() { # TEST
		nd_args= pt_args= srv_cpu=$poll_srv cli_cpu=$poll_cli
		case $1 in
		write-bw) nd_args="-t write -m bw -d $depth" pt=ib_write_bw pt_args="-t $depth" nd_col=3 pt_col=4 n=$bw_iters ;;
		read-bw) nd_args="-t read -m bw -d $depth" pt=ib_read_bw pt_args="-t $depth -o $depth" nd_col=3 pt_col=4 n=$bw_iters ;;
		write-lat) nd_args="-t write -m lat" pt=ib_write_lat nd_col=5 pt_col=5 n=$iters ;;
		read-lat) nd_args="-t read -m lat" pt=ib_read_lat nd_col=5 pt_col=5 n=$iters ;;
		read-lat-blocking) nd_args="-t read -m lat -b" pt=ib_read_lat pt_args=-e nd_col=5 pt_col=5 n=$iters
			srv_cpu=$block_srv cli_cpu=$block_cli ;;
		*) echo "bench-vm: no test $1" >&2; return 1 ;;
		esac
	}

	# One ndrdma pair at one size; prints the figure.
	nd_run() { # SIZE
		port=$((port + 1))
		_sb=
		case " $nd_args " in *" -b "*) _sb=-b ;; esac
		# shellcheck disable=SC2086
		$srv_cpu timeout 300 "$b/ndrun" "$b/samples/ndrdma.exe" -s "$addr:$port" $_sb > "$out/rsrv.txt" 2>&1 & _p=$!
		# shellcheck disable=SC2086
		$cli_cpu timeout 300 "$b/ndrun" "$b/samples/ndrdma.exe" -c "$addr:$port" $nd_args \
			-n "$n" -S "$1" -M "$1" -w 30 > "$out/rcli.txt" 2>&1
		_c=$?
		wait $_p
		_w=$?
		if [ $_c -ne 0 ] || [ $_w -ne 0 ] || ! grep -q 'mismatched: 0 here, 0 there' "$out/rcli.txt"; then
			echo "bench-vm: ndrdma $nd_args at $1 B failed (client $_c, server $_w):" >&2
			sed 's/^/    | /' "$out/rcli.txt" "$out/rsrv.txt" >&2
			return 1
		fi
		column "$out/rcli.txt" "$1" $nd_col
	}

	# One perftest pair at one size.
	pt_run() { # SIZE
		port=$((port + 1))
		# shellcheck disable=SC2086
		$srv_cpu timeout 300 $pt -d "$dev" -R -p $port -s "$1" -n "$n" $pt_args > "$out/psrv.txt" 2>&1 & _p=$!
		_c=1
		# A client that comes before the server listens is rejected, and
		# the server then sometimes never takes another one (it waits for
		# its timeout): wait until it says it listens.
		for _try in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
			grep -q 'Waiting for client rdma_cm QP' "$out/psrv.txt" 2> /dev/null && break
			sleep 0.5
		done
		for _try in 1 2 3 4 5 6 7 8 9 10; do
			sleep 0.5
			# shellcheck disable=SC2086
			$cli_cpu timeout 300 $pt -d "$dev" -R -p $port -s "$1" -n "$n" $pt_args "$addr" \
				> "$out/pcli.txt" 2>&1 && { _c=0; break; }
			kill -0 $_p 2> /dev/null || break
		done
		wait $_p
		_w=$?
		if [ $_c -ne 0 ] || [ $_w -ne 0 ]; then
			echo "bench-vm: $pt $pt_args at $1 B failed (client $_c, server $_w):" >&2
			sed 's/^/    | /' "$out/pcli.txt" "$out/psrv.txt" >&2
			return 1
		fi
		column "$out/pcli.txt" "$1" $pt_col
	}

	# Warm-up: page cache, rxe's first QPs, ndrun's first load; not counted.
	setup_test read-lat && n=5 && { nd_run 2 > /dev/null; pt_run 2 > /dev/null; } || failed=1

	r=1
	while [ $r -le "$reps" ]; do
		for t in $tests; do
			setup_test "$t" || { failed=1; continue; }
			for s in $(sizes_of "$t"); do
				# Alternate which program goes first.
				if [ $((r % 2)) = 1 ]; then
					o=$(nd_run "$s") || failed=1
					p=$(pt_run "$s") || failed=1
				else
					p=$(pt_run "$s") || failed=1
					o=$(nd_run "$s") || failed=1
				fi
				echo "$r $t $s ${o:-x} ${p:-x}" >> "$raw"
				echo "bench-vm: repetition $r $t $s B: ndrdma ${o:-x}, perftest ${p:-x}"
			done
		done
		r=$((r + 1))
	done
fi

# Medians over the repetitions; the spread is the lowest and highest ratio
# of one repetition.
for t in $tests; do
	case $t in
	write-bw) base="ib_write_bw -R" unit=MB/s name="RDMA Write bandwidth" ;;
	read-bw) base="ib_read_bw -R" unit=MB/s name="RDMA Read bandwidth" ;;
	write-lat) base="ib_write_lat -R" unit=us name="RDMA Write latency" ;;
	read-lat) base="ib_read_lat -R" unit=us name="RDMA Read latency" ;;
	read-lat-blocking) base="ib_read_lat -R -e" unit=us name="RDMA Read latency, blocking" ;;
	*) continue ;;
	esac
	for s in $(sizes_of "$t"); do
		awk -v t="$t" -v s="$s" -v base="$base" -v unit="$unit" -v name="$name" -v n="$reps" '
		function median(a, k,   i, j, x) {
			for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] < a[i]) { x = a[i]; a[i] = a[j]; a[j] = x }
			return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
		}
		$2 == t && $3 == s && $4 ~ /^[0-9.]+$/ && $5 ~ /^[0-9.]+$/ && $4 > 0 && $5 > 0 { k++; o[k] = $4; p[k] = $5; q[k] = $4 / $5 }
		END {
			label = sprintf("nd2 %s %s B", name, s)
			if (!k) { printf "bench: %s not measured: no repetition gave both figures (raw-rdma.txt)\n", label; exit 1 }
			mo = median(o, k); mp = median(p, k)
			lo = q[1]; hi = q[1]; for (i = 2; i <= k; i++) { if (q[i] < lo) lo = q[i]; if (q[i] > hi) hi = q[i] }
			printf "bench: %s ours=%.2f%s baseline=%.2f%s (%s) ratio=%.3f spread=%.3f..%.3f%s\n", label, mo, unit, mp, unit, base, mo / mp, lo, hi, \
				k < n ? sprintf(" (%d of %d repetitions: the others gave no figure)", k, n) : ""
		}' "$raw" || failed=1
	done
done
exit $failed
