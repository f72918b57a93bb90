# MS-MPI jobs over NetworkDirect: the checking programs of tests/msmpi/progs
# (msmpi.dll built from MS-MPI's source, `make msmpi`) under ndrun, ranks
# started by MPICH's hydra, MS-MPI's ND channel on nd2prov.dll and rxe0.
# MSMPI_CONNECTIVITY_TABLE=1 makes rank 0 print which channel each pair
# used; every pair must have the one expected, so a silent fall back to
# MS-MPI's socket channel fails the check.
#  - One guest (hydra's fork bootstrap): shared memory off
#    (MSMPI_DISABLE_SHM=1), so ranks on one host talk ND: 2 ranks of
#    mpi_p2p (every byte checked, 0 bytes to 4 MiB) and 4 of mpi_pairs
#    (every pair exchanges checked data, so every pair must show ND).
#    MPI_Abort over ND ends the job with its code, and a rank SIGKILLed
#    while connected over ND ends it with status 9; neither leaves anything.
#  - Two guests (vm_sshd_up, vm_slurm_up): 2+2 ranks, ranks 0-1 on A and
#    2-3 on B: through hydra's ssh bootstrap, mpi_pairs with MS-MPI's
#    defaults (shared memory within a guest, ND across) and mpi_p2p with
#    shared memory off (ND everywhere); mpi_pairs through srun --mpi=pmi2
#    and through ndmpiexec -hosts; Ctrl-C to an ndmpiexec job whose ranks
#    hold their connections across the guests.  B serves until A is done;
#    then A runs 4 ranks of mpi_pairs alone over shared memory (MS-MPI's
#    defaults: every pair must show shared memory).  That job is here, not
#    on the one-guest boot, because that boot is check-vm's longest and
#    this one has the time.
# (A lost node under an MS-MPI job: make check-cluster, tests/cluster/rig.sh,
# where B powers off.)
# Sourced by the rig's batched boots after lib.sh; outputs are kept in
# $NDSHIM_VM_RESULTS/msmpind/.  Needs `make msmpi` and the programs (make
# check-vm builds them); without them each check fails saying so.
. "$NDSHIM_VM_PROJECT/tests/msmpi/guest.sh"
mn_dir=$mpi_guest_dir
mn_out=$NDSHIM_VM_RESULTS/msmpind
mn_tag=$NDSHIM_VM_HOSTS-$NDSHIM_VM_HOST
mkdir -p "$mn_out"

# mn_table FILE N PAIRS SAME: tests/msmpi/conntable (rank 0's table in
# FILE: N ranks, ND across nodes, SAME within one, PAIRS=all connected).
mn_table() {
	"$NDSHIM_VM_PROJECT/tests/msmpi/conntable" "$@"
}

# mn_job NAME N PAIRS SAME LAUNCHER...: the job (mpiexec.hydra, srun or
# ndmpiexec and their arguments) exits 0, each of the N ranks prints its
# line once, and the table is mn_table's.  PMI-1 under hydra (its PMI-2 has
# no abort); Slurm's pmi2 plugin makes ndrun speak PMI-2 whatever this says.
mn_job() {
	_o=$mn_out/$1-$mn_tag.txt _n=$2 _pairs=$3 _same=$4
	shift 4
	_st=0
	(cd "$mn_dir" && MSMPI_CONNECTIVITY_TABLE=1 NDSHIM_PMI_VERSION=1 timeout -k 30 600 "$@") > "$_o" 2>&1 || _st=$?
	vm_lf "$_o"
	if [ $_st != 0 ]; then
		echo "exit status $_st:"
		cat "$_o"
		return 1
	fi
	_got=$(grep -c "rank [0-9]* of $_n\\b" "$_o")
	if [ "$_got" != "$_n" ]; then
		echo "$_got of $_n ranks reported:"
		cat "$_o"
		return 1
	fi
	mn_table "$_o" "$_n" "$_pairs" "$_same" || { cat "$_o"; return 1; }
}

# MPI_Abort with the ranks connected over ND: the job ends with its exit
# code (7, PMI-1's abort through hydra) and no rank, ndrun or hydra process
# is left (cl_none_left, tests/cluster/lib.sh).
mn_abort() {
	_o=$mn_out/abort-$mn_tag.txt
	_st=0
	(cd "$mn_dir" && MSMPI_DISABLE_SHM=1 NDSHIM_PMI_VERSION=1 timeout -k 30 600 \
		mpiexec.hydra -n 2 "$mn_ndrun" mpi_abort.exe) > "$_o" 2>&1 || _st=$?
	vm_lf "$_o"
	if [ $_st != 7 ] || grep -q 'after abort' "$_o"; then
		echo "exit status $_st, want 7 and no 'after abort':"
		cat "$_o"
		return 1
	fi
	cl_none_left
}

