/* MPI_Init, rank and size, a barrier, MPI_Finalize: every rank prints
 * one line the test compares. */
#include "mpicheck.h"

int main(int argc, char **argv)
{
	int rank, size, flag = 0;

	CHECK_MPI(MPI_Init(&argc, &argv));
	CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &check_rank));
	rank = check_rank;
	CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
	CHECK_MPI(MPI_Initialized(&flag));
	CHECK(flag, "MPI_Initialized says no");
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	printf("hello from rank %d of %d\n", rank, size);
	fflush(stdout);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
