/* test-mpi-trace.c — not a test itself: writes a synthetic trace of an MPI job for the OTF2
 * tests, record by record, as the recorder would: 4 ranks on two hosts, each with a main
 * thread and a worker, the communicators (MPI_COMM_WORLD, MPI_COMM_SELF, a split into even
 * and odd ranks), and in every round:
 *   a ring of blocking sends and receives         4 MPI_Send, 4 MPI_Recv
 *   MPI_Sendrecv between pairs (0-1, 2-3)          4 sends and 4 receives
 *   Irecv + Isend + Waitall                        4 Isend, 4 Irecv
 *   Irecv + Isend, each with its own MPI_Wait; the send's completion is written before
 *   its Wait's call record (both orders occur)     4 Isend, 4 Irecv
 *   Barrier and Allreduce on the world, Bcast on the split
 *   Iallreduce + Wait
 *   persistent Send_init/Recv_init, Startall, Waitall      4 Isend, 4 Irecv
 *   an Irecv cancelled, a send to MPI_PROC_NULL (no message)
 * so a round holds 20 messages.  Around them: ranges, a mark, a counter, a step per round,
 * HIP calls with the kernel and copy they ran on the device, a roctx range that ends on the
 * worker.  After the rounds, each rank sends one more message (Isend, Irecv, Waitall) on a
 * communicator no COMM record describes: the trace cannot say who its peers are.  Rank 3
 * never returns from MPI_Finalize, inside a range it never closed.
 *     test-mpi-trace DIR [ROUNDS]          (DIR must exist; default 1 round) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "writer.h"

#define RANKS 4
#define E18 1700000000000000000ull
#define ROUND_NS 100000ull

enum str {
	S_CLOCK = 1, S_HOST, S_PID, S_RANK, S_WORLD_SIZE, S_ARG, S_HOSTA, S_HOSTB, S_EXE, S_MAIN,
	S_WORKER, S_INIT, S_FINALIZE, S_SEND, S_RECV, S_SENDRECV, S_ISEND, S_IRECV, S_WAIT,
	S_WAITALL, S_BARRIER, S_ALLREDUCE, S_BCAST, S_IALLREDUCE, S_SEND_INIT, S_RECV_INIT,
	S_STARTALL, S_CANCEL, S_COMPUTE, S_OUTER, S_MARK, S_LOSS, S_LAUNCH, S_MEMCPY, S_SYNC,
	S_KERNEL, S_COPY, S_ROCTX, S_EVENS, S_NSTR
};

static const char *const strs[S_NSTR] = {
	[S_CLOCK] = "clock", [S_HOST] = "host", [S_PID] = "pid", [S_RANK] = "rank",
	[S_WORLD_SIZE] = "world_size", [S_ARG] = "arg", [S_HOSTA] = "node-a", [S_HOSTB] = "node-b",
	[S_EXE] = "./mpi-app", [S_MAIN] = "mpi-app", [S_WORKER] = "worker",
	[S_INIT] = "MPI_Init", [S_FINALIZE] = "MPI_Finalize", [S_SEND] = "MPI_Send",
	[S_RECV] = "MPI_Recv", [S_SENDRECV] = "MPI_Sendrecv", [S_ISEND] = "MPI_Isend",
	[S_IRECV] = "MPI_Irecv", [S_WAIT] = "MPI_Wait", [S_WAITALL] = "MPI_Waitall",
	[S_BARRIER] = "MPI_Barrier", [S_ALLREDUCE] = "MPI_Allreduce", [S_BCAST] = "MPI_Bcast",
	[S_IALLREDUCE] = "MPI_Iallreduce", [S_SEND_INIT] = "MPI_Send_init",
	[S_RECV_INIT] = "MPI_Recv_init", [S_STARTALL] = "MPI_Startall", [S_CANCEL] = "MPI_Cancel",
	[S_COMPUTE] = "compute", [S_OUTER] = "outer", [S_MARK] = "checkpoint", [S_LOSS] = "loss",
	[S_LAUNCH] = "hipLaunchKernel", [S_MEMCPY] = "hipMemcpyAsync",
	[S_SYNC] = "hipDeviceSynchronize", [S_KERNEL] = "vadd", [S_COPY] = "copy HtoD",
	[S_ROCTX] = "handoff", [S_EVENS] = "evens",
};

#define SPLIT_ID 0x5157a11e00000000ull   /* the even/odd split: one id, two communicators */
#define STREAM_S1 0x7f0000001000ull

