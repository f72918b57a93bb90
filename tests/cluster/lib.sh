# Checks shared by the cluster rig's guest scripts (tests/cluster/*.sh,
# tests/vm/suites/cluster.sh), sourced after tests/vm/lib.sh.  The ranks
# are pmienv.exe under ndrun or its Linux twin pmienv.sh, which print one
# line each: "pmienv rank=R size=S host=H cwd=D pm=LIST [NAME=VALUE...]".

cl_ndrun=$NDSHIM_VM_BUILD/ndrun
cl_exe=$NDSHIM_VM_BUILD/cluster/pmienv.exe
cl_sh=$NDSHIM_VM_PROJECT/tests/cluster/pmienv.sh
cl_mpx=$NDSHIM_VM_BUILD/ndmpiexec
# What one job may take under TCG on a busy host before a check calls it
# hung (ndrun's start-up alone takes seconds there).
cl_job_s=${NDSHIM_CLUSTER_JOB_S:-400}

# cl_ranks FILE N "HOST HOST ..." [LABELS]: FILE holds exactly N pmienv
# lines, ranks 0..N-1 once each, every one of size N, each started by a
# process manager (pm= not none), on the hosts listed (sorted, one per
# rank).  LABELS=1: every line starts with "[R]" and R is its rank.
cl_ranks() {
	_f=$1 _n=$2 _hosts=$3 _labels=${4:-0}
	# pmienv.exe's lines end with text mode's \r\n (docs/crt-text-mode.md).
	sed -i 's/\r$//' "$_f"
	_got=$(grep -c 'pmienv rank=' "$_f")
	if [ "$_got" != "$_n" ]; then
		echo "want $_n pmienv lines, got $_got:"
		cat "$_f"
		return 1
	fi
	_ranks=$(sed -n 's/.*pmienv rank=\([^ ]*\) .*/\1/p' "$_f" | sort -n | tr '\n' ' ')
	_want=$(seq 0 $((_n - 1)) | tr '\n' ' ')
	[ "$_ranks" = "$_want" ] || { echo "ranks '$_ranks', want '$_want'"; cat "$_f"; return 1; }
	if grep 'pmienv rank=' "$_f" | grep -v " size=$_n " >/dev/null; then
		echo "a rank does not have size=$_n:"
		cat "$_f"
		return 1
	fi
	if grep 'pmienv rank=' "$_f" | grep ' pm=none' >/dev/null; then
		echo "a rank got no PMI connection (pm=none):"
		cat "$_f"
		return 1
	fi
	_h=$(sed -n 's/.*pmienv .* host=\([^ ]*\) .*/\1/p' "$_f" | tr 'A-Z' 'a-z' | sort | tr '\n' ' ')
	[ "$_h" = "$_hosts " ] || { echo "hosts '$_h', want '$_hosts '"; cat "$_f"; return 1; }
	if [ "$_labels" = 1 ] && grep 'pmienv rank=' "$_f" | grep -v '^\[\([0-9]*\)\]pmienv rank=\1 ' >/dev/null; then
		echo "a line without its [rank] label:"
		cat "$_f"
		return 1
	fi
	return 0
}

# cl_field FILE RANK NAME: the value of NAME= on RANK's line.
cl_field() {
	sed -n "s/.*pmienv rank=$2 .*\\b$3=\\([^ ]*\\).*/\\1/p" "$1"
}

# cl_left WHERE: what of a job is still running on this guest (WHERE=here)
# or on the other (WHERE=peer): ndrun, pmienv, the rank wrappers, srun,
# hydra and its proxies.  Prints them; true when there are none.
cl_left() {
	_ps='ps -eo pid,args | grep -E "[n]drun |[p]mienv|[n]dmpiexec|[h]ydra_pmi_proxy|[m]piexec.hydra|[s]run " | grep -v " ps -eo" || :'
	if [ "$1" = peer ]; then
		_out=$(ssh "$cl_peer_name" "$_ps") || { echo "cannot ssh to $cl_peer_name"; return 1; }
	else
		_out=$(sh -c "$_ps")
	fi
	[ -z "$_out" ] && return 0
	echo "still running on $1:"
	echo "$_out"
	return 1
}

# cl_none_left: nothing of a job on either guest, given a few seconds to
# go (a launcher's clean-up takes a moment under TCG).
cl_none_left() {
	vm_retry 60 cl_left here >/dev/null 2>&1 || { cl_left here; return 1; }
	[ "${NDSHIM_VM_HOSTS:-1}" = 1 ] && return 0
	vm_retry 60 cl_left peer >/dev/null 2>&1 || { cl_left peer; return 1; }
}

# start_job FILE LAUNCHER RANKS: an ndmpiexec job of four ranks in the
# background, in a process group of its own (as a shell's foreground job
# is), once all four are under way.  RANKS is pmienv (pmienv.exe, each
# rank sleeping once it has printed its line) or msmpi (MS-MPI's
# `mpi_pairs hold`, tests/msmpi/guest.sh sourced: every pair has
# exchanged its data, ND across the guests, and the ranks wait in a
# barrier for rank 1, which sleeps).  The job's pid is $job.  With
# srun it runs inside an allocation made beforehand (salloc --no-shell,
# then SLURM_JOB_ID, as in an salloc shell), so that a signal to the job's
# group reaches ndmpiexec and srun as a terminal's Ctrl-C would (salloc
# itself would put its command in a group of its own and answer a SIGINT
# by revoking the allocation); stop_alloc ends the allocation.
alloc=
pmienv_started() { # FILE N
	[ "$(grep -c "pmienv rank=" "$1")" = "$2" ]
}
start_job() {
	_f=$1 _l=$2
	case $3 in
	pmienv) set -- "$cl_exe" --sleep 600; _ready=pmienv_started ;;
	msmpi) set -- "$mpi_guest_dir/mpi_pairs.exe" hold; _ready=mpi_guest_holding ;;
	esac
	if [ "$_l" = srun ]; then
		alloc=$(timeout -k 30 $cl_job_s salloc -N2 -n4 --ntasks-per-node=2 --no-shell 2>&1 |
			sed -n 's/.*Granted job allocation \([0-9]*\).*/\1/p')
		[ -n "$alloc" ] || { echo "no allocation"; squeue; return 1; }
		SLURM_JOB_ID=$alloc setsid "$cl_mpx" -n 4 "$@" > "$_f" 2>&1 &
	else
		setsid "$cl_mpx" -hosts 2 ndshim-a 2 ndshim-b 2 "$@" > "$_f" 2>&1 &
	fi
	job=$!
	vm_retry $cl_job_s $_ready "$_f" 4 ||
		{ echo "the four ranks did not start:"; cat "$_f"; kill -KILL -$job; return 1; }
}

stop_alloc() {
	[ -z "$alloc" ] || scancel "$alloc"
	alloc=
}

# wait_job SECONDS: the job's status, or 255 if it was still running.
wait_job() {
	_end=$(($(date +%s) + $1))
	while kill -0 $job 2>/dev/null && [ "$(date +%s)" -lt $_end ]; do sleep 1; done
	if kill -0 $job 2>/dev/null; then
		kill -KILL -$job
		wait $job
		return 255
	fi
	wait $job
}

case ${NDSHIM_VM_HOST:-A} in
A) cl_peer_name=ndshim-b ;;
*) cl_peer_name=ndshim-a ;;
esac
