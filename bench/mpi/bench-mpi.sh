#!/bin/sh
# make bench-mpi, inside the two Soft-RoCE guests (tests/vm/run --two, the
# same script on both; B only serves its sshd until A is done).  A runs
# the OSU micro-benchmarks osu_latency, osu_bw and osu_allreduce with two
# ranks, across the two guests and on guest A alone (shared memory: the
# guests need two vCPUs, NDSHIM_VM_SMP=2, or two polling ranks take turns
# at scheduler ticks):
#   - MS-MPI under ndshim: the Windows builds of the benchmarks
#     (--msmpi-osu DIR, default $NDSHIM_VM_BUILD/msmpi/osu, as `make msmpi`
#     builds them with tests/msmpi/build-osu, msmpi.dll beside them)
#     started by ndmpiexec with MS-MPI's defaults: ND across the guests,
#     shared memory on one.  MSMPI_DISABLE_SOCK=1 makes a socket fallback
#     an error, and each run's connectivity table
#     (MSMPI_CONNECTIVITY_TABLE=1, tests/msmpi/conntable) must show the
#     channel its placement claims ('@' ND across, '+' shared memory on
#     one): a run that shows another gives no figure;
#   - the same benchmarks built for Linux (bench/mpi/build-osu-linux) with
#     a native Linux MPI, in each of the configurations of --native (see
#     native_cmd below), the same sizes and iterations, interleaved with
#     MS-MPI's runs repetition by repetition.
# Every run records how many packets rxe0 sent during it (rdma statistic),
# so a figure says whether its MPI really used rxe.
# Prints `bench:` lines as make bench-vm does (bench/vm/perftest.sh's
# pt_summary): "ours=" is MS-MPI under ndshim, "baseline=" the native MPI,
# both the median over the repetitions that gave both, ratio=ours/baseline
# and the spread of the repetitions' ratios, then the issue's target for
# that figure, met or missed.  Without the MS-MPI side it says so loudly,
# prints the native figures alone (never a ratio) and exits 1.  Raw
# outputs go to $NDSHIM_VM_RESULTS/bench-mpi/ (raw.txt: the figures).
#
#   bench-mpi.sh [--reps N] [--native "ofi tcp"] [--lat-iters N] [--bw-iters N] [--coll-iters N]
#                [--msmpi-osu DIR] [--no-ofi-bw] [--benches "osu_latency osu_bw osu_allreduce"]
#                [--placements "two one"]
#   bench-mpi.sh --summarize DIR [same options]   (on the host: the bench:
#                lines again from a run's raw outputs, build/vm-results/bench-mpi)
# OSU 5.3's osu_latency and osu_bw always go up to 4 MiB (no -m), and over
# rxe under TCG the ofi configuration moved about 0.3 MB/s at 1 MiB with
# one vCPU per guest (osu_bw's windows of 64 messages would take hours);
# with two it moves 8-10 MB/s and its osu_bw takes some 4 minutes, and it
# is the only baseline over the same rxe devices, so it runs by default;
# --no-ofi-bw leaves it out.
set -u
NDSHIM_VM_PROJECT=${NDSHIM_VM_PROJECT:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$NDSHIM_VM_PROJECT/tests/vm/lib.sh"
. "$NDSHIM_VM_PROJECT/bench/vm/perftest.sh"

reps=1
natives="ofi tcp"
lat_iters=20
bw_iters=2
coll_iters=20
ofi_bw=1
summarize=
benches="osu_latency osu_bw osu_allreduce"
placements="two one"
msmpi_osu=${NDSHIM_VM_BUILD:-build}/msmpi/osu
while [ $# -gt 0 ]; do
	case $1 in
	--reps) reps=$2; shift 2 ;;
	--native) natives=$2; shift 2 ;;
	--lat-iters) lat_iters=$2; shift 2 ;;
	--bw-iters) bw_iters=$2; shift 2 ;;
	--coll-iters) coll_iters=$2; shift 2 ;;
	--msmpi-osu) msmpi_osu=$2; shift 2 ;;
	--no-ofi-bw) ofi_bw=; shift ;;
	--benches) benches=$2; shift 2 ;;
	--placements) placements=$2; shift 2 ;;
	--summarize) summarize=$2; shift 2 ;;
	*) echo "bench-mpi.sh: bad argument $1" >&2; exit 2 ;;
	esac
