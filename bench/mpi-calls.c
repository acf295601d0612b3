/* mpi-calls.c — the host cost of MPI calls, for the overhead the profiler adds to them:
 *   commrank  MPI_Comm_rank (as cheap as an MPI call gets), one rank
 *   pingpong  8-byte messages between two ranks: ns per MPI_Send+MPI_Recv pair (half a round
 *             trip)
 *   test, testany, iprobe
 *             one unsuccessful poll (MPI_Test on a receive that comes only at the end,
 *             MPI_Testany over four such receives, MPI_Iprobe finding nothing), one rank
 *   testhit   a receive that completes at once: MPI_Irecv, MPI_Send to itself and the
 *             MPI_Testany (over it and three receives still pending) that completes it, per
 *             iteration, one rank
 * Prints, from rank 0, ns per call (pair, iteration): the median over batches of BATCH.
 *   halo      a polling code as real ones are written (a halo exchange with lookahead): COUNT
 *             steps in which each of two ranks posts a receive and a send of 8 KiB to the
 *             other, computes (rank 0 10 slices of about 2 us, rank 1 20), testing both
 *             requests with MPI_Testany after each slice, then tests as fast as it goes until
 *             both completed; prints the wall time of the steps in ns, and the polls made.
 * Usage: mpirun -np 1 mpi-calls commrank|test|testany|iprobe|testhit COUNT
 *        mpirun -np 2 mpi-calls pingpong|halo COUNT */
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

/* Receives (from this rank itself) that nothing matches until the end. */
static MPI_Request pending[4];
static int pending_buf[4];

static void pending_post(void)
{
	for (int i = 0; i < 4; i++)
		MPI_Irecv(&pending_buf[i], 1, MPI_INT, 0, 100 + i, MPI_COMM_WORLD, &pending[i]);
}

static void pending_finish(void)
{
	for (int i = 0; i < 4; i++)
		MPI_Send(&i, 1, MPI_INT, 0, 100 + i, MPI_COMM_WORLD);
	MPI_Waitall(4, pending, MPI_STATUSES_IGNORE);
}

static double poll_batch(const char *how)
{
	int flag, idx, v = 0;
	uint64_t t0 = bench_now_ns();
	if (!strcmp(how, "test")) {
		for (int i = 0; i < BATCH; i++)
			MPI_Test(&pending[0], &flag, MPI_STATUS_IGNORE);
	} else if (!strcmp(how, "testany")) {
		for (int i = 0; i < BATCH; i++)
			MPI_Testany(4, pending, &idx, &flag, MPI_STATUS_IGNORE);
	} else if (!strcmp(how, "iprobe")) {
		for (int i = 0; i < BATCH; i++)
			MPI_Iprobe(0, 7, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
	} else {
		/* The new receive and three that stay pending, as a polling code holds them. */
		MPI_Request r[4] = { MPI_REQUEST_NULL, pending[1], pending[2], pending[3] };
		for (int i = 0; i < BATCH; i++) {
			MPI_Irecv(&v, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, &r[0]);
			MPI_Send(&i, 1, MPI_INT, 0, 9, MPI_COMM_WORLD);
			for (flag = 0; !flag;)
				MPI_Testany(4, r, &idx, &flag, MPI_STATUS_IGNORE);
		}
	}
	return (double)(bench_now_ns() - t0) / BATCH;
}

/* 2 us of work: the program's own computing, which the profiler does not touch. */
static volatile double sink;
static void compute_slice(void)
{
	uint64_t t0 = bench_now_ns();
	double x = sink;
	while (bench_now_ns() - t0 < 2000)
		x = x * 1.0000001 + 1e-9;
	sink = x;
}

/* The halo program: returns its wall time; *polls: MPI_Testany calls made. */
static uint64_t halo(int rank, uint64_t iters, uint64_t *polls)
{
	static char out[8192], in[8192];
	int other = 1 - rank, idx, flag, slices = rank ? 20 : 10;
	uint64_t t0 = bench_now_ns();
	for (uint64_t s = 0; s < iters; s++) {
		MPI_Request r[2];
		MPI_Irecv(in, sizeof(in), MPI_BYTE, other, 1, MPI_COMM_WORLD, &r[0]);
		MPI_Isend(out, sizeof(out), MPI_BYTE, other, 1, MPI_COMM_WORLD, &r[1]);
		int done = 0;
		/* Compute, testing after each slice; then wait, testing as fast as it goes. */
		for (int k = 0; k < slices || done < 2; k++) {
			if (k < slices)
				compute_slice();
			if (done == 2)
				continue;
			MPI_Testany(2, r, &idx, &flag, MPI_STATUS_IGNORE);
			(*polls)++;
			if (flag && idx != MPI_UNDEFINED)
				done++;
		}
	}
	return bench_now_ns() - t0;
}

static int usage(int rank, const char *argv0)
{
	if (rank == 0)
		fprintf(stderr, "usage: mpirun -np 1 %s commrank|test|testany|iprobe|testhit COUNT\n"
				"       mpirun -np 2 %s pingpong|halo COUNT\n", argv0, argv0);
	MPI_Finalize();
	return 2;
}

int main(int argc, char **argv)
{
	int rank, size;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc != 3)
		return usage(rank, argv[0]);
	const char *call = argv[1];
	int two = !strcmp(call, "pingpong") || !strcmp(call, "halo");
	int poll = !strcmp(call, "test") || !strcmp(call, "testany") || !strcmp(call, "iprobe") ||
		   !strcmp(call, "testhit");
	if ((!two && !poll && strcmp(call, "commrank")) || (two && size != 2) || (!two && size != 1))
		return usage(rank, argv[0]);
	uint64_t n = bench_count(argv[2], "count");
	if (!strcmp(call, "halo")) {
		uint64_t polls = 0, ns = halo(rank, n, &polls);
		if (rank == 0)
			printf("call=halo\nsteps=%llu\npolls=%llu\nns=%llu\n", (unsigned long long)n,
			       (unsigned long long)polls, (unsigned long long)ns);
		MPI_Finalize();
		return 0;
	}
	size_t batches = (size_t)(n / BATCH);
	double *ns = calloc(batches ? batches : 1, sizeof(double));
	if (two && rank > 1)
		batches = 0;
	if (poll)
		pending_post();
	/* A warm-up batch, then the timed ones. */
	for (size_t b = 0; b <= batches; b++) {
		double v = !strcmp(call, "pingpong") ? pingpong_batch(rank)
			   : poll ? poll_batch(call) : commrank_batch();
		if (b)
			ns[b - 1] = v;
	}
	if (poll)
		pending_finish();
	if (rank == 0)
		printf("call=%s\ncalls=%llu\nns=%.3f\n", call, (unsigned long long)(batches * BATCH),
		       bench_median(ns, batches));
	free(ns);
	MPI_Finalize();
	return 0;
}
