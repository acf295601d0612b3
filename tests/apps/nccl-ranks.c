/* nccl-ranks.c — an MPI job that talks NCCL (built twice: apps/nccl-ranks against the stand-in
 * libnccl.so.2, apps/rccl-ranks against librccl.so.1).  Rank 0 makes the unique id and
 * MPI_Bcasts it; every rank uses device rank % devices and a stream of its own, joins the
 * world communicator, splits it into two halves (color rank < N/2, key rank), and runs this
 * fixed sequence, first on the world communicator and then on its half ("split"):
 *   1. ncclAllReduce, sum, float32: 256, 65536 and 1048576 elements (1 KiB, 256 KiB, 4 MiB)
 *   2. ncclBroadcast, float32, 65536 elements, root 1 (mod the size)
 *   3. ncclAllGather, float32, 16384 elements per rank
 *   4. ncclReduceScatter, sum, float32, 16384 elements per rank
 *   5. ncclReduce, sum, float32, 65536 elements, root 2 (mod the size)
 *   6. a group of two ncclAllReduce: sum of 4096 float32, max of 4096 int32
 *   7. a group of ncclSend to rank+1 and ncclRecv from rank-1 (a ring), 65536 float32
 * ITERATIONS times (argument, default 1).  Every result is checked exactly against values
 * computed on the host; a mismatch is reported and makes every rank exit 1.  At the end rank
 * 0 prints one JSON line, the truth a test compares a profile with:
 *   {"ranks":N,"iterations":I,"version":V,"collectives":[{"op":"allreduce","count":256,
 *    "dtype":"float32","bytes":1024,"root":-1,"redop":"sum","comm":"world","nranks":N,
 *    "seq":1,"group":false},...],"p2p":K}
 * listing rank 0's collectives in call order (bytes = count x the datatype's size, seq = the
 * collective's number on its communicator, from 1) and K = its ncclSend plus ncclRecv calls. */
#include <mpi.h>
#include <nccl.h>

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXC 1048576

static int world_rank;
static int errors;
static int p2p_calls;
static char *truth;
static size_t truth_len, truth_cap;

#define CK(call)                                                                             \
	do {                                                                                 \
		ncclResult_t r_ = (call);                                                    \
		if (r_ != ncclSuccess) {                                                     \
			fprintf(stderr, "rank %d: %s: %s (%s)\n", world_rank, #call,         \
				ncclGetErrorString(r_), ncclGetLastError(NULL));             \
			MPI_Abort(MPI_COMM_WORLD, 1);                                        \
		}                                                                            \
	} while (0)
#define HK(call)                                                                             \
	do {                                                                                 \
		if ((call) != hipSuccess) {                                                  \
			fprintf(stderr, "rank %d: %s failed\n", world_rank, #call);          \
			MPI_Abort(MPI_COMM_WORLD, 1);                                        \
		}                                                                            \
	} while (0)

struct ctx {
	ncclComm_t comm;
	const char *name;
	int rank, size;
	uint32_t seq;
	hipStream_t stream;
	float *hs, *hr;          /* host buffers */
	void *ds, *dr;           /* device buffers */
};

static void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void note(const char *fmt, ...)
{
	va_list ap;
	int n;
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(truth + truth_len, truth_cap - truth_len, fmt, ap);
		va_end(ap);
		if (n >= 0 && truth_len + (size_t)n < truth_cap)
			break;
		truth_cap = truth_cap * 2 + (size_t)n + 256;
		truth = realloc(truth, truth_cap);
		if (!truth)
			abort();
	}
	truth_len += (size_t)n;
}

static void record(struct ctx *c, const char *op, size_t count, const char *dtype, size_t size,
		   int root, const char *redop, int group)
{
	note("%s{\"op\":\"%s\",\"count\":%zu,\"dtype\":\"%s\",\"bytes\":%zu,\"root\":%d,"
	     "\"redop\":\"%s\",\"comm\":\"%s\",\"nranks\":%d,\"seq\":%u,\"group\":%s}",
	     truth_len && truth[truth_len - 1] == '}' ? "," : "", op, count, dtype, count * size,
	     root, redop, c->name, c->size, ++c->seq, group ? "true" : "false");
}

static void mismatch(struct ctx *c, const char *what, size_t i, double got, double want)
{
	if (errors++ < 10)
		fprintf(stderr, "rank %d (%s rank %d): %s: element %zu is %g, want %g\n", world_rank,
			c->name, c->rank, what, i, got, want);
}

static void put(struct ctx *c, size_t bytes)
{
	HK(hipMemcpy(c->ds, c->hs, bytes, hipMemcpyHostToDevice));
}

