# MS-MPI programs in a rig guest, for the guest scripts that run MS-MPI
# jobs (tests/vm/suites/msmpind.sh, tests/cluster/rig.sh), sourced after
# tests/vm/lib.sh.  msmpi.dll is built from MS-MPI's source (`make
# msmpi`) and the checking programs from tests/msmpi/progs; a rank loads
# msmpi.dll from beside its program, as on Windows, so both are copied
# into one folder: the same path on every guest (a hydra or srun rank runs
# the path it is given), each guest's own tmpfs.
mpi_guest_dir=/tmp/ndshim-msmpi
mpi_guest_bin=$NDSHIM_VM_BUILD/tests/msmpi
mpi_guest_dll=$NDSHIM_VM_BUILD/msmpi/msmpi.dll

# mpi_guest_setup: msmpi.dll and the programs in $mpi_guest_dir; without
# them, says which is missing and fails.
mpi_guest_setup() {
	set -- "$mpi_guest_dll" "$mpi_guest_bin/mpi_p2p.exe" "$mpi_guest_bin/mpi_pairs.exe" \
		"$mpi_guest_bin/mpi_abort.exe"
	for _f; do
		[ -f "$_f" ] || {
			echo "$_f is not built: make msmpi and the MPI programs (make check-vm builds them)"
			return 1
		}
	done
	mkdir -p "$mpi_guest_dir" && cp "$@" "$mpi_guest_dir/"
}

# mpi_guest_holding FILE N: FILE shows all N ranks of `mpi_pairs hold`
# holding, so every pair has exchanged its data (and rank 1 sleeps).
mpi_guest_holding() {
	[ "$(tr -d '\r' < "$1" | grep -c '^pairs: rank [0-9]* pid [0-9]* holding$')" = "$2" ]
}
