/* Non-blocking requests: many MPI_Irecv posted before their MPI_Isend,
 * with distinct tags and matched out of order; MPI_Waitany, MPI_Testall
 * and MPI_Waitall; each message's payload and status checked. */
#include <string.h>

#include "mpicheck.h"

#define NMSG 16
#define LEN 4096

int main(int argc, char **argv)
{
	static int sbuf[NMSG][LEN], rbuf[NMSG][LEN];
	MPI_Request rreq[NMSG], sreq[NMSG];
	MPI_Status st[NMSG];
	int size, next, prev, done = 0, flag = 0;
	char seen[NMSG] = { 0 };

	CHECK_MPI(MPI_Init(&argc, &argv));
	CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &check_rank));
	CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
	next = (check_rank + 1) % size;
	prev = (check_rank + size - 1) % size;
	for (int m = 0; m < NMSG; m++)
		CHECK_MPI(MPI_Irecv(rbuf[m], LEN, MPI_INT, prev, m, MPI_COMM_WORLD, &rreq[m]));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	/* Sent in reverse tag order: matching goes by tag. */
	for (int m = NMSG - 1; m >= 0; m--) {
		for (int i = 0; i < LEN; i++)
			sbuf[m][i] = check_rank * 1000000 + m * 10000 + i;
		CHECK_MPI(MPI_Isend(sbuf[m], LEN, MPI_INT, next, m, MPI_COMM_WORLD, &sreq[m]));
	}
	while (done < NMSG / 2) {
		int idx;
		MPI_Status s;

		CHECK_MPI(MPI_Waitany(NMSG, rreq, &idx, &s));
		CHECK(idx >= 0 && idx < NMSG && !seen[idx], "waitany index %d", idx);
		CHECK(s.MPI_TAG == idx && s.MPI_SOURCE == prev, "waitany status tag %d source %d", s.MPI_TAG,
		      s.MPI_SOURCE);
		seen[idx] = 1;
		done++;
	}
	while (!flag)
		CHECK_MPI(MPI_Testall(NMSG, rreq, &flag, st));
	CHECK_MPI(MPI_Waitall(NMSG, sreq, st));
	for (int m = 0; m < NMSG; m++)
		for (int i = 0; i < LEN; i++)
			CHECK(rbuf[m][i] == prev * 1000000 + m * 10000 + i, "message %d word %d is %d", m, i,
			      rbuf[m][i]);
	printf("nonblocking: rank %d of %d checked %d messages\n", check_rank, size, NMSG);
	fflush(stdout);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