static void get(struct ctx *c, size_t bytes)
{
	HK(hipStreamSynchronize(c->stream));
	HK(hipMemcpy(c->hr, c->dr, bytes, hipMemcpyDeviceToHost));
}

static void allreduce(struct ctx *c, size_t count)
{
	size_t i;
	int m = c->size;
	for (i = 0; i < count; i++)
		c->hs[i] = (float)(c->rank + 1 + (int)(i % 5));
	put(c, count * 4);
	CK(ncclAllReduce(c->ds, c->dr, count, ncclFloat32, ncclSum, c->comm, c->stream));
	record(c, "allreduce", count, "float32", 4, -1, "sum", 0);
	get(c, count * 4);
	for (i = 0; i < count; i++) {
		float want = (float)(m * (m + 1) / 2 + m * (int)(i % 5));
		if (c->hr[i] != want)
			mismatch(c, "allreduce", i, c->hr[i], want);
	}
}

static void broadcast(struct ctx *c, size_t count, int root)
{
	size_t i;
	for (i = 0; i < count; i++)
		c->hs[i] = c->rank == root ? (float)(i % 1000) + 0.5f : -1.0f;
	put(c, count * 4);
	CK(ncclBroadcast(c->ds, c->dr, count, ncclFloat32, root, c->comm, c->stream));
	record(c, "broadcast", count, "float32", 4, root, "none", 0);
	get(c, count * 4);
	for (i = 0; i < count; i++)
		if (c->hr[i] != (float)(i % 1000) + 0.5f)
			mismatch(c, "broadcast", i, c->hr[i], (float)(i % 1000) + 0.5f);
}

static void allgather(struct ctx *c, size_t count)
{
	size_t i, q;
	for (i = 0; i < count; i++)
		c->hs[i] = (float)(c->rank * 20000 + (int)i);
	put(c, count * 4);
	CK(ncclAllGather(c->ds, c->dr, count, ncclFloat32, c->comm, c->stream));
	record(c, "allgather", count, "float32", 4, -1, "none", 0);
	get(c, count * 4 * (size_t)c->size);
	for (q = 0; q < (size_t)c->size; q++)
		for (i = 0; i < count; i++)
			if (c->hr[q * count + i] != (float)(q * 20000 + i))
				mismatch(c, "allgather", q * count + i, c->hr[q * count + i],
					 (float)(q * 20000 + i));
}

static void reducescatter(struct ctx *c, size_t count)
{
	size_t i, all = count * (size_t)c->size;
	int m = c->size;
	for (i = 0; i < all; i++)
		c->hs[i] = (float)(c->rank + 1 + (int)(i % 3));
	put(c, all * 4);
	CK(ncclReduceScatter(c->ds, c->dr, count, ncclFloat32, ncclSum, c->comm, c->stream));
	record(c, "reducescatter", count, "float32", 4, -1, "sum", 0);
	get(c, count * 4);
	for (i = 0; i < count; i++) {
		float want = (float)(m * (m + 1) / 2 + m * (int)(((size_t)c->rank * count + i) % 3));
		if (c->hr[i] != want)
			mismatch(c, "reducescatter", i, c->hr[i], want);
	}
}

static void reduce(struct ctx *c, size_t count, int root)
{
	size_t i;
	int m = c->size;
	for (i = 0; i < count; i++)
		c->hs[i] = (float)(c->rank + 1 + (int)(i % 5));
	put(c, count * 4);
	CK(ncclReduce(c->ds, c->dr, count, ncclFloat32, ncclSum, root, c->comm, c->stream));
	record(c, "reduce", count, "float32", 4, root, "sum", 0);
	get(c, count * 4);
	for (i = 0; c->rank == root && i < count; i++) {
		float want = (float)(m * (m + 1) / 2 + m * (int)(i % 5));
		if (c->hr[i] != want)
			mismatch(c, "reduce", i, c->hr[i], want);
	}
}

/* Two all-reduces in one group: a float sum in the first halves of the buffers, an int32
 * max in the second. */
static void grouped(struct ctx *c, size_t count)
{
	size_t i;
	int m = c->size;
	int32_t *is = (int32_t *)(c->hs + count), *ir = (int32_t *)(c->hr + count);
	for (i = 0; i < count; i++) {
		c->hs[i] = (float)(c->rank + 1 + (int)(i % 5));
		is[i] = c->rank * 10 + (int32_t)(i % 10);
	}
	put(c, 2 * count * 4);
	CK(ncclGroupStart());
	CK(ncclAllReduce(c->ds, c->dr, count, ncclFloat32, ncclSum, c->comm, c->stream));
	record(c, "allreduce", count, "float32", 4, -1, "sum", 1);
	CK(ncclAllReduce((char *)c->ds + count * 4, (char *)c->dr + count * 4, count, ncclInt32,
			 ncclMax, c->comm, c->stream));
	record(c, "allreduce", count, "int32", 4, -1, "max", 1);
	CK(ncclGroupEnd());
	get(c, 2 * count * 4);
	for (i = 0; i < count; i++) {
		float want = (float)(m * (m + 1) / 2 + m * (int)(i % 5));
		int32_t iwant = (m - 1) * 10 + (int32_t)(i % 10);
		if (c->hr[i] != want)
			mismatch(c, "grouped allreduce (sum)", i, c->hr[i], want);
		if (ir[i] != iwant)
			mismatch(c, "grouped allreduce (max)", i, ir[i], iwant);
	}
}

