#!/bin/sh
# `make check-cluster`: the two Soft-RoCE guests as a small cluster (the
# same script on both, tests/vm/run --two).  Both bring up sshd and Slurm
# (tests/vm/lib.sh); B then only serves, until A is done.  A starts ranks
# across both guests with srun, with mpiexec.hydra (ssh bootstrap, and
# Slurm bootstrap inside an allocation) and with ndmpiexec, each running a
# Linux program (pmienv.sh) and a Windows one under ndrun (pmienv.exe),
# and checks what every rank was given; then how ndmpiexec ends jobs: a
# rank's exit code, a rank killed with SIGKILL, Ctrl-C, -timeout and a
# lost node, each leaving nothing running on either guest.  Ctrl-C through
# srun and the lost node run an MS-MPI program (tests/msmpi/guest.sh)
# whose ranks are connected across the guests.  The last check (a lost
# node) powers B off under a running job.
set -u
. "$NDSHIM_VM_PROJECT/tests/vm/lib.sh"
. "$NDSHIM_VM_PROJECT/tests/cluster/lib.sh"
. "$NDSHIM_VM_PROJECT/tests/msmpi/guest.sh"
o=$vm_tmp

vm_check "msmpi.dll and the MPI programs" mpi_guest_setup
vm_check "sshd up" vm_sshd_up
vm_check "Slurm up: munged, slurmd (and slurmctld on A), every node idle" vm_slurm_up
if [ "$NDSHIM_VM_HOST" = B ]; then
	vm_check "served A until it was done" vm_wait_peer_done 3600
	vm_finish
fi

# rig.sh --lost-node (on A): only the setup and the lost-node check.
only=${1:-}
if [ "$only" != --lost-node ]; then
both="ndshim-a ndshim-a ndshim-b ndshim-b"

ssh_b() { [ "$(ssh ndshim-b uname -n)" = ndshim-b ]; }
vm_check "ssh from A to B by name, no prompt" vm_ssh_wait ndshim-b 300
vm_check "ssh runs a command on B" ssh_b

# ---- srun -------------------------------------------------------------
srun_hostname() {
	timeout -k 30 $cl_job_s srun -N2 -n4 --ntasks-per-node=2 uname -n > $o/srun-hostname 2>&1 &&
		[ "$(sort $o/srun-hostname | tr '\n' ' ')" = "$both " ] || { cat $o/srun-hostname; return 1; }
}
vm_check "srun -N2 -n4 --ntasks-per-node=2 uname -n: two ranks on each guest" srun_hostname

srun_linux() {
	timeout -k 30 $cl_job_s srun -N2 -n4 --ntasks-per-node=2 --mpi=pmi2 "$cl_sh" > $o/srun-linux 2>&1 && cl_ranks $o/srun-linux 4 "$both"
}
vm_check "srun --mpi=pmi2, Linux program: ranks 0-3 of 4 with PMI, 2+2" srun_linux

srun_windows() {
	timeout -k 30 $cl_job_s srun -N2 -n4 --ntasks-per-node=2 --mpi=pmi2 "$cl_ndrun" "$cl_exe" > $o/srun-win 2>&1 &&
		cl_ranks $o/srun-win 4 "$both"
}
vm_check "srun --mpi=pmi2 ndrun pmienv.exe: ranks 0-3 of 4 with PMI, 2+2" srun_windows

# ---- hydra ------------------------------------------------------------
hydra_ssh() { # PROGRAM...
	timeout -k 30 $cl_job_s mpiexec.hydra -bootstrap ssh -n 4 -hosts ndshim-a:2,ndshim-b:2 "$@" > $o/hydra-ssh 2>&1 &&
		cl_ranks $o/hydra-ssh 4 "$both"
}
vm_check "mpiexec.hydra over ssh, Linux program: ranks 0-3 of 4, 2+2" hydra_ssh "$cl_sh"
vm_check "mpiexec.hydra over ssh, ndrun pmienv.exe: ranks 0-3 of 4, 2+2" hydra_ssh "$cl_ndrun" "$cl_exe"

hydra_slurm() { # PROGRAM...
	timeout -k 30 $cl_job_s salloc -N2 -n4 --ntasks-per-node=2 mpiexec.hydra -bootstrap slurm -n 4 "$@" > $o/hydra-slurm 2>&1 &&
		cl_ranks $o/hydra-slurm 4 "$both"
}
vm_check "salloc + mpiexec.hydra -bootstrap slurm, Linux program: 2+2" hydra_slurm "$cl_sh"
vm_check "salloc + mpiexec.hydra -bootstrap slurm, ndrun pmienv.exe: 2+2" hydra_slurm "$cl_ndrun" "$cl_exe"