/* Records of one stream, written as a chunk when the buffer fills. */
struct buf {
	struct tw *w;
	uint32_t stream;
	struct tprof_rec u[8192];
	uint32_t n;
};

static void flush(struct buf *b)
{
	if (b->n)
		tw_chunk(b->w, b->stream, b->u, b->n);
	b->n = 0;
}

static void put(struct buf *b, struct tprof_rec r, const void *ext, uint32_t ext_bytes)
{
	uint32_t units = (ext_bytes + TPROF_UNIT - 1) / TPROF_UNIT;
	if (b->n + 1 + units > sizeof(b->u) / sizeof(b->u[0]))
		flush(b);
	r.ext = (uint8_t)units;
	b->u[b->n++] = r;
	memset(&b->u[b->n], 0, units * TPROF_UNIT);
	if (ext_bytes)
		memcpy(&b->u[b->n], ext, ext_bytes);
	b->n += units;
}

static struct tprof_rec rec(uint16_t kind, uint32_t name, uint64_t t0, uint64_t t1, uint64_t arg,
			    uint8_t flags)
{
	struct tprof_rec r = tw_rec(kind, name, t0, t1, arg);
	r.flags = flags;
	return r;
}

static void prop_int(struct buf *b, uint32_t key, int64_t v)
{
	put(b, rec(TPROF_K_PROP, key, 0, 0, (uint64_t)v, TPROF_PROP_INT), NULL, 0);
}

static void comm(struct buf *b, uint64_t id, uint8_t kind, uint32_t name, uint64_t parent,
		 int my_rank, const int32_t *members, uint32_t n)
{
	uint8_t ext[TPROF_UNIT * 2] = { 0 };
	struct tprof_comm_def d = { id, parent, n, 0, 0, my_rank };
	memcpy(ext, &d, sizeof(d));
	memcpy(ext + TPROF_UNIT, members, n * sizeof(int32_t));
	put(b, rec(TPROF_K_COMM, name, 1, 0, id, kind), ext, TPROF_UNIT + n * sizeof(int32_t));
}

static void mpi(struct buf *b, uint32_t name, uint64_t t0, uint64_t t1, uint64_t corr,
		struct tprof_mpi_args a, const struct tprof_mpi_args2 *a2)
{
	uint8_t ext[2 * TPROF_UNIT] = { 0 };
	memcpy(ext, &a, sizeof(a));
	if (a2)
		memcpy(ext + TPROF_UNIT, a2, sizeof(*a2));
	put(b, rec(TPROF_K_CALL, name, t0, t1, corr, TPROF_DOM_MPI), ext, a2 ? 2 * TPROF_UNIT : TPROF_UNIT);
}

static void mpireq(struct buf *b, uint32_t name, uint64_t t, uint64_t corr, uint8_t flags,
		   struct tprof_mpi_args a, uint64_t req)
{
	struct tprof_mpi_args2 a2 = { .req = req };
	uint8_t ext[2 * TPROF_UNIT];
	a.flags |= flags;   /* the record's flags, and the arguments' own */
	memcpy(ext, &a, sizeof(a));
	memcpy(ext + TPROF_UNIT, &a2, sizeof(a2));
	put(b, rec(TPROF_K_MPIREQ, name, t, 0, corr, flags), ext, sizeof(ext));
}

static struct tprof_mpi_args args(uint8_t op, uint64_t comm_id, int32_t peer, int32_t tag,
				  uint64_t bytes)
{
	return (struct tprof_mpi_args){ .comm = comm_id, .bytes = bytes, .peer = peer, .tag = tag,
					.op = op };
}

/* One round of the job on rank r's main thread, from time t (ns); *kc: the correlation ids
 * of the kernel and the copy it launched. */
