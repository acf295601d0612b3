/* nccl-window.c — writes the trace of a synthetic 2-rank NCCL job into a directory, for
 * func/t-window-arrows.sh: two AllReduces on one communicator.  In the first, rank 0 enters
 * at 10 us and stays in its call until 100 us, its device span 15-30 us; rank 1 enters at
 * 40 us, its span 50-70 us.  A window from 40 us leaves rank 0's call and span out and keeps
 * rank 1's: no arrow may then bind to rank 0's call, which is not drawn, although it ends
 * after rank 1's span starts.  The second, at 200 us, lies whole in such a window (its
 * arrows are drawn).  Usage: nccl-window DIR. */
#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>

#include "../unit/ncclw.h"

#define COMM 0x5151u
#define F32 7

static struct nw_rank r[2];

/* An AllReduce on rank i: its call t0..t1, its device span start..end. */
static void allreduce(int i, uint32_t seq, uint64_t t0, uint64_t t1, int64_t start, int64_t end)
{
	uint64_t stream = 0x7f0000002000ull + 0x100 * (uint64_t)i;
	uint64_t c = nw_call(&r[i], "ncclAllReduce", t0, t1,
			     nw_args(TPROF_NCCL_ALLREDUCE, COMM, 1024, F32, 4, 0, seq, 0),
			     nw_args2(stream, 0, -1, i, 2, i));
	nw_device(&r[i], "ncclAllReduce", (uint64_t)end + 500, c, t0, start, end, stream,
		  nw_coll(COMM, seq, TPROF_NCCL_ALLREDUCE, F32, 1, i, 2, 0));
}

int main(int argc, char **argv)
{
	if (argc != 2 || (mkdir(argv[1], 0755) < 0 && errno != EEXIST)) {
		fprintf(stderr, "usage: nccl-window DIR (a directory that can be made)\n");
		return 2;
	}
	for (int i = 0; i < 2; i++)
		nw_begin(&r[i], argv[1], "hostA", 700 + i, i, 2, 400000);
	allreduce(0, 1, 10000, 100000, 15000, 30000);
	allreduce(1, 1, 40000, 41000, 50000, 70000);
	allreduce(0, 2, 200000, 201000, 210000, 230000);
	allreduce(1, 2, 200500, 201500, 212000, 240000);
	for (int i = 0; i < 2; i++)
		nw_end(&r[i]);
	return 0;
}