# ---- ndmpiexec: translation ------------------------------------------
# -hosts, -env, -wdir and -l through hydra; the ranks see the variable and
# the folder, and each line carries its rank.
mpx_hydra() {
	timeout -k 30 $cl_job_s "$cl_mpx" -hosts 2 ndshim-a 2 ndshim-b 2 -env CL_VAR "a b" -wdir /tmp -l \
		"$cl_exe" --env CL_VAR > $o/mpx-hydra 2>&1 || { echo "exit $?"; cat $o/mpx-hydra; return 1; }
	vm_lf $o/mpx-hydra
	cl_ranks $o/mpx-hydra 4 "$both" 1 || return 1
	for r in 0 1 2 3; do
		[ "$(cl_field $o/mpx-hydra $r CL_VAR)" = a ] || { echo "rank $r: CL_VAR is not 'a b'"; cat $o/mpx-hydra; return 1; }
		grep -q "^\[$r\]pmienv rank=$r .* cwd=[^ ]*tmp .*CL_VAR=a b$" $o/mpx-hydra ||
			{ echo "rank $r: not in /tmp, or CL_VAR is not 'a b'"; cat $o/mpx-hydra; return 1; }
	done
}
vm_check "ndmpiexec -hosts 2 a 2 b 2 -env -wdir -l (hydra), pmienv.exe" mpx_hydra

mpx_machinefile() {
	printf 'ndshim-a 1 # first\nndshim-b 1\n' > $o/machines
	timeout -k 30 $cl_job_s "$cl_mpx" -n 4 -machinefile $o/machines "$cl_exe" > $o/mpx-mf 2>&1 &&
		cl_ranks $o/mpx-mf 4 "$both"
}
vm_check "ndmpiexec -n 4 -machinefile (one slot each, round robin), pmienv.exe" mpx_machinefile

# Inside an allocation: srun, the allocation's four tasks.
mpx_srun() {
	timeout -k 30 $cl_job_s salloc -N2 -n4 --ntasks-per-node=2 "$cl_mpx" -l -genv CL_VAR x "$cl_exe" --env CL_VAR > $o/mpx-srun 2>&1 && vm_lf $o/mpx-srun &&
		cl_ranks $o/mpx-srun 4 "$both" 1 &&
		[ "$(grep -c 'CL_VAR=x$' $o/mpx-srun)" = 4 ] || { cat $o/mpx-srun; return 1; }
}
vm_check "salloc -N2 -n4 --ntasks-per-node=2 ndmpiexec -l -genv (srun), pmienv.exe" mpx_srun

mpx_srun_hosts() {
	timeout -k 30 $cl_job_s salloc -N2 -n4 --ntasks-per-node=2 "$cl_mpx" -hosts 2 ndshim-a 1 ndshim-b 3 "$cl_exe" > $o/mpx-srun-h 2>&1 &&
		cl_ranks $o/mpx-srun-h 4 "ndshim-a ndshim-b ndshim-b ndshim-b" &&
		[ "$(cl_field $o/mpx-srun-h 0 host | tr A-Z a-z)" = ndshim-a ] || { cat $o/mpx-srun-h; return 1; }
}
vm_check "salloc + ndmpiexec -hosts 2 a 1 b 3 (srun, SLURM_HOSTFILE): rank 0 on A, 1-3 on B" mpx_srun_hosts

# ---- ndmpiexec: how jobs end -----------------------------------------
# A rank's exit code ends the job (the others would sleep 600 s) and is
# the job's status; -exitcodes lists it.
mpx_exit() { # LAUNCHER PROGRAM...
	_l=$1
	shift
	_jrc=0
	if [ "$_l" = srun ]; then
		timeout -k 30 $cl_job_s salloc -N2 -n4 --ntasks-per-node=2 "$cl_mpx" -exitcodes "$@" --exit-rank 2 7 --sleep 600 > $o/mpx-exit 2>&1 || _jrc=$?
	else
		timeout -k 30 $cl_job_s "$cl_mpx" -exitcodes -hosts 2 ndshim-a 2 ndshim-b 2 "$@" --exit-rank 2 7 --sleep 600 \
			> $o/mpx-exit 2>&1 || _jrc=$?
	fi
	[ $_jrc = 7 ] || { echo "exit status $_jrc, want 7"; cat $o/mpx-exit; return 1; }
	grep -q 'ndmpiexec: rank 2 on ndshim-b exited with code 7: ending the job' $o/mpx-exit &&
		grep -q '^\[2\] on ndshim-b: 7$' $o/mpx-exit && grep -q '^---- exit code ----$' $o/mpx-exit ||
		{ echo "no report of rank 2's exit code"; cat $o/mpx-exit; return 1; }
	cl_none_left
}
vm_check "ndmpiexec (hydra): rank 2 exits 7 -> the job ends, status 7, -exitcodes, nothing left" mpx_exit hydra "$cl_exe"
vm_check "ndmpiexec (srun): rank 2 exits 7 -> the job ends, status 7, -exitcodes, nothing left" mpx_exit srun "$cl_exe"

