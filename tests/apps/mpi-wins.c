/* mpi-wins.c — one-sided windows on two communicators, for func/t-parallel-otf2.sh: every rank
 * allocates a window on its half of MPI_COMM_WORLD (the first half's ranks, the second's),
 * then one on MPI_COMM_WORLD; in each it puts its number to its right neighbour between two
 * fences, checks what its left one put and frees it.  The analysis processes that read the
 * two halves meet different windows first.  A rank that finds other data says so and fails.
 * Usage: mpirun -np N mpi-wins */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, size, bad = 0;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Comm half;
	MPI_Comm_split(MPI_COMM_WORLD, rank < size / 2, rank, &half);
	MPI_Comm comms[2] = { half, MPI_COMM_WORLD };
	for (int c = 0; c < 2; c++) {
		int r, n, *base, v;
		MPI_Win win;
		MPI_Comm_rank(comms[c], &r);
		MPI_Comm_size(comms[c], &n);
		MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, comms[c], &base, &win);
		MPI_Win_fence(0, win);
		v = 1000 * c + r;
		MPI_Put(&v, 1, MPI_INT, (r + 1) % n, 0, 1, MPI_INT, win);
		MPI_Win_fence(0, win);
		if (*base != 1000 * c + (r + n - 1) % n) {
			fprintf(stderr, "mpi-wins: rank %d: window %d holds %d\n", rank, c, *base);
			bad = 1;
		}
		MPI_Win_free(&win);
	}
	MPI_Comm_free(&half);
	MPI_Finalize();
	return bad;
}