static void round_main(struct buf *b, int r, uint64_t t, uint64_t round, uint64_t *corr, uint64_t *kc)
{
	int next = (r + 1) % RANKS, prev = (r + RANKS - 1) % RANKS, pair = r ^ 1;
	uint64_t q = (uint64_t)r << 16 | round << 24;    /* request handles of this round */
	uint64_t split = SPLIT_ID | (uint64_t)(r % 2);
	struct tprof_mpi_args2 a2;

	put(b, rec(TPROF_K_STEP, 0, t, 0, round + 1, 0), NULL, 0);
	/* compute: a kernel and a copy, a mark, a counter */
	put(b, rec(TPROF_K_PUSH, S_COMPUTE, t + 300, 0, 0, 0), NULL, 0);
	put(b, rec(TPROF_K_ABEGIN, S_ROCTX, t + 305, 0, round + 1, 0), NULL, 0);
	struct tprof_call_args ca = { TPROF_SHAPE_LAUNCH, 0, S_KERNEL, STREAM_S1, 0x401000, 0 };
	struct tprof_launch_dims dims = { { 64, 1, 1 }, { 256, 1, 1 }, 0 };
	uint8_t ext[2 * TPROF_UNIT];
	memcpy(ext, &ca, sizeof(ca));
	memcpy(ext + TPROF_UNIT, &dims, sizeof(dims));
	kc[0] = ++*corr;
	put(b, rec(TPROF_K_CALL, S_LAUNCH, t + 310, t + 320, kc[0], TPROF_DOM_HIP), ext, 2 * TPROF_UNIT);
	ca = (struct tprof_call_args){ TPROF_SHAPE_COPY, 0, 0, STREAM_S1, 4096, TPROF_COPY_HTOD };
	kc[1] = ++*corr;
	put(b, rec(TPROF_K_CALL, S_MEMCPY, t + 330, t + 340, kc[1], TPROF_DOM_HIP), &ca, sizeof(ca));
	put(b, rec(TPROF_K_MARK, S_MARK, t + 345, 0, 0, 0), NULL, 0);
	double loss = 1.0 / (double)(round + 1);
	uint64_t bits;
	memcpy(&bits, &loss, sizeof(bits));
	put(b, rec(TPROF_K_COUNTER, S_LOSS, t + 350, 0, bits, 0), NULL, 0);
	put(b, rec(TPROF_K_POP, 0, t + 400, 0, 0, 0), NULL, 0);

	/* ring: even ranks send first, odd ranks receive first */
	struct tprof_mpi_args send = args(TPROF_MPI_SEND, TPROF_COMM_WORLD, next, 7, 1024);
	struct tprof_mpi_args recv = args(TPROF_MPI_RECV, TPROF_COMM_WORLD, prev, 7, 1024);
	mpi(b, r % 2 ? S_RECV : S_SEND, t + 500, t + 520, ++*corr, r % 2 ? recv : send, NULL);
	mpi(b, r % 2 ? S_SEND : S_RECV, t + 530, t + 560, ++*corr, r % 2 ? send : recv, NULL);
	a2 = (struct tprof_mpi_args2){ .bytes = 64, .peer = pair, .tag = 9 };
	mpi(b, S_SENDRECV, t + 600, t + 650, ++*corr,
	    args(TPROF_MPI_SENDRECV, TPROF_COMM_WORLD, pair, 9, 64), &a2);

	/* Irecv + Isend + Waitall; rank 0 posts its receive from any source */
	a2 = (struct tprof_mpi_args2){ .req = q | 1 };
	mpi(b, S_IRECV, t + 700, t + 710, ++*corr,
	    args(TPROF_MPI_IRECV, TPROF_COMM_WORLD, r ? prev : TPROF_MPI_ANY, 11, 2048), &a2);
	a2 = (struct tprof_mpi_args2){ .req = q | 2 };
	mpi(b, S_ISEND, t + 720, t + 730, ++*corr, args(TPROF_MPI_ISEND, TPROF_COMM_WORLD, next, 11, 2048), &a2);
	uint64_t w = ++*corr;
	struct tprof_mpi_args wa = args(TPROF_MPI_WAIT, TPROF_COMM_NONE, TPROF_MPI_NONE, 0, 0);
	wa.nreq = 2;
	mpi(b, S_WAITALL, t + 740, t + 800, w, wa, NULL);
	mpireq(b, S_ISEND, t + 800, w, TPROF_MPIF_NONBLOCKING,
	       args(TPROF_MPI_ISEND, TPROF_COMM_WORLD, next, 11, 2048), q | 2);
	mpireq(b, S_IRECV, t + 800, w, TPROF_MPIF_NONBLOCKING,
	       args(TPROF_MPI_IRECV, TPROF_COMM_WORLD, prev, 11, 2048), q | 1);

	/* Irecv + Isend, one MPI_Wait each; the send's completion comes before its call */
	a2 = (struct tprof_mpi_args2){ .req = q | 3 };
	mpi(b, S_IRECV, t + 810, t + 815, ++*corr, args(TPROF_MPI_IRECV, TPROF_COMM_WORLD, prev, 12, 512), &a2);
	a2 = (struct tprof_mpi_args2){ .req = q | 4 };
	mpi(b, S_ISEND, t + 820, t + 825, ++*corr, args(TPROF_MPI_ISEND, TPROF_COMM_WORLD, next, 12, 512), &a2);
	w = ++*corr;
	wa.nreq = 1;
	mpi(b, S_WAIT, t + 830, t + 850, w, wa, NULL);
	mpireq(b, S_IRECV, t + 850, w, TPROF_MPIF_NONBLOCKING,
	       args(TPROF_MPI_IRECV, TPROF_COMM_WORLD, prev, 12, 512), q | 3);
	w = ++*corr;
	mpireq(b, S_ISEND, t + 880, w, TPROF_MPIF_NONBLOCKING,
	       args(TPROF_MPI_ISEND, TPROF_COMM_WORLD, next, 12, 512), q | 4);
	mpi(b, S_WAIT, t + 860, t + 880, w, wa, NULL);

	/* collectives: world, then the even/odd split (its rank 0 is the root) */
	struct tprof_mpi_args ka = args(TPROF_MPI_COLL, TPROF_COMM_WORLD, TPROF_MPI_NONE, 0, 0);
	ka.seq = (uint32_t)(2 * round + 1);
	mpi(b, S_BARRIER, t + 1000, t + 1050, ++*corr, ka, NULL);
	ka.seq++;
	ka.bytes = 8;
	a2 = (struct tprof_mpi_args2){ .bytes = 8 };
	mpi(b, S_ALLREDUCE, t + 1100, t + 1150, ++*corr, ka, &a2);
	ka = args(TPROF_MPI_COLL, split, 0, 0, r < 2 ? 16 : 0);
	ka.seq = (uint32_t)round + 1;
	a2 = (struct tprof_mpi_args2){ .bytes = r < 2 ? 0 : 16 };
	mpi(b, S_BCAST, t + 1200, t + 1250, ++*corr, ka, &a2);

	/* Iallreduce + Wait */
	ka = args(TPROF_MPI_ICOLL, TPROF_COMM_WORLD, TPROF_MPI_NONE, 0, 8);
	ka.flags = TPROF_MPIF_NONBLOCKING;
	a2 = (struct tprof_mpi_args2){ .req = q | 5, .bytes = 8 };
	mpi(b, S_IALLREDUCE, t + 1300, t + 1310, ++*corr, ka, &a2);
	w = ++*corr;
	mpi(b, S_WAIT, t + 1320, t + 1350, w, wa, NULL);
	mpireq(b, S_IALLREDUCE, t + 1350, w, TPROF_MPIF_NONBLOCKING, ka, q | 5);

	/* persistent requests: made, started, completed */
	struct tprof_mpi_args pa = args(TPROF_MPI_ISEND, TPROF_COMM_WORLD, next, 13, 32);
	pa.flags = TPROF_MPIF_PERSISTENT;
	a2 = (struct tprof_mpi_args2){ .req = q | 6 };
	mpi(b, S_SEND_INIT, t + 1400, t + 1405, ++*corr, pa, &a2);
	struct tprof_mpi_args pr = args(TPROF_MPI_IRECV, TPROF_COMM_WORLD, prev, 13, 32);
	pr.flags = TPROF_MPIF_PERSISTENT;
	a2 = (struct tprof_mpi_args2){ .req = q | 7 };
	mpi(b, S_RECV_INIT, t + 1406, t + 1410, ++*corr, pr, &a2);
	w = ++*corr;
	struct tprof_mpi_args sa = args(TPROF_MPI_START, TPROF_COMM_NONE, TPROF_MPI_NONE, 0, 0);
	sa.nreq = 2;
	mpi(b, S_STARTALL, t + 1420, t + 1430, w, sa, NULL);
	mpireq(b, S_SEND_INIT, t + 1430, w, TPROF_MPIF_STARTED | TPROF_MPIF_PERSISTENT, pa, q | 6);
	mpireq(b, S_RECV_INIT, t + 1430, w, TPROF_MPIF_STARTED | TPROF_MPIF_PERSISTENT, pr, q | 7);
	w = ++*corr;
	wa.nreq = 2;
	mpi(b, S_WAITALL, t + 1440, t + 1460, w, wa, NULL);
	mpireq(b, S_SEND_INIT, t + 1460, w, TPROF_MPIF_PERSISTENT, pa, q | 6);
	mpireq(b, S_RECV_INIT, t + 1460, w, TPROF_MPIF_PERSISTENT, pr, q | 7);

	/* an Irecv cancelled, a send to MPI_PROC_NULL */
	a2 = (struct tprof_mpi_args2){ .req = q | 8 };
	mpi(b, S_IRECV, t + 1500, t + 1505, ++*corr, args(TPROF_MPI_IRECV, TPROF_COMM_WORLD, prev, 99, 8), &a2);
	mpi(b, S_CANCEL, t + 1510, t + 1515, ++*corr, args(TPROF_MPI_OTHER, TPROF_COMM_NONE, TPROF_MPI_NONE, 0, 0), NULL);
	w = ++*corr;
	wa.nreq = 1;
	mpi(b, S_WAIT, t + 1520, t + 1530, w, wa, NULL);
	mpireq(b, S_IRECV, t + 1530, w, TPROF_MPIF_NONBLOCKING | TPROF_MPIF_CANCELLED,
	       args(TPROF_MPI_IRECV, TPROF_COMM_WORLD, TPROF_MPI_NONE, 0, 0), q | 8);
	struct tprof_mpi_args na = args(TPROF_MPI_SEND, TPROF_COMM_WORLD, TPROF_MPI_PROCNULL, 3, 0);
	na.flags = TPROF_MPIF_PROC_NULL;
	mpi(b, S_SEND, t + 1550, t + 1560, ++*corr, na, NULL);
}