# A rank SIGKILLed while the ranks are connected over ND (mpi_pairs hold:
# rank 1 sleeps, rank 0 waits for it in a barrier): hydra ends the job with
# the signal's number as its status, and nothing is left.
mn_kill() {
	_o=$mn_out/kill-$mn_tag.txt
	(cd "$mn_dir" && MSMPI_DISABLE_SHM=1 NDSHIM_PMI_VERSION=1 exec timeout -k 30 600 \
		mpiexec.hydra -n 2 "$mn_ndrun" mpi_pairs.exe hold) > "$_o" 2>&1 &
	_job=$!
	_victim=
	_i=0
	until [ -n "$_victim" ] && grep -q 'rank 0 pid' "$_o" || [ $_i -ge 1500 ]; do
		_victim=$(tr -d '\r' < "$_o" | sed -n 's/^pairs: rank 1 pid \([0-9]*\) holding$/\1/p')
		sleep 0.2
		_i=$((_i + 1))
	done
	if [ -z "$_victim" ]; then
		kill -TERM $_job 2> /dev/null
		wait $_job
		echo "rank 1 never held:"
		cat "$_o"
		return 1
	fi
	kill -KILL "$_victim"
	_mn_status=0
	wait $_job || _mn_status=$?
	vm_lf "$_o"
	if [ $_mn_status != 9 ] || ! grep -q 'BAD TERMINATION' "$_o"; then
		echo "exit status $_mn_status, want 9 and hydra's report:"
		cat "$_o"
		return 1
	fi
	cl_none_left
}

# Ctrl-C to an ndmpiexec job (hydra over ssh, 2+2 ranks of mpi_pairs
# hold: every pair has exchanged its data, ND across the guests, and the
# ranks wait in a barrier): SIGINT to the job's process group, as a
# terminal sends it, ends the job with status 130 (128 + SIGINT), and
# nothing is left on either guest.
mn_ctrl_c() {
	_o=$mn_out/ctrl-c-$mn_tag.txt
	start_job "$_o" hydra msmpi || return 1
	kill -INT -$job
	_mn_status=0
	wait_job 300 || _mn_status=$?
	vm_lf "$_o"
	if [ $_mn_status != 130 ]; then
		echo "exit status $_mn_status (255: still running 300 s after the SIGINT), want 130:"
		cat "$_o"
		return 1
	fi
	cl_none_left
}

mn_ndrun=$NDSHIM_VM_BUILD/ndrun
. "$NDSHIM_VM_PROJECT/tests/cluster/lib.sh"
if [ "${NDSHIM_VM_HOSTS:-1}" = 1 ]; then
	if vm_check "msmpind: msmpi.dll and the MPI programs" mpi_guest_setup; then
		export MSMPI_DISABLE_SHM=1
		vm_check "msmpind: hydra -n 2 mpi_p2p, shared memory off: data checked, ND between the ranks" \
			mn_job p2p-2 2 all @ mpiexec.hydra -n 2 "$mn_ndrun" mpi_p2p.exe
		vm_check "msmpind: hydra -n 4 mpi_pairs, shared memory off: data checked, ND for every pair" \
			mn_job pairs-4 4 all @ mpiexec.hydra -n 4 "$mn_ndrun" mpi_pairs.exe
		unset MSMPI_DISABLE_SHM
		vm_check "msmpind: hydra -n 2 mpi_abort over ND: the job exits 7, nothing left" mn_abort
		vm_check "msmpind: hydra -n 2, a rank on ND SIGKILLed: the job exits 9, nothing left" mn_kill
	fi
else
	vm_check "msmpind: msmpi.dll and the MPI programs" mpi_guest_setup
	vm_check "msmpind: sshd up" vm_sshd_up
	vm_check "msmpind: Slurm up on both guests" vm_slurm_up
	if [ "$NDSHIM_VM_HOST" = A ]; then
		vm_check "msmpind: ssh from A to B" vm_ssh_wait ndshim-b 300
		vm_check "msmpind: hydra over ssh, 2+2 mpi_pairs: data checked, shared memory within a guest, ND across" \
			mn_job pairs-2x2 4 all + mpiexec.hydra -bootstrap ssh -n 4 -hosts ndshim-a:2,ndshim-b:2 \
			"$mn_ndrun" mpi_pairs.exe
		vm_check "msmpind: hydra over ssh, 2+2 mpi_p2p, shared memory off: data checked, ND between every neighbour" \
			mn_job p2p-2x2 4 some @ mpiexec.hydra -bootstrap ssh -n 4 -hosts ndshim-a:2,ndshim-b:2 -genv MSMPI_DISABLE_SHM 1 \
			"$mn_ndrun" mpi_p2p.exe
		vm_check "msmpind: srun -N2 -n4 --mpi=pmi2, 2+2 mpi_pairs: data checked, shared memory within a guest, ND across" \
			mn_job pairs-srun 4 all + srun -N2 -n4 --ntasks-per-node=2 --mpi=pmi2 "$mn_ndrun" mpi_pairs.exe
		vm_check "msmpind: ndmpiexec -hosts 2 ndshim-a 2 ndshim-b 2 (hydra), mpi_pairs: data checked, shared memory within a guest, ND across" \
			mn_job pairs-ndmpiexec 4 all + "$NDSHIM_VM_BUILD/ndmpiexec" -hosts 2 ndshim-a 2 ndshim-b 2 mpi_pairs.exe
		vm_check "msmpind: ndmpiexec -hosts (hydra), 2+2 mpi_pairs connected across the guests: Ctrl-C -> status 130, nothing left" \
			mn_ctrl_c
		vm_peer_done
		vm_check "msmpind: hydra -n 4 mpi_pairs on A alone, MS-MPI's defaults: data checked, shared memory for every pair" \
			mn_job pairs-4-shm 4 all + mpiexec.hydra -n 4 "$mn_ndrun" mpi_pairs.exe
	else
		vm_check "msmpind: B served A's MS-MPI jobs" vm_wait_peer_done 1500
	fi
	vm_cluster_down
fi
