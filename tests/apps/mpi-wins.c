/* mpi-wins.c — one-sided windows on two communicators, for func/t-parallel-otf2.sh: every rank
 * makes a window on its half of MPI_COMM_WORLD (the first half's ranks, the second's), then
 * one on MPI_COMM_WORLD; in each it puts its number to its right neighbour between two
 * fences, checks what its left one put and frees it.  The analysis processes that read the
 * two halves meet different windows first.  A rank that finds other data says so and fails.
 * The halves make theirs one after the other: Open MPI 4.1 names a window's shared segment
 * after the communicator's number, which the two halves share, and one half's open of it
 * then fails now and then when the other half removed it first.
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
	for (int c = 0; c < 3; c++) {
		int r, n, *base, v;
		MPI_Win win;
		if (c < 2 && (rank < size / 2) != c) {   /* the other half's turn */
			MPI_Barrier(MPI_COMM_WORLD);
			continue;
		}
		MPI_Comm comm = comms[c / 2];
		MPI_Comm_rank(comm, &r);
		MPI_Comm_size(comm, &n);
		MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, comm, &base, &win);
		MPI_Win_fence(0, win);
		v = 1000 * (c / 2) + r;
		MPI_Put(&v, 1, MPI_INT, (r + 1) % n, 0, 1, MPI_INT, win);
		MPI_Win_fence(0, win);
		if (*base != 1000 * (c / 2) + (r + n - 1) % n) {
			fprintf(stderr, "mpi-wins: rank %d: window %d holds %d\n", rank, c / 2, *base);
			bad = 1;
		}
		MPI_Win_free(&win);
		if (c < 2)
			MPI_Barrier(MPI_COMM_WORLD);
	}
	MPI_Comm_free(&half);
	MPI_Finalize();
	return bad;
}
