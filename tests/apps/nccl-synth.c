/* nccl-synth.c — writes the trace of a synthetic 4-rank NCCL job into a directory, for the
 * end-to-end test of tprof-analyze's NCCL outputs (func/t-nccl-synth.sh): per iteration an
 * AllReduce (1 MiB), a Broadcast from rank 1, an AllGather, and a group of an AllReduce with a
 * ring of sends and receives, on one stream per rank; AllReduces on the two halves of a split
 * communicator; and at the end one AllReduce that rank 3 never called.  Device durations
 * differ by rank and iteration, and so do the ranks' entries (a different rank enters last
 * each time).  Prints the ground truth: instances=N complete=N.  Usage: nccl-synth DIR
 * [ITERATIONS] (default 4). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "../unit/ncclw.h"

#define N 4
#define COMM 0x1234abcdu
#define HALF0 0x2222u
#define HALF1 0x3333u
#define F32 7
#define BF16 9

static struct nw_rank r[N];
static uint32_t cseq[N];            /* collectives on COMM, per rank */
static uint32_t hseq[N];            /* on the rank's half */
static uint32_t sseq[N], rseq[N];   /* sends to the next rank, receives from the previous */

static uint64_t stream_of(int i)
{
	return 0x7f0000001000ull + 0x100 * (uint64_t)i;
}

/* An operation outside a group on rank i entered at t; its device span start..end. */
static void coll(int i, uint8_t op, const char *name, uint64_t t, uint64_t comm, uint32_t seq,
		 int32_t rank, int32_t nranks, uint64_t count, uint8_t dtype, unsigned dsize, int32_t root,
		 int64_t start, int64_t end)
{
	uint8_t redop = op == TPROF_NCCL_ALLREDUCE ? 0 : 0xff;
	uint64_t c = nw_call(&r[i], name, t, t + 3000, nw_args(op, comm, count, dtype, dsize, redop, seq, 0),
			     nw_args2(stream_of(i), 0, root, rank, nranks, i));
	nw_device(&r[i], name, (uint64_t)end + 500 + (uint64_t)i, c, t, start, end, stream_of(i),
		  nw_coll(comm, seq, op, dtype, 1, rank, nranks, 0));
}

int main(int argc, char **argv)
{
	if (argc != 2 && argc != 3) {
		fprintf(stderr, "usage: nccl-synth DIR [ITERATIONS]\n");
		return 2;
	}
	int iters = argc == 3 ? atoi(argv[2]) : 4;
	if (iters < 1 || iters > 1000 || (mkdir(argv[1], 0755) < 0 && errno != EEXIST)) {
		fprintf(stderr, "nccl-synth: bad iterations or directory %s\n", argv[1]);
		return 1;
	}
	const uint64_t step = 1000000, end = 10000 + (uint64_t)(iters + 2) * step;
	for (int i = 0; i < N; i++)
		nw_begin(&r[i], argv[1], "hostA", 900 + i, i, N, end);
	int instances = 0, complete = 0;
	for (int it = 0; it < iters; it++) {
		uint64_t t = 10000 + (uint64_t)it * step;
		int late = it % N;   /* enters last this iteration */
		for (int i = 0; i < N; i++) {
			uint64_t e = t + (i == late ? 20000 : 1000 * (uint64_t)i);
			coll(i, TPROF_NCCL_ALLREDUCE, "ncclAllReduce", e, COMM, ++cseq[i], i, N, 262144, F32, 4, -1,
			     (int64_t)t + 25000, (int64_t)t + 125000 + 7000 * i + 300 * it);
		}
		t += 200000;
		for (int i = 0; i < N; i++)
			coll(i, TPROF_NCCL_BROADCAST, "ncclBroadcast", t + 500 * (uint64_t)i, COMM, ++cseq[i], i, N,
			     65536, BF16, 2, 1, (int64_t)t + 5000, (int64_t)t + 45000 + 1000 * i);
		t += 100000;
		for (int i = 0; i < N; i++)
			coll(i, TPROF_NCCL_ALLGATHER, "ncclAllGather", t + 700 * (uint64_t)(N - i), COMM, ++cseq[i],
			     i, N, 16384, F32, 4, -1, (int64_t)t + 8000, (int64_t)t + 60000 + 3000 * i);
		t += 100000;
		for (int i = 0; i < N; i++) {
			uint64_t s = stream_of(i), b = t + 100 * (uint64_t)i;
			struct tprof_nccl_args gs = nw_args(TPROF_NCCL_GROUP_START, 0, 0, 0, 0, 0xff, 0, 0);
			uint64_t g = nw_call(&r[i], "ncclGroupStart", b, b + 100, gs, nw_args2(0, 0, -1, 0, 0, -1));
			nw_call(&r[i], "ncclAllReduce", b + 200, b + 300,
				nw_args(TPROF_NCCL_ALLREDUCE, COMM, 1024, F32, 4, 0, ++cseq[i], TPROF_NCCLF_GROUPED),
				nw_args2(s, g, -1, i, N, i));
			nw_call(&r[i], "ncclSend", b + 400, b + 500,
				nw_args(TPROF_NCCL_SEND, COMM, 4096, F32, 4, 0xff, ++sseq[i], TPROF_NCCLF_GROUPED),
				nw_args2(s, g, (i + 1) % N, i, N, i));
			nw_call(&r[i], "ncclRecv", b + 600, b + 700,
				nw_args(TPROF_NCCL_RECV, COMM, 4096, F32, 4, 0xff, ++rseq[i], TPROF_NCCLF_GROUPED),
				nw_args2(s, g, (i + N - 1) % N, i, N, i));
			struct tprof_nccl_args ge = nw_args(TPROF_NCCL_GROUP_END, 0, 0, 0, 0, 0xff, 0, 0);
			uint64_t e = nw_call(&r[i], "ncclGroupEnd", b + 800, b + 2000, ge, nw_args2(0, g, -1, 0, 0, -1));
			nw_device(&r[i], "ncclGroupEnd", t + 90000 + (uint64_t)i, e, b + 800, (int64_t)t + 10000,
				  (int64_t)t + 80000 + 2000 * i,
				  s, nw_coll(COMM, cseq[i], TPROF_NCCL_GROUP_END, F32, 3, i, N, g));
		}
		t += 100000;
		for (int i = 0; i < N; i++)
			coll(i, TPROF_NCCL_ALLREDUCE, "ncclAllReduce", t + 100 * (uint64_t)i, i % 2 ? HALF1 : HALF0,
			     ++hseq[i], i / 2, 2, 8192, F32, 4, -1, (int64_t)t + 3000, (int64_t)t + 33000 + 500 * i);
		instances += 6;
		complete += 6;
	}
	/* Rank 3 never calls this one. */
	uint64_t t = 10000 + (uint64_t)iters * step;
	for (int i = 0; i < N - 1; i++)
		coll(i, TPROF_NCCL_ALLREDUCE, "ncclAllReduce", t, COMM, ++cseq[i], i, N, 256, F32, 4, -1,
		     (int64_t)t + 5000, (int64_t)t + 15000);
	instances++;
	for (int i = 0; i < N; i++)
		nw_end(&r[i]);
	printf("instances=%d complete=%d\n", instances, complete);
	return 0;
}
