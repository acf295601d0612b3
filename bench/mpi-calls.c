/* mpi-calls.c — the host cost of MPI calls, for the overhead the profiler adds to them:
 * MPI_Comm_rank (as cheap as an MPI call gets) on one rank, and a ping-pong of 8-byte
 * messages between two ranks (each round trip is one MPI_Send+MPI_Recv pair on each rank, one
 * after the other).  Prints, from rank 0, ns per call or per pair (half a round trip): the
 * median over batches.  Usage: mpirun -np 1 mpi-calls commrank COUNT
 *                              mpirun -np 2 mpi-calls pingpong COUNT */
#include <mpi.h>

#include "bench.h"

#define BATCH 1000

static double commrank_batch(void)
{
	int rank;
	uint64_t t0 = bench_now_ns();
	for (int i = 0; i < BATCH; i++)
		MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	return (double)(bench_now_ns() - t0) / BATCH;
}

static double pingpong_batch(int rank)
{
	double msg = 0;
	uint64_t t0 = bench_now_ns();
	for (int i = 0; i < BATCH; i++) {
		if (rank == 0) {
			MPI_Send(&msg, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
			MPI_Recv(&msg, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		} else {
			MPI_Recv(&msg, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			MPI_Send(&msg, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
		}
	}
	return (double)(bench_now_ns() - t0) / BATCH / 2;
}

int main(int argc, char **argv)
{
	int rank, size;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	int pingpong = argc == 3 && !strcmp(argv[1], "pingpong");
	if (argc != 3 || (!pingpong && strcmp(argv[1], "commrank")) || (pingpong && size != 2)) {
		if (rank == 0)
			fprintf(stderr, "usage: mpirun -np 1 %s commrank COUNT\n"
					"       mpirun -np 2 %s pingpong COUNT\n", argv[0], argv[0]);
		MPI_Finalize();
		return 2;
	}
	uint64_t n = bench_count(argv[2], "count");
	size_t batches = (size_t)(n / BATCH);
	double *ns = calloc(batches ? batches : 1, sizeof(double));
	if (pingpong && rank > 1)
		batches = 0;
	/* A warm-up batch, then the timed ones. */
	if (pingpong)
		pingpong_batch(rank);
	else
		commrank_batch();
	for (size_t b = 0; b < batches; b++)
		ns[b] = pingpong ? pingpong_batch(rank) : commrank_batch();
	if (rank == 0)
		printf("call=%s\ncalls=%llu\nns=%.3f\n", argv[1], (unsigned long long)(batches * BATCH),
		       bench_median(ns, batches));
	free(ns);
	MPI_Finalize();
	return 0;
}
