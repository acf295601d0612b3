/* dev-synth.c — writes the trace of one synthetic process whose kernels' device times need
 * putting in order, for func/t-dev-synth.sh: hipLaunchKernel calls on two threads, and the
 * kernels' DEVICE records on the completion thread in launch order, as the recorder writes
 * them, with the times as measured (ticks = CLOCK_MONOTONIC ns):
 *   k1..k3  back to back on stream 1: k2 overlaps k1 by 400 ns (rounding), k3 overlaps k2
 *           by 3 us (more than the timing's resolution)
 *   k4      on stream 2, 5 us before its own launch
 *   k5      on stream 2, overlapping k1..k3 of stream 1 (another stream: left alone)
 *   k6, k7  on stream 1, launched in that order by two threads racing to the stream, and
 *           run the other way round: k7 ends before k6 starts, and keeps its place
 *   k8      on stream 1, alone
 *   k9      on stream 1, of no length, 1.5 us before its launch
 *   k10, k11  on stream 1, launched in that order by one thread, k11 measured before k10 (an
 *           anchor re-taken in between): one thread's stream runs in launch order, k11 goes
 *           after k10
 * and of two NCCL ranks on two other hosts whose device clocks disagree: rank 1's span of
 * an AllReduce ends before rank 0's starts, and the receive of a send from rank 1 ends on
 * rank 0 before the send starts on rank 1 (their arrows would go back in time).
 * Usage: dev-synth DIR */
#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>

#include "../unit/ncclw.h"

struct kernel {
	const char *name;
	uint32_t thread;                /* the launching thread's tprof stream: 1 or 3 */
	uint64_t launch;                /* the call's entry; it returns 1 us later */
	int64_t start, end;             /* as measured */
	uint64_t stream;
	uint64_t written;               /* when the completion thread writes it */
};

/* In launch order: the order the recorder writes a device's operations in. */
static const struct kernel kernels[] = {
	{ "k1", 1, 10000, 20000, 30000, 1, 31000 },
	{ "k2", 1, 13000, 29600, 40000, 1, 41000 },
	{ "k5", 1, 13500, 25000, 35000, 2, 41001 },
	{ "k3", 1, 15000, 37400, 50000, 1, 54000 },
	{ "k4", 1, 100000, 95000, 105000, 2, 111000 },
	{ "k6", 1, 200000, 230000, 240000, 1, 241000 },
	{ "k7", 3, 200500, 210000, 220000, 1, 241001 },
	{ "k8", 1, 300000, 310000, 320000, 1, 321000 },
	{ "k9", 1, 400000, 398500, 398500, 1, 401000 },
	{ "k10", 1, 500000, 520000, 530000, 1, 531000 },
	{ "k11", 1, 501000, 505000, 515000, 1, 531001 },
};

/* One NCCL operation on rank i of the two (comm 0x77, stream 0x100), called at t, run from
 * start to end. */
static void nccl_op(struct nw_rank *r, int i, const char *name, uint8_t op, int32_t peer,
		    uint32_t seq, uint64_t t, int64_t start, int64_t end)
{
	uint8_t redop = op == TPROF_NCCL_ALLREDUCE ? 0 : 0xff;
	uint64_t c = nw_call(r, name, t, t + 3000, nw_args(op, 0x77, 1024, 7, 4, redop, seq, 0),
			     nw_args2(0x100, 0, peer, i, 2, 0));
	nw_device(r, name, (uint64_t)end + 500, c, t, start, end, 0x100,
		  nw_coll(0x77, seq, op, 7, 1, i, 2, 0));
}

static void nccl_ranks(const char *dir)
{
	struct nw_rank r[2];
	nw_begin(&r[0], dir, "hostB", 5000, 0, 2, 600000);
	nw_begin(&r[1], dir, "hostC", 5001, 1, 2, 600000);
	nccl_op(&r[0], 0, "ncclAllReduce", TPROF_NCCL_ALLREDUCE, -1, 1, 10000, 20000, 30000);
	nccl_op(&r[1], 1, "ncclAllReduce", TPROF_NCCL_ALLREDUCE, -1, 1, 5000, 9000, 15000);
	nccl_op(&r[0], 0, "ncclRecv", TPROF_NCCL_RECV, 1, 1, 30500, 31000, 35000);
	nccl_op(&r[1], 1, "ncclSend", TPROF_NCCL_SEND, 0, 1, 40000, 41000, 50000);
	nw_end(&r[0]);
	nw_end(&r[1]);
}

int main(int argc, char **argv)
{
	if (argc != 2 || (mkdir(argv[1], 0755) < 0 && errno != EEXIST)) {
		fprintf(stderr, "usage: dev-synth DIR\n");
		return 2;
	}
	struct nw_rank r;
	struct tprof_rec s3[64];        /* the second launching thread's stream */
	uint32_t n3 = 0;
	nw_begin(&r, argv[1], "hostA", 4242, -1, 0, 600000);
	mw_put(r.m.s0, &r.m.n0, tw_rec(TPROF_K_THREAD, mw_str(&r.m, "worker"), 1000, 4244, 3),
	       NULL, 0);
	for (size_t i = 0; i < sizeof(kernels) / sizeof(kernels[0]); i++) {
		const struct kernel *k = &kernels[i];
		uint64_t corr = ++r.m.corr;
		struct tprof_rec call = tw_rec(TPROF_K_CALL, mw_str(&r.m, "hipLaunchKernel"),
					       k->launch, k->launch + 1000, corr);
		call.flags = TPROF_DOM_HIP;
		if (k->thread == 3)
			mw_put(s3, &n3, call, NULL, 0);
		else
			mw_put(r.m.s1, &r.m.n1, call, NULL, 0);
		struct tprof_devop d;
		memset(&d, 0, sizeof(d));
		d.start_ns = k->start;
		d.end_ns = k->end;
		d.stream = k->stream;
		d.launch_stream = k->thread;
		d.launch_t0 = k->launch;
		struct tprof_rec dev = tw_rec(TPROF_K_DEVICE, mw_str(&r.m, k->name), k->written, 0,
					      corr);
		dev.flags = TPROF_DEVOP_KERNEL;
		mw_put(r.s2, &r.n2, dev, &d, 3);
	}
	tw_chunk(&r.m.w, 3, s3, n3);
	nw_end(&r);
	nccl_ranks(argv[1]);
	return 0;
}