static void ring(struct ctx *c, size_t count)
{
	size_t i;
	int m = c->size, next = (c->rank + 1) % m, prev = (c->rank + m - 1) % m;
	for (i = 0; i < count; i++)
		c->hs[i] = (float)(c->rank * 1000 + (int)(i % 1000));
	put(c, count * 4);
	CK(ncclGroupStart());
	CK(ncclSend(c->ds, count, ncclFloat32, next, c->comm, c->stream));
	CK(ncclRecv(c->dr, count, ncclFloat32, prev, c->comm, c->stream));
	CK(ncclGroupEnd());
	p2p_calls += 2;
	get(c, count * 4);
	for (i = 0; i < count; i++) {
		float want = (float)(prev * 1000 + (int)(i % 1000));
		if (c->hr[i] != want)
			mismatch(c, "send/recv ring", i, c->hr[i], want);
	}
}

static void sequence(struct ctx *c)
{
	allreduce(c, 256);
	allreduce(c, 65536);
	allreduce(c, 1048576);
	broadcast(c, 65536, 1 % c->size);
	allgather(c, 16384);
	reducescatter(c, 16384);
	reduce(c, 65536, 2 % c->size);
	grouped(c, 4096);
	ring(c, 65536);
}

static void setup(struct ctx *c, ncclComm_t comm, const char *name, hipStream_t s)
{
	int dev = -1;
	c->comm = comm;
	c->name = name;
	c->stream = s;
	CK(ncclCommUserRank(comm, &c->rank));
	CK(ncclCommCount(comm, &c->size));
	CK(ncclCommCuDevice(comm, &dev));
	c->hs = malloc(MAXC * sizeof(float));
	c->hr = malloc(MAXC * sizeof(float));
	if (!c->hs || !c->hr)
		MPI_Abort(MPI_COMM_WORLD, 1);
	HK(hipMalloc(&c->ds, MAXC * sizeof(float)));
	HK(hipMalloc(&c->dr, MAXC * sizeof(float)));
}

static void teardown(struct ctx *c)
{
	HK(hipFree(c->ds));
	HK(hipFree(c->dr));
	free(c->hs);
	free(c->hr);
	CK(ncclCommDestroy(c->comm));
}

int main(int argc, char **argv)
{
	int n, ndev = 1, it, iters = argc > 1 ? atoi(argv[1]) : 1, version = 0, all_errors = 0;
	ncclUniqueId id;
	ncclComm_t world, half;
	hipStream_t s;
	struct ctx w = {0}, h = {0};
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
	MPI_Comm_size(MPI_COMM_WORLD, &n);
	if (iters < 1) {
		if (!world_rank)
			fprintf(stderr, "usage: nccl-ranks [ITERATIONS >= 1]\n");
		MPI_Finalize();
		return 2;
	}
	if (world_rank == 0)
		CK(ncclGetUniqueId(&id));
	MPI_Bcast(&id, sizeof(id), MPI_BYTE, 0, MPI_COMM_WORLD);
	HK(hipGetDeviceCount(&ndev));
	HK(hipSetDevice(world_rank % ndev));
	HK(hipStreamCreate(&s));
	CK(ncclGetVersion(&version));
	CK(ncclCommInitRank(&world, n, id, world_rank));
	CK(ncclCommSplit(world, world_rank < n / 2 ? 0 : 1, world_rank, &half, NULL));
	setup(&w, world, "world", s);
	setup(&h, half, "split", s);
	for (it = 0; it < iters; it++) {
		sequence(&w);
		sequence(&h);
	}
	teardown(&h);
	teardown(&w);
	HK(hipStreamDestroy(s));
	MPI_Allreduce(&errors, &all_errors, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (world_rank == 0 && !all_errors)
		printf("{\"ranks\":%d,\"iterations\":%d,\"version\":%d,\"collectives\":[%s],"
		       "\"p2p\":%d}\n", n, iters, version, truth ? truth : "", p2p_calls);
	free(truth);
	MPI_Finalize();
	return all_errors ? 1 : 0;
}