# A rank SIGKILLed on B: the job ends with 128+9.
mpx_killed() { # LAUNCHER
	start_job $o/mpx-kill "$1" pmienv || return 1
	ssh ndshim-b 'for p in $(pgrep -x ndrun); do
		if tr "\0" "\n" < /proc/$p/environ | grep -qx -e PMI_RANK=3 -e SLURM_PROCID=3; then kill -KILL $p; echo killed $p; fi
	done' || return 1
	_jrc=0
	wait_job $cl_job_s || _jrc=$?
	stop_alloc
	[ $_jrc = 137 ] || { echo "exit status $_jrc, want 137"; cat $o/mpx-kill; return 1; }
	grep -q 'ndmpiexec: rank 3 on ndshim-b was killed by signal 9: ending the job' $o/mpx-kill ||
		{ cat $o/mpx-kill; return 1; }
	cl_none_left
}
vm_check "ndmpiexec (hydra): rank 3 SIGKILLed on B -> status 137, nothing left" mpx_killed hydra
vm_check "ndmpiexec (srun): rank 3 SIGKILLed on B -> status 137, nothing left" mpx_killed srun

# Ctrl-C: SIGINT to the job's process group, as a terminal sends it.
mpx_ctrl_c() { # LAUNCHER RANKS
	start_job $o/mpx-int "$1" "$2" || return 1
	kill -INT -$job
	_jrc=0
	wait_job $cl_job_s || _jrc=$?
	stop_alloc
	[ $_jrc = 130 ] || { echo "exit status $_jrc, want 130"; cat $o/mpx-int; return 1; }
	cl_none_left
}
vm_check "ndmpiexec (hydra): Ctrl-C -> status 130, nothing left" mpx_ctrl_c hydra pmienv
vm_check "ndmpiexec (srun), MS-MPI ranks connected across the guests: Ctrl-C -> status 130, nothing left" \
	mpx_ctrl_c srun msmpi

mpx_timeout() {
	_jrc=0
	timeout -k 30 $cl_job_s "$cl_mpx" -timeout 60 -hosts 2 ndshim-a 2 ndshim-b 2 "$cl_exe" --sleep 600 > $o/mpx-tmo 2>&1 ||
		_jrc=$?
	[ $_jrc = 254 ] && grep -q '^Timeout after 60 seconds. Terminating job...$' $o/mpx-tmo ||
		{ echo "exit status $_jrc, want 254 and the timeout message"; cat $o/mpx-tmo; return 1; }
	cl_none_left
}
vm_check "ndmpiexec -timeout 60: the job ends, status 254, nothing left" mpx_timeout

fi

# ---- a lost node (last: B goes away) ---------------------------------
# B powers off under a running MS-MPI job (mpi_pairs hold: its ranks
# connected, ND across the guests) started through srun inside an
# allocation: slurmctld stops hearing from B's slurmd (SlurmdTimeout,
# lowered to 30 s for this check), ends the job on the node failure, and
# srun and ndmpiexec end with a failure, leaving nothing on A.  (hydra
# does not notice a lost host: its proxies' connections get no reset from
# a guest that is gone, so a hydra job then waits for -timeout; see
# docs/MPI-JOBS.md.)
mpx_lost_node() {
	sed -i 's/^SlurmdTimeout=.*/SlurmdTimeout=30/' /etc/slurm/slurm.conf && scontrol reconfigure || return 1
	start_job $o/mpx-lost srun msmpi || return 1
	vm_peer_done
	_jrc=0
	wait_job $cl_job_s || _jrc=$?
	stop_alloc
	case $_jrc in
	0 | 255) echo "exit status $_jrc: the job did not fail when B went away"; cat $o/mpx-lost; sinfo -N; return 1 ;;
	esac
	echo "status $_jrc"
	sinfo -N -h -o '%N %T' | grep -q '^ndshim-b down' || { echo "B is not down:"; sinfo -N; return 1; }
	NDSHIM_VM_HOSTS=1 cl_none_left
}
vm_check "ndmpiexec (srun), MS-MPI ranks connected across the guests: B powers off under the job -> Slurm ends it, it fails, nothing left on A" \
	mpx_lost_node
vm_finish