/* The worker: waits for the device, writes down what it ran (device times are the host's
 * CLOCK_MONOTONIC, which the ticks of this trace are too), and ends the roctx range the
 * main thread began. */
static void round_worker(struct buf *b, uint64_t t, uint64_t round, const uint64_t *kc)
{
	struct tprof_call_args ca = { TPROF_SHAPE_SYNC, 0, 0, 0, 0, 0 };
	put(b, rec(TPROF_K_CALL, S_SYNC, t + 330, t + 390, 0, TPROF_DOM_HIP), &ca, sizeof(ca));
	struct tprof_devop op = { .start_ns = (int64_t)(t + 322), .end_ns = (int64_t)(t + 338),
				  .stream = STREAM_S1, .device = 0, .launch_stream = 1,
				  .launch_t0 = t + 310, .dims = { { 64, 1, 1 }, { 256, 1, 1 }, 0 } };
	put(b, rec(TPROF_K_DEVICE, S_KERNEL, t + 392, 0, kc[0], TPROF_DEVOP_KERNEL), &op, sizeof(op));
	op = (struct tprof_devop){ .start_ns = (int64_t)(t + 341), .end_ns = (int64_t)(t + 352),
				   .stream = STREAM_S1, .device = 0, .launch_stream = 1,
				   .launch_t0 = t + 330, .bytes = 4096, .copy_kind = TPROF_COPY_HTOD };
	put(b, rec(TPROF_K_DEVICE, S_COPY, t + 393, 0, kc[1], TPROF_DEVOP_COPY), &op, sizeof(op));
	put(b, rec(TPROF_K_AEND, 0, t + 395, 0, round + 1, 0), NULL, 0);
}

