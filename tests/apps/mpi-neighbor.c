/* mpi-neighbor.c — the neighbourhood collectives, blocking and nonblocking, for the tests of
 * how they are recorded (func/t-mpi-neighbor.sh), on two topologies: a periodic ring
 * (MPI_Cart_create: two sources and two destinations each) and a star (MPI_Dist_graph_create_
 * adjacent: rank 0 sends to every other rank, which receives from it alone, so that sources
 * and destinations differ).  Each rank checks what it received; rank 0 prints, as one JSON
 * line, the bytes every function moved over all ranks (sent plus received, as the summary's
 * MPI table counts them) and how many times each was called on each rank.
 * Usage: mpirun -np N mpi-neighbor */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#define B 100   /* ints in a block */

static int bad;

static void check(const int *got, int n, int want)
{
	for (int i = 0; i < n; i++)
		bad |= got[i] != want;
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	int rank, size;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	int dims[1] = { size }, periods[1] = { 1 };
	MPI_Comm ring, star;
	MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
	int left = (rank + size - 1) % size, right = (rank + 1) % size;
	static int sbuf[4 * B], rbuf[4 * B];
	for (int i = 0; i < 4 * B; i++)
		sbuf[i] = rank;
	int counts[2] = { B, B }, displs[2] = { 0, B };
	MPI_Aint adispls[2] = { 0, B * sizeof(int) };
	MPI_Datatype types[2] = { MPI_INT, MPI_INT };
	MPI_Request req;

	/* the ring: from the left one first, then the right one (the cartesian order) */
	MPI_Neighbor_allgather(sbuf, B, MPI_INT, rbuf, B, MPI_INT, ring);
	check(rbuf, B, left);
	check(rbuf + B, B, right);
	MPI_Neighbor_alltoall(sbuf, B, MPI_INT, rbuf, B, MPI_INT, ring);
	MPI_Ineighbor_allgatherv(sbuf, B, MPI_INT, rbuf, counts, displs, MPI_INT, ring, &req);
	MPI_Wait(&req, MPI_STATUS_IGNORE);
	MPI_Neighbor_alltoallv(sbuf, counts, displs, MPI_INT, rbuf, counts, displs, MPI_INT, ring);
	MPI_Ineighbor_alltoallw(sbuf, counts, adispls, types, rbuf, counts, adispls, types, ring,
				&req);
	MPI_Wait(&req, MPI_STATUS_IGNORE);
	check(rbuf + B, B, right);

	/* the star */
	int others[64], n = 0;
	for (int r = 1; r < size && n < 64; r++)
		others[n++] = r;
	int zero[1] = { 0 };
	if (rank == 0)
		MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 0, zero, MPI_UNWEIGHTED, n, others,
					       MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &star);
	else
		MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, zero, MPI_UNWEIGHTED, 0, zero,
					       MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &star);
	memset(rbuf, 0xff, sizeof(rbuf));
	MPI_Neighbor_allgather(sbuf, B, MPI_INT, rbuf, B, MPI_INT, star);
	if (rank)
		check(rbuf, B, 0);
	MPI_Comm_free(&star);
	MPI_Comm_free(&ring);

	int any_bad = 0;
	MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
	long blk = B * (long)sizeof(int), ring_all = 4L * blk * size;
	if (rank == 0)
		printf("{\"ranks\": %d, \"bytes\": {\"MPI_Neighbor_allgather\": %ld, "
		       "\"MPI_Neighbor_alltoall\": %ld, \"MPI_Ineighbor_allgatherv\": %ld, "
		       "\"MPI_Neighbor_alltoallv\": %ld, \"MPI_Ineighbor_alltoallw\": %ld}, "
		       "\"calls\": {\"MPI_Neighbor_allgather\": 2, \"MPI_Neighbor_alltoall\": 1, "
		       "\"MPI_Ineighbor_allgatherv\": 1, \"MPI_Neighbor_alltoallv\": 1, "
		       "\"MPI_Ineighbor_alltoallw\": 1}, \"ok\": %s}\n",
		       size, ring_all + 2L * (size - 1) * blk, ring_all, ring_all, ring_all, ring_all,
		       any_bad ? "false" : "true");
	MPI_Finalize();
	return any_bad ? 1 : 0;
}
