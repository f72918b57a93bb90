# The rig as a small cluster, the fast part (sourced by the self-tests, see
# run_suites in tests/vm/selftest/common.sh; `make check-cluster` has the
# rest, tests/cluster/rig.sh).  One guest: a one-node Slurm, srun and
# ndmpiexec (hydra on this machine) each starting two pmienv.exe ranks
# under ndrun.  Two guests: sshd and Slurm on both, srun -N2 -n4 --ntasks-per-node=2 across
# them, and an ndmpiexec job over ssh whose rank 1 exits 3: the job ends
# with status 3 and nothing is left on either guest.  B serves until A is
# done.
. "$NDSHIM_VM_PROJECT/tests/cluster/lib.sh"

cl_srun_two() {
	# srun's own failure shows what it said (exit 126 came with nothing).
	timeout -k 30 $cl_job_s srun -N2 -n4 --ntasks-per-node=2 --mpi=pmi2 "$cl_ndrun" "$cl_exe" > "$vm_tmp/cl-srun" 2>&1 ||
		{ _cl_st=$?; cat "$vm_tmp/cl-srun"; return $_cl_st; }
	cl_ranks "$vm_tmp/cl-srun" 4 "ndshim-a ndshim-a ndshim-b ndshim-b"
}
cl_mpx_fail() {
	_jrc=0
	timeout -k 30 $cl_job_s "$cl_mpx" -hosts 2 ndshim-a 1 ndshim-b 1 "$cl_exe" --exit-rank 1 3 --sleep 600 \
		> "$vm_tmp/cl-fail" 2>&1 || _jrc=$?
		vm_lf "$vm_tmp/cl-fail"
	[ $_jrc = 3 ] && grep -q 'ndmpiexec: rank 1 on ndshim-b exited with code 3: ending the job' "$vm_tmp/cl-fail" ||
		{ echo "exit status $_jrc, want 3 and the report"; cat "$vm_tmp/cl-fail"; return 1; }
	cl_none_left
}

if [ "${NDSHIM_VM_HOSTS:-1}" = 2 ]; then
	vm_check "cluster: sshd up" vm_sshd_up
	vm_check "cluster: Slurm up on both guests" vm_slurm_up
	if [ "$NDSHIM_VM_HOST" = A ]; then
		vm_check "cluster: ssh from A to B" vm_ssh_wait ndshim-b 300
		vm_check "cluster: srun -N2 -n4 --ntasks-per-node=2 --mpi=pmi2 ndrun pmienv.exe: ranks 0-3 of 4, 2+2" cl_srun_two
		vm_check "cluster: ndmpiexec -hosts (hydra over ssh): rank 1 exits 3 -> status 3, nothing left" cl_mpx_fail
		vm_peer_done
	else
		vm_check "cluster: B served A's cluster checks" vm_wait_peer_done 1500
	fi
	# The suites after this one run on quiet guests.
	vm_cluster_down
fi