static void write_rank(const char *dir, int r, uint64_t rounds)
{
	char path[512];
	const char *host = strs[r < 2 ? S_HOSTA : S_HOSTB];
	int pid = 1000 + r;
	snprintf(path, sizeof(path), "%s/%s.%d.%08x.tpf", dir, host, pid, r + 1);
	struct tw w;
	if (tw_open(&w, path, (uint64_t)r + 1) < 0) {
		perror(path);
		exit(1);
	}
	static struct buf b0, b1, b2;
	b0 = (struct buf){ .w = &w, .stream = 0 };
	b1 = (struct buf){ .w = &w, .stream = 1 };
	b2 = (struct buf){ .w = &w, .stream = 2 };
	for (uint32_t i = 1; i < S_NSTR; i++)
		b0.n += tw_string(b0.u + b0.n, i, strs[i]);
	prop_int(&b0, S_CLOCK, TPROF_CLOCKSRC_MONOTONIC);
	put(&b0, rec(TPROF_K_PROP, S_HOST, 0, 0, r < 2 ? S_HOSTA : S_HOSTB, 0), NULL, 0);
	prop_int(&b0, S_PID, pid);
	prop_int(&b0, S_RANK, r);
	prop_int(&b0, S_WORLD_SIZE, RANKS);
	put(&b0, rec(TPROF_K_PROP, S_ARG, 0, 0, S_EXE, 0), NULL, 0);
	/* ticks are CLOCK_MONOTONIC ns; node-b's clock reads 5 us later than node-a's */
	uint64_t skew = r < 2 ? 0 : 5000;
	put(&b0, rec(TPROF_K_CLOCK, 0, 0, 0, E18 - skew, TPROF_CLOCK_START), NULL, 0);
	put(&b0, rec(TPROF_K_THREAD, S_MAIN, 0, (uint64_t)pid, 1, 0), NULL, 0);
	put(&b0, rec(TPROF_K_THREAD, S_WORKER, 0, (uint64_t)pid + 10, 2, 0), NULL, 0);
	int32_t world[RANKS] = { 0, 1, 2, 3 }, self[1] = { r }, split[2] = { r % 2, r % 2 + 2 };
	comm(&b0, TPROF_COMM_WORLD, TPROF_COMMK_WORLD, 0, 0, r, world, RANKS);
	comm(&b0, TPROF_COMM_SELF, TPROF_COMMK_SELF, 0, 0, 0, self, 1);
	comm(&b0, SPLIT_ID | (uint64_t)(r % 2), TPROF_COMMK_INTRA, r % 2 ? 0 : S_EVENS,
	     TPROF_COMM_WORLD, r / 2, split, 2);

	uint64_t corr = 0, t0 = 1000 + (uint64_t)r * 3;
	if (r == 3)
		put(&b1, rec(TPROF_K_PUSH, S_OUTER, t0 + 50, 0, 0, 0), NULL, 0);
	mpi(&b1, S_INIT, t0 + 100, t0 + 200, ++corr, args(TPROF_MPI_INIT, TPROF_COMM_NONE, TPROF_MPI_NONE, 0, 0), NULL);
	for (uint64_t k = 0; k < rounds; k++) {
		uint64_t t = t0 + 1000 + k * ROUND_NS;
		uint64_t kc[2];
		round_main(&b1, r, t, k, &corr, kc);
		round_worker(&b2, t, k, kc);
	}
	uint64_t te = t0 + 1000 + rounds * ROUND_NS;
	/* a message on a communicator the trace does not describe */
	struct tprof_mpi_args2 a2 = { .req = 0xdead1 };
	mpi(&b1, S_IRECV, te - 500, te - 490, ++corr, args(TPROF_MPI_IRECV, 0xdead, (r + 3) % RANKS, 5, 8), &a2);
	a2.req = 0xdead2;
	mpi(&b1, S_ISEND, te - 480, te - 470, ++corr, args(TPROF_MPI_ISEND, 0xdead, (r + 1) % RANKS, 5, 8), &a2);
	struct tprof_mpi_args wa = args(TPROF_MPI_WAIT, TPROF_COMM_NONE, TPROF_MPI_NONE, 0, 0);
	wa.nreq = 2;
	uint64_t wc = ++corr;
	mpi(&b1, S_WAITALL, te - 460, te - 400, wc, wa, NULL);
	mpireq(&b1, S_ISEND, te - 400, wc, TPROF_MPIF_NONBLOCKING,
	       args(TPROF_MPI_ISEND, 0xdead, (r + 1) % RANKS, 5, 8), 0xdead2);
	mpireq(&b1, S_IRECV, te - 400, wc, TPROF_MPIF_NONBLOCKING,
	       args(TPROF_MPI_IRECV, 0xdead, (r + 3) % RANKS, 5, 8), 0xdead1);
	/* rank 3 is killed inside MPI_Finalize: its call never returns */
	mpi(&b1, S_FINALIZE, te, r == 3 ? 0 : te + 100, ++corr,
	    args(TPROF_MPI_FINALIZE, TPROF_COMM_NONE, TPROF_MPI_NONE, 0, 0), NULL);
	put(&b0, rec(TPROF_K_CLOCK, 0, te + 200, te + 200, E18 - skew + te + 200, TPROF_CLOCK_FINAL), NULL, 0);
	if (r != 3)
		put(&b0, rec(TPROF_K_END, 0, te + 200, 0, 0, TPROF_END_EXIT), NULL, 0);
	flush(&b0);
	flush(&b1);
	flush(&b2);
	tw_close(&w);
}

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: test-mpi-trace DIR [ROUNDS]\n");
		return 2;
	}
	uint64_t rounds = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
	for (int r = 0; r < RANKS; r++)
		write_rank(argv[1], r, rounds ? rounds : 1);
	return 0;
}
