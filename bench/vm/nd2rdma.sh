#!/bin/sh
# make bench-vm, inside one Soft-RoCE guest (tests/vm/run): samples/ndrdma
# under ndrun against perftest over rdma_cm (-R), size by size, the two
# programs interleaved, the same message size, iteration count and depth:
#
#   write-bw            ndrdma -t write -m bw -d D   ib_write_bw -R -t D -Q 1
#   read-bw             ndrdma -t read -m bw -d D    ib_read_bw -R -t D -o D -Q 1
#   write-lat           ndrdma -t write -m lat       ib_write_lat -R
#   read-lat            ndrdma -t read -m lat        ib_read_lat -R
#   read-lat-blocking   ndrdma -t read -m lat -b     ib_read_lat -R -e
#
# -Q 1: every perftest request completes, as every ND2 request does (at
# small sizes perftest would otherwise signal one in D and drain its
# pipeline each time).  Where the programs run: bench/vm/perftest.sh
# (pt_cpus; NDSHIM_VM_SMP=3 gives servers and clients a vCPU each).
# Bandwidth: the tables' BW average (MB/sec, 2^20 bytes, first post to
# last completion); latency: t_typical (ib_write_lat and ndrdma's write
# ping-pong halve the round trip, the reads do not).  One figure per size
# and test: the median over the repetitions; a warm-up pair of each
# program runs first and is not counted.  ndrdma checks every transfer
# between its timed rounds; perftest checks nothing.  A run that gives no
# figure is reported with its reason, in its repetition's line and in the
# bench: line, and is left out of the median.
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

. "$(dirname "$0")/perftest.sh"
failed=0
if [ -n "$summarize" ]; then
	raw=$summarize
else
	b=$NDSHIM_VM_BUILD
	addr=$NDSHIM_VM_ADDR
	out=$NDSHIM_VM_RESULTS/bench-vm
	mkdir -p "$out"
	raw=$out/raw-rdma.txt
	: > "$raw"
	port=21000

	pt_cpus
	for t in ib_write_bw ib_read_bw ib_write_lat ib_read_lat taskset stdbuf; do
		command -v $t > /dev/null || { echo "bench-vm: cannot measure: $t is not installed"; exit 1; }
	done

	# TEST -> ndrdma's arguments, perftest's program and arguments, and the
	# columns of the figure in each table.
	setup_test() { # TEST
		nd_args= pt_args= srv_cpu=$poll_srv cli_cpu=$poll_cli
		case $1 in
		write-bw) nd_args="-t write -m bw -d $depth" pt=ib_write_bw pt_args="-t $depth -Q 1" nd_col=3 pt_col=4 n=$bw_iters ;;
		read-bw) nd_args="-t read -m bw -d $depth" pt=ib_read_bw pt_args="-t $depth -o $depth -Q 1" nd_col=3 pt_col=4 n=$bw_iters ;;
		write-lat) nd_args="-t write -m lat" pt=ib_write_lat nd_col=5 pt_col=5 n=$iters ;;
		read-lat) nd_args="-t read -m lat" pt=ib_read_lat nd_col=5 pt_col=5 n=$iters ;;
		read-lat-blocking) nd_args="-t read -m lat -b" pt=ib_read_lat pt_args=-e nd_col=5 pt_col=5 n=$iters
			srv_cpu=$block_srv cli_cpu=$block_cli ;;
		*) echo "bench-vm: no test $1" >&2; return 1 ;;
		esac
	}

	# One ndrdma pair at one size: o is its figure, or empty and o_why
	# says why.
	nd_run() { # SIZE
		port=$((port + 1))
		o='' o_why='' o_min=''
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
			o_why="ndrdma failed (client $_c, server $_w): $(grep -v '^ *-*$' "$out/rcli.txt" | tail -n 1)"
			return 1
		fi
		pt_column "$out/rcli.txt" "$1" $nd_col || { o_why="ndrdma: $pt_why"; return 1; }
		o=$pt_val
		[ $nd_col != 5 ] || ! pt_column "$out/rcli.txt" "$1" 3 || o_min=$pt_val
	}

	# One perftest pair at one size: p, or p_why.
	pt_run() { # SIZE
		port=$((port + 1))
		p='' p_why='' p_min=''
		# An inf from perftest's failed CPU-frequency estimate: again
		# (bench/vm/nd2lat.sh, ib_run).
		for _t in 1 2 3; do
			# shellcheck disable=SC2086
			if ! pt_pair "$out/pt" $port "$srv_cpu" "$cli_cpu" $pt -s "$1" -n "$n" $pt_args; then
				echo "bench-vm: $pt $pt_args at $1 B: $pt_why" >&2
				sed 's/^/    | /' "$out/pt.cli" "$out/pt.srv" >&2
				p_why=$pt_why
				return 1
			fi
			pt_column "$out/pt.cli" "$1" $pt_col && break
			p_why="$pt $pt_args: $pt_why (run $_t times)"
			case $pt_why in *Correlation*) ;; *) return 1 ;; esac
			[ $_t = 3 ] && return 1
			echo "bench-vm: $pt $pt_args at $1 B: $pt_why; again" >&2
			port=$((port + 1))
		done
		p=$pt_val p_why=''
		[ $pt_col != 5 ] || ! pt_column "$out/pt.cli" "$1" 3 || p_min=$pt_val
	}

	# Warm-up: page cache, rxe's first QPs, ndrun's first load; not counted.
	setup_test read-lat && n=5 && nd_run 2 && pt_run 2 ||
		echo "bench-vm: the warm-up pair failed (not counted): $o_why$p_why"

	r=1
	while [ $r -le "$reps" ]; do
		for t in $tests; do
			setup_test "$t" || { failed=1; continue; }
			for s in $(sizes_of "$t"); do
				# Alternate which program goes first.
				if [ $((r % 2)) = 1 ]; then
					nd_run "$s"
					pt_run "$s"
				else
					pt_run "$s"
					nd_run "$s"
				fi
				why="$o_why${o_why:+${p_why:+; }}$p_why"
				echo "$r $t $s ${o:-x} ${p:-x}${why:+ # $why}" >> "$raw"
				case $t in *-lat) echo "$r $t-min $s ${o_min:-x} ${p_min:-x}${why:+ # $why}" >> "$raw" ;; esac
				echo "bench-vm: repetition $r $t $s B: ndrdma ${o:-missing ($o_why)}, perftest ${p:-missing ($p_why)}"
			done
		done
		r=$((r + 1))
	done
fi

# Medians over the repetitions (bench/vm/perftest.sh, pt_summary).
for t in $tests; do
	case $t in
	write-bw) base="ib_write_bw -R -Q 1" unit=MB/s name="RDMA Write bandwidth" ;;
	read-bw) base="ib_read_bw -R -Q 1" unit=MB/s name="RDMA Read bandwidth" ;;
	write-lat) base="ib_write_lat -R" unit=us name="RDMA Write latency" ;;
	read-lat) base="ib_read_lat -R" unit=us name="RDMA Read latency" ;;
	read-lat-blocking) base="ib_read_lat -R -e" unit=us name="RDMA Read latency, blocking" ;;
	*) continue ;;
	esac
	for s in $(sizes_of "$t"); do
		pt_summary "$raw" "$t" "$s" "nd2 $name $s B" $unit "$base" "$reps" || failed=1
		# The fastest transfer of each run too (nd2lat.sh says why).
		case $t in *-lat)
			pt_summary "$raw" "$t-min" "$s" "nd2 $name, fastest transfer, $s B" $unit "$base, t_min" "$reps" ;;
		esac
	done
done
exit $failed
