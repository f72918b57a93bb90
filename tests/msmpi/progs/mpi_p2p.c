/* Point-to-point: each rank sends to the next and receives from the
 * previous (itself when alone), blocking and with MPI_Sendrecv, at sizes
 * from 0 bytes to 4 MiB; every byte received is checked against the
 * sender's pattern, and the status's source, tag and count. */
#include <string.h>

#include "mpicheck.h"

static unsigned char pattern(int rank, size_t size, size_t i)
{
	return (unsigned char)(i * 131 + size * 7 + rank * 29 + (i >> 8));
}

int main(int argc, char **argv)
{
	static const size_t sizes[] = { 0, 1, 7, 64, 1000, 4096, 65537, 1 << 20, 4 << 20 };
	int size, next, prev;
	unsigned char *sbuf, *rbuf;

	CHECK_MPI(MPI_Init(&argc, &argv));
	CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &check_rank));
	CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
	next = (check_rank + 1) % size;
	prev = (check_rank + size - 1) % size;
	sbuf = malloc(4 << 20);
	rbuf = malloc(4 << 20);
	CHECK(sbuf && rbuf, "out of memory");
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		size_t n = sizes[k];
		MPI_Status st;
		MPI_Request req;
		int count;

		for (size_t i = 0; i < n; i++)
			sbuf[i] = pattern(check_rank, n, i);
		memset(rbuf, 0xee, n + 1 < (4u << 20) ? n + 1 : n);
		/* Blocking receive against a non-blocking send (a rank alone
		 * sends to itself). */
		CHECK_MPI(MPI_Isend(sbuf, (int)n, MPI_BYTE, next, (int)k, MPI_COMM_WORLD, &req));
		CHECK_MPI(MPI_Recv(rbuf, (int)n, MPI_BYTE, prev, (int)k, MPI_COMM_WORLD, &st));
		CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
		CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &count));
		CHECK(st.MPI_SOURCE == prev && st.MPI_TAG == (int)k && count == (int)n,
		      "status source %d tag %d count %d for %zu bytes", st.MPI_SOURCE, st.MPI_TAG, count, n);
		for (size_t i = 0; i < n; i++)
			CHECK(rbuf[i] == pattern(prev, n, i), "%zu bytes: byte %zu is %#x, not %#x", n, i, rbuf[i],
			      pattern(prev, n, i));
		if (n + 1 < (4u << 20))
			CHECK(rbuf[n] == 0xee, "%zu bytes: the byte after the message was written", n);
		/* The same with MPI_Sendrecv, the other way round. */
		memset(rbuf, 0, n);
		CHECK_MPI(MPI_Sendrecv(sbuf, (int)n, MPI_BYTE, prev, 100 + (int)k, rbuf, (int)n, MPI_BYTE, next,
				       100 + (int)k, MPI_COMM_WORLD, &st));
		for (size_t i = 0; i < n; i++)
			CHECK(rbuf[i] == pattern(next, n, i), "sendrecv %zu bytes: byte %zu is %#x, not %#x", n, i,
			      rbuf[i], pattern(next, n, i));
	}
	free(sbuf);
	free(rbuf);
	printf("p2p: rank %d of %d checked %zu sizes\n", check_rank, size, sizeof(sizes) / sizeof(sizes[0]));
	fflush(stdout);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
