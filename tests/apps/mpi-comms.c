/* mpi-comms.c — the rest of what the MPI recorder follows, for its tests: communicators made
 * every way (dup, dup_with_info, idup, split_type, create, create_group, a Cartesian grid and
 * its rows, a graph, a distributed graph, an inter-communicator and its merge), named and
 * freed; every collective, blocking and nonblocking, on them, some with MPI_IN_PLACE; matched
 * probes; synchronous, buffered and ready sends; MPI_Sendrecv_replace; persistent requests
 * started together; MPI_Testany and MPI_Iprobe.  Needs an even number of ranks, at least 4.
 * Rank 0 prints the number of point-to-point messages sent, as JSON. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static long sent;

static void check(int rc, const char *what)
{
	if (rc != MPI_SUCCESS) {
		fprintf(stderr, "mpi-comms: %s failed (%d)\n", what, rc);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
}

/* Every collective once on comm (size n, this rank r), then the nonblocking forms. */
static void collectives(MPI_Comm comm)
{
	int n, r;
	MPI_Comm_size(comm, &n);
	MPI_Comm_rank(comm, &r);
	int *a = calloc((size_t)n * 4 + 4, sizeof(int)), *b = calloc((size_t)n * 4 + 4, sizeof(int));
	int *counts = malloc((size_t)n * sizeof(int)), *displs = malloc((size_t)n * sizeof(int));
	MPI_Datatype *types = malloc((size_t)n * sizeof(MPI_Datatype));
	for (int i = 0; i < n; i++) {
		counts[i] = 2;
		displs[i] = 2 * i;
		types[i] = MPI_INT;
	}
	check(MPI_Gather(a, 2, MPI_INT, b, 2, MPI_INT, 0, comm), "gather");
	check(MPI_Gatherv(a, 2, MPI_INT, b, counts, displs, MPI_INT, 0, comm), "gatherv");
	check(MPI_Scatter(a, 2, MPI_INT, b, 2, MPI_INT, 0, comm), "scatter");
	check(MPI_Scatterv(a, counts, displs, MPI_INT, b, 2, MPI_INT, 0, comm), "scatterv");
	check(MPI_Allgather(a, 2, MPI_INT, b, 2, MPI_INT, comm), "allgather");
	check(MPI_Allgatherv(a, 2, MPI_INT, b, counts, displs, MPI_INT, comm), "allgatherv");
	check(MPI_Alltoall(a, 2, MPI_INT, b, 2, MPI_INT, comm), "alltoall");
	check(MPI_Alltoallv(a, counts, displs, MPI_INT, b, counts, displs, MPI_INT, comm), "alltoallv");
	for (int i = 0; i < n; i++)
		displs[i] = 8 * i;   /* Alltoallw takes bytes */
	check(MPI_Alltoallw(a, counts, displs, types, b, counts, displs, types, comm), "alltoallw");
	check(MPI_Reduce_scatter(a, b, counts, MPI_INT, MPI_SUM, comm), "reduce_scatter");
	check(MPI_Reduce_scatter_block(a, b, 2, MPI_INT, MPI_SUM, comm), "reduce_scatter_block");
	check(MPI_Scan(a, b, 3, MPI_INT, MPI_SUM, comm), "scan");
	check(MPI_Exscan(a, b, 3, MPI_INT, MPI_SUM, comm), "exscan");
	check(MPI_Allreduce(MPI_IN_PLACE, b, 4, MPI_INT, MPI_SUM, comm), "allreduce in place");
	check(MPI_Reduce(r ? a : MPI_IN_PLACE, b, 4, MPI_INT, MPI_SUM, 0, comm), "reduce in place");
	MPI_Request req[6];
	check(MPI_Ibarrier(comm, &req[0]), "ibarrier");
	check(MPI_Ibcast(a, 3, MPI_INT, 0, comm, &req[1]), "ibcast");
	check(MPI_Igather(a, 2, MPI_INT, b, 2, MPI_INT, 0, comm, &req[2]), "igather");
	check(MPI_Iallgather(a, 1, MPI_INT, b + 2 * n, 1, MPI_INT, comm, &req[3]), "iallgather");
	check(MPI_Ireduce(a, b + 3 * n, 2, MPI_INT, MPI_SUM, 0, comm, &req[4]), "ireduce");
	check(MPI_Iscan(a, b + 3 * n + 2, 1, MPI_INT, MPI_SUM, comm, &req[5]), "iscan");
	check(MPI_Waitall(6, req, MPI_STATUSES_IGNORE), "waitall");
	free(a);
	free(b);
	free(counts);
	free(displs);
	free(types);
}

