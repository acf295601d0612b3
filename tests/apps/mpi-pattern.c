/* mpi-pattern.c — a fixed pattern of MPI traffic whose every message and collective the MPI
 * recording tests can check: a ring of MPI_Send/MPI_Recv, MPI_Isend/MPI_Irecv with both
 * neighbours completed by MPI_Waitall, MPI_ANY_SOURCE (and MPI_ANY_TAG) receives at rank 0,
 * MPI_Sendrecv around the ring, MPI_Probe then MPI_Recv, MPI_Bcast/MPI_Allreduce/MPI_Barrier
 * on MPI_COMM_WORLD and on the even/odd halves of an MPI_Comm_split, one MPI_Iallreduce
 * completed by MPI_Wait, and a persistent send/receive pair started three times.  Any number
 * of ranks from 2 on.  At the end rank 0 prints the ground truth as one JSON line: the
 * messages sent (all ranks, point-to-point) and the collectives each member of a communicator
 * called on it.  Tags, counts and types are fixed (see the comments) so tests can check them. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define PERSISTENT_ROUNDS 3

static long sent;                 /* point-to-point messages this rank sent */
static int world_colls, split_colls;

static void check(int rc, const char *what)
{
	if (rc != MPI_SUCCESS) {
		fprintf(stderr, "mpi-pattern: %s failed (%d)\n", what, rc);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
}

/* Ring: 4 ints (16 bytes), tag 1, to the right; rank 0 sends first. */
static void ring(int rank, int n)
{
	int out[4] = { rank, rank, rank, rank }, in[4];
	int right = (rank + 1) % n, left = (rank + n - 1) % n;
	if (rank == 0) {
		check(MPI_Send(out, 4, MPI_INT, right, 1, MPI_COMM_WORLD), "ring send");
		check(MPI_Recv(in, 4, MPI_INT, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE), "ring recv");
	} else {
		check(MPI_Recv(in, 4, MPI_INT, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE), "ring recv");
		check(MPI_Send(out, 4, MPI_INT, right, 1, MPI_COMM_WORLD), "ring send");
	}
	sent++;
}

/* Neighbours: 8 doubles (64 bytes) with tag 10 to the right and tag 11 to the left. */
static void neighbours(int rank, int n)
{
	double to_r[8], to_l[8], from_l[8], from_r[8];
	int right = (rank + 1) % n, left = (rank + n - 1) % n;
	MPI_Request req[4];
	MPI_Status st[4];
	for (int i = 0; i < 8; i++)
		to_r[i] = to_l[i] = rank + i;
	check(MPI_Irecv(from_l, 8, MPI_DOUBLE, left, 10, MPI_COMM_WORLD, &req[0]), "irecv");
	check(MPI_Irecv(from_r, 8, MPI_DOUBLE, right, 11, MPI_COMM_WORLD, &req[1]), "irecv");
	check(MPI_Isend(to_r, 8, MPI_DOUBLE, right, 10, MPI_COMM_WORLD, &req[2]), "isend");
	check(MPI_Isend(to_l, 8, MPI_DOUBLE, left, 11, MPI_COMM_WORLD, &req[3]), "isend");
	check(MPI_Waitall(4, req, st), "waitall");
	sent += 2;
}

/* To rank 0: 3 ints (12 bytes) with tag 20 + rank.  Rank 0 takes them all with
 * MPI_ANY_SOURCE: the first (n-1)/2 with MPI_ANY_TAG, then each with the tag of the lowest
 * rank not heard from yet. */
static void gather_any(int rank, int n)
{
	int buf[3] = { rank, rank, rank };
	if (rank) {
		check(MPI_Send(buf, 3, MPI_INT, 0, 20 + rank, MPI_COMM_WORLD), "send to 0");
		sent++;
		return;
	}
	char *got = calloc((size_t)n, 1);
	for (int k = 0; k < n - 1; k++) {
		MPI_Status st;
		int tag = MPI_ANY_TAG;
		for (int j = 1; k >= (n - 1) / 2 && j < n; j++)
			if (!got[j]) {
				tag = 20 + j;
				break;
			}
		check(MPI_Recv(buf, 3, MPI_INT, MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &st), "recv any");
		got[st.MPI_SOURCE] = 1;
	}
	free(got);
}

/* Sendrecv: 2 long longs (16 bytes) right with tag 30, from the left. */
static void shift(int rank, int n)
{
	long long out[2] = { rank, rank }, in[2];
	int right = (rank + 1) % n, left = (rank + n - 1) % n;
	check(MPI_Sendrecv(out, 2, MPI_LONG_LONG, right, 30, in, 2, MPI_LONG_LONG, left, 30,
			   MPI_COMM_WORLD, MPI_STATUS_IGNORE), "sendrecv");
	sent++;
}

/* Rank 1 sends 7 chars with tag 40; rank 0 probes, sizes and receives it. */
static void probe(int rank)
{
	char buf[7] = "probed";
	if (rank == 1) {
		check(MPI_Send(buf, 7, MPI_CHAR, 0, 40, MPI_COMM_WORLD), "probe send");
		sent++;
	} else if (rank == 0) {
		MPI_Status st;
		int count = 0;
		check(MPI_Probe(MPI_ANY_SOURCE, 40, MPI_COMM_WORLD, &st), "probe");
		MPI_Get_count(&st, MPI_CHAR, &count);
		check(MPI_Recv(buf, count, MPI_CHAR, st.MPI_SOURCE, 40, MPI_COMM_WORLD, &st), "probe recv");
	}
}

/* Bcast of 5 ints from rank 0, Allreduce of 2 doubles, Barrier. */
static void collectives(MPI_Comm comm, int *count)
{
	int b[5] = { 1, 2, 3, 4, 5 };
	double x[2] = { 1, 2 }, y[2];
	check(MPI_Bcast(b, 5, MPI_INT, 0, comm), "bcast");
	check(MPI_Allreduce(x, y, 2, MPI_DOUBLE, MPI_SUM, comm), "allreduce");
	check(MPI_Barrier(comm), "barrier");
	*count += 3;
}

/* Iallreduce of 4 ints completed by MPI_Wait. */
static void nonblocking_collective(void)
{
	int x[4] = { 1, 1, 1, 1 }, y[4];
	MPI_Request req;
	check(MPI_Iallreduce(x, y, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req), "iallreduce");
	check(MPI_Wait(&req, MPI_STATUS_IGNORE), "wait");
	world_colls++;
}

/* Rank 0 sends 6 ints (24 bytes) to rank 1 with tag 50, persistently, three times. */
static void persistent(int rank)
{
	int buf[6] = { 0 };
	MPI_Request req;
	if (rank > 1)
		return;
	if (rank == 0)
		check(MPI_Send_init(buf, 6, MPI_INT, 1, 50, MPI_COMM_WORLD, &req), "send_init");
	else
		check(MPI_Recv_init(buf, 6, MPI_INT, 0, 50, MPI_COMM_WORLD, &req), "recv_init");
	for (int i = 0; i < PERSISTENT_ROUNDS; i++) {
		check(MPI_Start(&req), "start");
		check(MPI_Wait(&req, MPI_STATUS_IGNORE), "wait");
		if (rank == 0)
			sent++;
	}
	check(MPI_Request_free(&req), "request_free");
}

int main(int argc, char **argv)
{
	int rank, n;
	MPI_Comm half;
	check(MPI_Init(&argc, &argv), "init");
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &n);
	if (n < 2) {
		if (!rank)
			fprintf(stderr, "mpi-pattern: needs at least 2 ranks\n");
		MPI_Finalize();
		return 2;
	}
	ring(rank, n);
	neighbours(rank, n);
	gather_any(rank, n);
	shift(rank, n);
	probe(rank);
	collectives(MPI_COMM_WORLD, &world_colls);
	check(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half), "split");
	collectives(half, &split_colls);
	nonblocking_collective();
	persistent(rank);
	check(MPI_Comm_free(&half), "comm_free");
	long total = 0;
	check(MPI_Reduce(&sent, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD), "reduce");
	world_colls++;
	if (rank == 0)
		printf("{\"messages\": %ld, \"collectives\": {\"world\": %d, \"split\": %d}, \"ranks\": %d}\n",
		       total, world_colls, split_colls, n);
	MPI_Finalize();
	return 0;
}
