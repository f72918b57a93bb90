/* Every pair of ranks talks: each rank exchanges a message with every
 * other rank in turn (MPI_Sendrecv, rank r with r^k for a power-of-two
 * size, else with (r+k) and (r-k) mod size), at a small size and one past
 * MS-MPI's eager limit, and checks every byte; so a connectivity table
 * (MSMPI_CONNECTIVITY_TABLE=1) shows a connection for each pair.
 * `mpi_pairs hold`: then every rank prints its pid and rank 1 sleeps
 * (for ten minutes) while the others wait for it in a barrier: the rig
 * kills it and checks that the job ends and leaves nothing. */
#include <string.h>
#include <windows.h>

#include "mpicheck.h"

static unsigned char pattern(int from, int to, size_t size, size_t i)
{
	return (unsigned char)(i * 31 + size * 3 + from * 17 + to * 101 + (i >> 9));
}

static void exchange(int to, int from, size_t n, unsigned char *sbuf, unsigned char *rbuf)
{
	MPI_Status st;
	int count = -1;

	for (size_t i = 0; i < n; i++)
		sbuf[i] = pattern(check_rank, to, n, i);
	memset(rbuf, 0, n);
	CHECK_MPI(MPI_Sendrecv(sbuf, (int)n, MPI_BYTE, to, 7, rbuf, (int)n, MPI_BYTE, from, 7, MPI_COMM_WORLD,
			       &st));
	CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &count));
	CHECK(st.MPI_SOURCE == from && count == (int)n, "from %d: source %d, %d bytes of %zu", from,
	      st.MPI_SOURCE, count, n);
	for (size_t i = 0; i < n; i++)
		CHECK(rbuf[i] == pattern(from, check_rank, n, i), "from %d, %zu bytes: byte %zu is %u, not %u", from,
		      n, i, rbuf[i], pattern(from, check_rank, n, i));
}

int main(int argc, char **argv)
{
	static const size_t sizes[] = { 100, 256 * 1024 };
	static unsigned char sbuf[256 * 1024], rbuf[256 * 1024];
	int size, pow2, peers = 0;

	CHECK_MPI(MPI_Init(&argc, &argv));
	CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &check_rank));
	CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
	pow2 = (size & (size - 1)) == 0;
	for (int k = 1; k < size; k++) {
		int to = pow2 ? check_rank ^ k : (check_rank + k) % size;
		int from = pow2 ? to : (check_rank + size - k) % size;

		for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
			exchange(to, from, sizes[s], sbuf, rbuf);
		peers++;
	}
	if (argc > 1 && !strcmp(argv[1], "hold")) {
		CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
		printf("pairs: rank %d pid %lu holding\n", check_rank, GetCurrentProcessId());
		fflush(stdout);
		if (check_rank == 1)
			Sleep(600000);
	}
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	printf("pairs: rank %d of %d checked %d peers\n", check_rank, size, peers);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