/* Point-to-point odds and ends, on WORLD: rank 0 and 1 only. */
static void p2p(int rank)
{
	int x[4] = { 0 }, flag = 0, idx;
	MPI_Status st;
	MPI_Message msg;
	MPI_Request req[2];
	if (rank > 1)
		return;
	int other = 1 - rank;
	if (rank == 0) {
		static char bsend_buf[1024];
		int size = sizeof(bsend_buf);
		check(MPI_Ssend(x, 1, MPI_INT, 1, 70, MPI_COMM_WORLD), "ssend");
		check(MPI_Buffer_attach(bsend_buf, size), "buffer_attach");
		check(MPI_Bsend(x, 2, MPI_INT, 1, 71, MPI_COMM_WORLD), "bsend");
		check(MPI_Buffer_detach(bsend_buf, &size), "buffer_detach");
		check(MPI_Recv(x, 0, MPI_INT, 1, 72, MPI_COMM_WORLD, &st), "ready?");
		check(MPI_Rsend(x, 3, MPI_INT, 1, 73, MPI_COMM_WORLD), "rsend");
		check(MPI_Send(x, 4, MPI_INT, 1, 74, MPI_COMM_WORLD), "send for mprobe");
		check(MPI_Send(x, 1, MPI_INT, 1, 75, MPI_COMM_WORLD), "send for improbe");
		sent += 5;
	} else {
		check(MPI_Recv(x, 1, MPI_INT, 0, 70, MPI_COMM_WORLD, &st), "recv ssend");
		check(MPI_Recv(x, 2, MPI_INT, 0, 71, MPI_COMM_WORLD, &st), "recv bsend");
		check(MPI_Irecv(x, 3, MPI_INT, 0, 73, MPI_COMM_WORLD, &req[0]), "irecv for rsend");
		check(MPI_Send(x, 0, MPI_INT, 0, 72, MPI_COMM_WORLD), "ready");
		sent++;
		do
			check(MPI_Testany(1, req, &idx, &flag, &st), "testany");
		while (!flag);
		check(MPI_Mprobe(0, 74, MPI_COMM_WORLD, &msg, &st), "mprobe");
		check(MPI_Mrecv(x, 4, MPI_INT, &msg, &st), "mrecv");
		flag = 0;
		while (!flag)
			check(MPI_Improbe(0, 75, MPI_COMM_WORLD, &flag, &msg, &st), "improbe");
		check(MPI_Imrecv(x, 1, MPI_INT, &msg, &req[0]), "imrecv");
		check(MPI_Wait(&req[0], &st), "wait imrecv");
	}
	/* Both: Sendrecv_replace, then persistent pairs started together, an Iprobe. */
	check(MPI_Sendrecv_replace(x, 2, MPI_INT, other, 76, other, 76, MPI_COMM_WORLD, &st), "replace");
	sent++;
	int y[2] = { 0 }, z[2];
	check(MPI_Send_init(y, 2, MPI_INT, other, 77, MPI_COMM_WORLD, &req[0]), "send_init");
	check(MPI_Recv_init(z, 2, MPI_INT, other, 77, MPI_COMM_WORLD, &req[1]), "recv_init");
	for (int i = 0; i < 2; i++) {
		check(MPI_Startall(2, req), "startall");
		check(MPI_Waitall(2, req, MPI_STATUSES_IGNORE), "waitall persistent");
		sent++;
	}
	check(MPI_Request_free(&req[0]), "free");
	check(MPI_Request_free(&req[1]), "free");
	check(MPI_Iprobe(other, 99, MPI_COMM_WORLD, &flag, &st), "iprobe");
}

