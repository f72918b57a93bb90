/* Reductions: MPI_Allreduce (sum, max, min of ints; sum of doubles over
 * a vector), MPI_Reduce to each root in turn, MPI_Scan, MPI_Bcast; every
 * result against its closed form. */
#include "mpicheck.h"

#define N 1000

int main(int argc, char **argv)
{
	int size, v, r;
	static int iv[N], ir[N];
	static double dv[N], dr[N];

	CHECK_MPI(MPI_Init(&argc, &argv));
	CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &check_rank));
	CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
	v = check_rank + 1;
	CHECK_MPI(MPI_Allreduce(&v, &r, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
	CHECK(r == size * (size + 1) / 2, "sum %d", r);
	CHECK_MPI(MPI_Allreduce(&v, &r, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
	CHECK(r == size, "max %d", r);
	CHECK_MPI(MPI_Allreduce(&v, &r, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
	CHECK(r == 1, "min %d", r);
	for (int i = 0; i < N; i++) {
		iv[i] = i * (check_rank + 1);
		dv[i] = 0.5 * i + check_rank;
	}
	CHECK_MPI(MPI_Allreduce(dv, dr, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
	for (int i = 0; i < N; i++)
		CHECK(dr[i] == 0.5 * i * size + size * (size - 1) / 2.0, "double sum [%d] = %g", i, dr[i]);
	for (int root = 0; root < size; root++) {
		for (int i = 0; i < N; i++)
			ir[i] = -1;
		CHECK_MPI(MPI_Reduce(iv, ir, N, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD));
		if (check_rank == root)
			for (int i = 0; i < N; i++)
				CHECK(ir[i] == i * size * (size + 1) / 2, "reduce to %d: [%d] = %d", root, i, ir[i]);
	}
	CHECK_MPI(MPI_Scan(&v, &r, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
	CHECK(r == v * (v + 1) / 2, "scan %d at rank %d", r, check_rank);
	for (int root = 0; root < size; root++) {
		for (int i = 0; i < N; i++)
			iv[i] = check_rank == root ? i * 3 + root : -1;
		CHECK_MPI(MPI_Bcast(iv, N, MPI_INT, root, MPI_COMM_WORLD));
		for (int i = 0; i < N; i++)
			CHECK(iv[i] == i * 3 + root, "bcast from %d: [%d] = %d", root, i, iv[i]);
	}
	printf("reduce: rank %d of %d checked\n", check_rank, size);
	fflush(stdout);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