done

if [ -n "$summarize" ]; then
	out=$summarize
	ms_missing=
	ls "$out"/msmpi-*.txt > /dev/null 2>&1 || ms_missing="no MS-MPI run in $out"
else
	vm_sshd_up || exit 1
	if [ "$NDSHIM_VM_HOST" = B ]; then
		vm_wait_peer_done 7200
		exit 0
	fi
	vm_ssh_wait ndshim-b 300 || { echo "bench: mpi not measured: no ssh from A to B"; exit 1; }

	out=$NDSHIM_VM_RESULTS/bench-mpi
	rm -rf "$out"
	mkdir -p "$out"
	linux_osu=$NDSHIM_VM_BUILD/bench-mpi/openmpi
	msmpi_dll=$NDSHIM_VM_BUILD/msmpi/msmpi.dll

	# The MS-MPI side, or why it cannot run.
	ms_missing=
	if [ ! -r "$msmpi_dll" ]; then
		ms_missing="no $msmpi_dll (make msmpi builds it)"
	else
		for b in osu_latency osu_bw osu_allreduce msmpi; do
			case $b in msmpi) _f=$msmpi_osu/msmpi.dll ;; *) _f=$msmpi_osu/$b.exe ;; esac
			[ -r "$_f" ] || ms_missing="${ms_missing:+$ms_missing; }no $_f"
		done
	fi
	if [ -n "$ms_missing" ]; then
		echo "bench-mpi: ==================================================================="
		echo "bench-mpi: THE MS-MPI SIDE IS MISSING: $ms_missing."
		echo "bench-mpi: Only the native Linux MPI's figures follow; no ratio is printed."
		echo "bench-mpi: ==================================================================="
	fi
fi

rxe_sent() {
	rdma statistic show link rxe0/1 2>/dev/null | sed -n 's/.* sent_pkts \([0-9]*\).*/\1/p'
}

# native_cmd CONFIG PLACEMENT: the launcher command (without the program)
# of a native configuration, two ranks; PLACEMENT "two" (A and B) or "one"
# (A).  On one guest every configuration is Open MPI's shared memory
# (vader): the transports only differ between guests.
native_cmd() {
	_om="mpirun.openmpi --allow-run-as-root -np 2 --mca plm_rsh_agent ssh --bind-to none"
	if [ "$2" = one ]; then
		echo "$_om -H ndshim-a:2 --mca pml ob1 --mca btl self,vader"
		return
	fi
	case $1 in
	# Open MPI's openib BTL on rxe0, connections through rdma_cm (RoCE
	# has no other way), with the device's defaults (rxe is not in its
	# device table).
	# (Debian's Open MPI has no rdma_cm connection manager in openib,
	# which RoCE needs: "Invalid name: rdmacm"; kept to show it.)
	openib) echo "$_om -H ndshim-a,ndshim-b --mca pml ob1 --mca btl openib,self --mca btl_openib_allow_ib 1" \
		"--mca btl_openib_cpc_include rdmacm --mca btl_openib_if_include rxe0" \
		"--mca btl_openib_warn_no_device_params_found 0" ;;
	# Open MPI's ofi MTL over libfabric's verbs provider (rdma_cm
	# connections, RDM endpoints from ofi_rxm); FI_UNIVERSE_SIZE keeps
	# rxm's CQ within what rxe makes (max_cqe 32767).
	ofi) echo "$_om -H ndshim-a,ndshim-b --mca pml cm --mca mtl ofi -x FI_PROVIDER=verbs;ofi_rxm -x FI_UNIVERSE_SIZE=4" ;;
	# Open MPI over TCP on the same link.
	tcp) echo "$_om -H ndshim-a,ndshim-b --mca pml ob1 --mca btl tcp,self --mca btl_tcp_if_include eth0" ;;
	*) return 1 ;;
	esac
}