int main(int argc, char **argv)
{
	int rank, n;
	check(MPI_Init(&argc, &argv), "init");
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &n);
	if (n < 4 || n % 2) {
		if (!rank)
			fprintf(stderr, "mpi-comms: needs an even number of ranks, at least 4\n");
		MPI_Finalize();
		return 2;
	}
	MPI_Comm dup, dupi, idup, node, first, group, cart, row, graph, dist, inter, merged, half;
	MPI_Request req;
	MPI_Group world_group, low_group;
	check(MPI_Comm_dup(MPI_COMM_WORLD, &dup), "dup");
	check(MPI_Comm_set_name(dup, "the duplicate"), "set_name");
	check(MPI_Comm_dup_with_info(dup, MPI_INFO_NULL, &dupi), "dup_with_info");
	check(MPI_Comm_idup(MPI_COMM_WORLD, &idup, &req), "idup");
	check(MPI_Wait(&req, MPI_STATUS_IGNORE), "wait idup");
	check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node), "split_type");
	/* The lower half of WORLD, made over WORLD (create) and over itself (create_group). */
	int lows[64];
	for (int i = 0; i < n / 2; i++)
		lows[i] = i;
	MPI_Comm_group(MPI_COMM_WORLD, &world_group);
	MPI_Group_incl(world_group, n / 2, lows, &low_group);
	check(MPI_Comm_create(MPI_COMM_WORLD, low_group, &first), "create");
	group = MPI_COMM_NULL;
	if (rank < n / 2)
		check(MPI_Comm_create_group(MPI_COMM_WORLD, low_group, 5, &group), "create_group");
	int dims[2] = { 2, n / 2 }, periods[2] = { 0, 1 }, remain[2] = { 0, 1 };
	check(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart), "cart_create");
	check(MPI_Cart_sub(cart, remain, &row), "cart_sub");
	int *index = malloc((size_t)n * sizeof(int)), *edges = malloc((size_t)n * sizeof(int));
	for (int i = 0; i < n; i++) {
		index[i] = i + 1;
		edges[i] = (i + 1) % n;
	}
	check(MPI_Graph_create(MPI_COMM_WORLD, n, index, edges, 0, &graph), "graph_create");
	int src = (rank + n - 1) % n, dst = (rank + 1) % n, weight = 1;
	check(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &src, &weight, 1, &dst, &weight,
					     MPI_INFO_NULL, 0, &dist), "dist_graph");
	/* Even and odd halves joined into an inter-communicator, then merged. */
	check(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half), "split");
	check(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 9, &inter), "intercomm");
	check(MPI_Intercomm_merge(inter, rank % 2, &merged), "merge");

	collectives(dup);
	collectives(row);
	collectives(merged);
	if (group != MPI_COMM_NULL)
		collectives(group);
	check(MPI_Barrier(inter), "barrier inter");
	int v = rank, w[64];
	check(MPI_Bcast(&v, 1, MPI_INT, rank % 2 ? 0 : (rank == 0 ? MPI_ROOT : MPI_PROC_NULL), inter), "bcast inter");
	check(MPI_Allgather(&v, 1, MPI_INT, w, 1, MPI_INT, inter), "allgather inter");
	p2p(rank);

	MPI_Comm *all[] = { &dup, &dupi, &idup, &node, &first, &group, &cart, &row, &graph, &dist,
			    &inter, &merged, &half };
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (*all[i] != MPI_COMM_NULL)
			check(MPI_Comm_free(all[i]), "comm_free");
	MPI_Group_free(&low_group);
	MPI_Group_free(&world_group);
	free(index);
	free(edges);
	long total = 0;
	MPI_Reduce(&sent, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
	if (rank == 0)
		printf("{\"messages\": %ld, \"ranks\": %d}\n", total, n);
	MPI_Finalize();
	return 0;
}
