/* MPI_Abort: the last rank aborts the job with exit code 7 after a
 * barrier; the others wait in a second barrier that never completes.
 * The test checks the job's exit status (7) and that "before abort" was
 * printed by every rank and "after abort" by none. */
#include "mpicheck.h"

int main(int argc, char **argv)
{
	int size;

	CHECK_MPI(MPI_Init(&argc, &argv));
	CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &check_rank));
	CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	printf("before abort: rank %d\n", check_rank);
	fflush(stdout);
	if (check_rank == size - 1)
		MPI_Abort(MPI_COMM_WORLD, 7);
	MPI_Barrier(MPI_COMM_WORLD);
	printf("after abort: rank %d\n", check_rank);
	fflush(stdout);
	MPI_Finalize();
	return 0;
}