# The OSU arguments of one benchmark: the same for both sides.
osu_args() {
	case $1 in
	osu_latency) echo "-i $lat_iters -x $((lat_iters / 10 + 1))" ;;
	osu_bw) echo "-i $bw_iters -x $((bw_iters / 10 + 1))" ;;
	osu_allreduce) echo "-i $coll_iters -x $((coll_iters / 10 + 1)) -m 1048576" ;;
	esac
}

# run_native CONFIG PLACEMENT BENCH REP: one run, its table in a file.
run_native() {
	_f=$out/native-$1-$2-$3-$4.txt
	_cmd=$(native_cmd "$1" "$2") || return 1
	_s=$(rxe_sent)
	timeout 1200 $_cmd "$linux_osu/$3" $(osu_args "$3") > "$_f" 2>&1
	_rc=$?
	echo "# rxe0 sent_pkts +$(($(rxe_sent) - _s)) rc=$_rc" >> "$_f"
}

# run_msmpi PLACEMENT BENCH REP: one run, its table in a file, then
# whether its connectivity table shows the channel of its placement: a
# line "# channel ok" or "# channel BAD: why" (only ok runs give figures).
run_msmpi() {
	_f=$out/msmpi-$1-$2-$3.txt
	if [ "$1" = two ]; then
		_hosts="-hosts 2 ndshim-a 1 ndshim-b 1"
	else
		_hosts="-hosts 1 ndshim-a 2"
	fi
	_s=$(rxe_sent)
	timeout 1200 "$NDSHIM_VM_BUILD/ndmpiexec" $_hosts -env MSMPI_DISABLE_SOCK 1 \
		-env MSMPI_CONNECTIVITY_TABLE 1 "$msmpi_osu/$2.exe" $(osu_args "$2") > "$_f" 2>&1
	_rc=$?
	_pk=$(($(rxe_sent) - _s))
	vm_lf "$_f"
	# Both ranks on A: shared memory; across: ND (conntable wants '@'
	# for ranks on different nodes whatever SAME says).
	if _why=$("$NDSHIM_VM_PROJECT/tests/msmpi/conntable" "$_f" 2 all +); then
		_ch="ok"
	else
		_ch="BAD: $(echo "$_why" | tr '\n' ' ')"
	fi
	echo "# rxe0 sent_pkts +$_pk rc=$_rc" >> "$_f"
	echo "# channel $_ch" >> "$_f"
}

if [ -z "$summarize" ]; then
	for rep in $(seq 1 "$reps"); do
		for placement in $placements; do
			for b in $benches; do
				for n in $natives; do
					[ "$placement" = one ] && [ "$n" != "${natives%% *}" ] && continue
					[ "$placement" = two ] && [ "$n" = ofi ] && [ "$b" = osu_bw ] && [ -z "$ofi_bw" ] && continue
					run_native "$n" "$placement" "$b" "$rep"
				done
				[ -n "$ms_missing" ] || run_msmpi "$placement" "$b" "$rep"
			done
		done
	done
	vm_peer_done
fi

# value FILE SIZE: the figure for SIZE in an OSU table, or nothing.
value() {
	awk -v s="$2" '!/^#/ && NF >= 2 && $1 == s && $2 ~ /^[0-9.]+$/ { print $2; exit }' "$1" 2>/dev/null
}
# The packets rxe0 sent in a configuration's runs (its evidence).
rxe_evidence() {
	cat "$@" 2>/dev/null | sed -n 's/^# rxe0 sent_pkts +\([0-9-]*\).*/\1/p' | awk '{ s += $1 } END { print s + 0 }'
}
# why_none FILE: why a run gave no figure (for raw.txt's comment).
why_none() {
	if [ ! -e "$1" ]; then
		echo "did not run"
	elif grep -q '^# channel BAD' "$1"; then
		sed -n 's/^# channel BAD: */connectivity table: /p' "$1"
	else
		echo "no row in its table ($(sed -n 's/^# rxe0 sent_pkts +[0-9-]* //p' "$1"), $(basename "$1"))"
	fi
}
# target PLACEMENT BENCH RATIO: the issue's target for the figure, met or
# missed: latency (osu_latency, osu_allreduce) within 1.1x of the Linux MPI
# and bandwidth at least 0.9x across the guests; within 1.2x on one guest
# (shared memory).
target() {
	awk -v p="$1" -v b="$2" -v r="$3" 'BEGIN {
		lim = p == "one" ? 1.2 : 1.1
		if (b == "osu_bw") { lim = p == "one" ? 1 / 1.2 : 0.9; ok = r >= lim; op = ">=" }
		else { ok = r <= lim; op = "<=" }
		printf "target ratio %s %.3f: %s\n", op, lim, ok ? "met" : "MISSED"
	}'
}

