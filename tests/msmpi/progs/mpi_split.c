/* Communicators: MPI_Comm_split by parity with reversed keys, the new
 * ranks and sizes, a reduction and a gather inside each half, and
 * MPI_Comm_dup compared with the original. */
#include "mpicheck.h"

int main(int argc, char **argv)
{
	int size, color, sub_rank, sub_size, want_size, sum, cmp, want_sum = 0;
	int gathered[64];
	MPI_Comm half, dup;

	CHECK_MPI(MPI_Init(&argc, &argv));
	CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &check_rank));
	CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
	CHECK(size <= 64, "at most 64 ranks, not %d", size);
	color = check_rank % 2;
	/* Key -rank: the highest world rank of a half is its rank 0. */
	CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, color, -check_rank, &half));
	CHECK_MPI(MPI_Comm_rank(half, &sub_rank));
	CHECK_MPI(MPI_Comm_size(half, &sub_size));
	want_size = (size - color + 1) / 2;
	CHECK(sub_size == want_size, "half %d has %d ranks, not %d", color, sub_size, want_size);
	for (int r = color; r < size; r += 2)
		if (r > check_rank)
			want_sum++;
	CHECK(sub_rank == want_sum, "rank %d in half %d, not %d", sub_rank, color, want_sum);
	CHECK_MPI(MPI_Allreduce(&check_rank, &sum, 1, MPI_INT, MPI_SUM, half));
	want_sum = 0;
	for (int r = color; r < size; r += 2)
		want_sum += r;
	CHECK(sum == want_sum, "sum in half %d is %d, not %d", color, sum, want_sum);
	CHECK_MPI(MPI_Allgather(&check_rank, 1, MPI_INT, gathered, 1, MPI_INT, half));
	for (int i = 0; i < sub_size; i++) {
		int want = color + 2 * (sub_size - 1 - i);
		CHECK(gathered[i] == want, "half %d: gathered[%d] = %d, not %d", color, i, gathered[i], want);
	}
	CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
	CHECK_MPI(MPI_Comm_compare(dup, MPI_COMM_WORLD, &cmp));
	CHECK(cmp == MPI_CONGRUENT, "dup compares %d", cmp);
	CHECK_MPI(MPI_Comm_compare(half, MPI_COMM_WORLD, &cmp));
	CHECK(cmp == (size == 1 ? MPI_CONGRUENT : MPI_UNEQUAL), "half compares %d", cmp);
	CHECK_MPI(MPI_Comm_free(&dup));
	CHECK_MPI(MPI_Comm_free(&half));
	CHECK(half == MPI_COMM_NULL, "freed communicator not MPI_COMM_NULL");
	printf("split: rank %d of %d checked\n", check_rank, size);
	fflush(stdout);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
