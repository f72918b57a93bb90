/* Shared by the MPI checking programs: CHECK prints what failed, with the
 * rank, and ends the job through MPI_Abort so no rank waits for it. */
#ifndef MPICHECK_H
#define MPICHECK_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int check_rank = -1;

#define CHECK(cond, ...)                                                                  \
	do {                                                                              \
		if (!(cond)) {                                                            \
			fprintf(stderr, "rank %d: %s:%d: check failed: %s: ", check_rank, \
				__FILE__, __LINE__, #cond);                               \
			fprintf(stderr, __VA_ARGS__);                                     \
			fputc('\n', stderr);                                              \
			fflush(stderr);                                                   \
			MPI_Abort(MPI_COMM_WORLD, 3);                                     \
		}                                                                         \
	} while (0)

#define CHECK_MPI(call)                                                 \
	do {                                                            \
		int rc_ = (call);                                       \
		CHECK(rc_ == MPI_SUCCESS, "%s returned %d", #call, rc_); \
	} while (0)

#endif