raw=$out/raw.txt
: > "$raw"
status=0
[ -z "$ms_missing" ] || status=1
for placement in $placements; do
	case $placement in
	two) where="across the guests" ms_channel="ND" ;;
	one) where="on one guest (shared memory)" ms_channel="shared memory" ;;
	esac
	for b in $benches; do
		case $b in
		osu_latency) sizes="8 1024 65536 1048576" unit=us ;;
		osu_bw) sizes="1024 65536 1048576" unit=MB/s ;;
		osu_allreduce) sizes="8 1024 65536" unit=us ;;
		esac
		if [ -z "$ms_missing" ]; then
			mfiles=$(ls "$out"/msmpi-$placement-$b-*.txt 2>/dev/null)
			mok=$(grep -l '^# channel ok' $mfiles /dev/null 2>/dev/null | wc -l)
			echo "bench-mpi: MS-MPI, $b $where: $ms_channel in $mok of $(echo $mfiles | wc -w) runs' connectivity tables, rxe0 sent $(rxe_evidence $mfiles) packets in its runs"
		fi
		for n in $natives; do
			[ "$placement" = one ] && [ "$n" != "${natives%% *}" ] && continue
			label="Open MPI $n"
			[ "$placement" = one ] && label="Open MPI vader"
			if [ "$placement" = two ] && [ "$n" = ofi ] && [ "$b" = osu_bw ] && [ -z "$ofi_bw" ]; then
				echo "bench: mpi $b $where (native ofi) not measured: left out (--no-ofi-bw)"
				continue
			fi
			nfiles=$(ls "$out"/native-"$n"-$placement-$b-*.txt 2>/dev/null)
			echo "bench-mpi: $label, $b $where: rxe0 sent $(rxe_evidence $nfiles) packets in its runs"
			key=$b-$placement-$n
			for s in $sizes; do
				name="mpi $b ${s}B $where"
				if [ -n "$ms_missing" ]; then
					nat=$(for r in $(seq 1 "$reps"); do value "$out/native-$n-$placement-$b-$r.txt" "$s"; done | sort -g | sed -n 1p)
					echo "bench: $name not measured: MS-MPI side missing; native baseline=${nat:-none}$unit ($label, the fastest of its runs)"
					continue
				fi
				for r in $(seq 1 "$reps"); do
					mf=$out/msmpi-$placement-$b-$r.txt nf=$out/native-$n-$placement-$b-$r.txt
					o=
					grep -q '^# channel ok' "$mf" 2>/dev/null && o=$(value "$mf" "$s")
					p=$(value "$nf" "$s")
					why=
					[ -n "$o" ] || why="MS-MPI: $(why_none "$mf")"
					[ -n "$p" ] || why="${why:+$why; }native: $(why_none "$nf")"
					echo "$r $key $s ${o:-x} ${p:-x}${why:+ # $why}" >> "$raw"
				done
				line=$(pt_summary "$raw" "$key" "$s" "$name" "$unit" "$label" "$reps") || { echo "$line"; status=1; continue; }
				ratio=$(echo "$line" | sed -n 's/.* ratio=\([0-9.]*\) .*/\1/p')
				echo "$line; $(target "$placement" "$b" "$ratio")"
			done
		done
	done
done
rm -rf "$vm_tmp"
exit $status
