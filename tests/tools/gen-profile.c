/* gen-profile.c — a synthetic profile of an MPI job, written in tprof's own format as the
 * recorder would (tests/unit/writer.h, mpiw.h) without running the job: for the tests and the
 * benchmarks of analyzing jobs of many ranks.
 *
 *   gen-profile -r RANKS -s STEPS [-b BYTES] [-t US] [-n] [-k] DIR
 *
 * Each rank is a process with one thread (its own .tpf file in DIR, on one of the job's hosts,
 * 8 ranks a host) that runs STEPS training steps, one every US microseconds (default 100, the
 * least: what a step holds takes that long, the rest of a longer step is idle), each:
 *   STEP            the step starts (its number, from 0)
 *   range forward   compute, of a length that varies with the rank and the step; with -k a
 *                   kernel, gemm_fwd, launched (hipLaunchKernel) and run on the rank's GPU
 *                   inside it
 *   MPI_Irecv from the left neighbour, MPI_Isend of BYTES (default 4096) to the right one,
 *   MPI_Waitall     completing both (the receive's source, tag and bytes)
 *   range backward  compute, longer on some ranks; with -k its kernel, gemm_bwd
 *   MPI_Allreduce   of 8 bytes on MPI_COMM_WORLD (the step's collective: number step + 1)
 *   ncclAllReduce   with -n: of 4 MiB of floats on the job's NCCL communicator, its device
 *                   span on the rank's GPU written by a second thread once it ended, as the
 *                   recorder's completion thread writes it (instance number step + 1)
 *   STEP end
 * Ranks are skewed a little by their number, so that receives wait for late senders.  Eight
 * ranks share a host; those past node000 measured their clock offset against rank 0 at
 * MPI_Init and MPI_Finalize (0, 20 or 40 ns, by rank), as the recorder does.  It
 * prints, as one JSON line, what the analyzer must find: ranks, steps, messages, their bytes,
 * collective instances and records written. */
#include <errno.h>
#include <string.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../unit/ncclw.h"

#define NCCL_COMM 0x6e63636cu   /* the job's NCCL communicator */
#define NCCL_FLOATS (1u << 20)
#define NCCL_F32 7
#define KERNEL_STREAM 0x7000u

/* With -k: a kernel launched at t (a 10 ns hipLaunchKernel) that runs from start to end on
 * the rank's GPU, its DEVICE record written by the completion thread at end + 100. */
static void kernel(struct nw_rank *nr, int rank, const char *name, uint64_t t, uint64_t start,
		   uint64_t end)
{
	struct mw_rank *r = &nr->m;
	struct tprof_call_args ca = { TPROF_SHAPE_LAUNCH, (uint16_t)(rank % 8), mw_str(r, name),
				      KERNEL_STREAM, 0x401000, 0 };
	struct tprof_launch_dims dims = { { 1024, 1, 1 }, { 256, 1, 1 }, 0 };
	uint8_t ext[2 * TPROF_UNIT];
	memcpy(ext, &ca, sizeof(ca));
	memcpy(ext + TPROF_UNIT, &dims, sizeof(dims));
	uint64_t corr = ++r->corr;
	mw_room(r);
	struct tprof_rec rec = tw_rec(TPROF_K_CALL, mw_str(r, "hipLaunchKernel"), t, t + 10, corr);
	rec.flags = TPROF_DOM_HIP;
	mw_put(r->s1, &r->n1, rec, ext, 2);
	struct tprof_devop d;
	memset(&d, 0, sizeof(d));
	d.start_ns = (int64_t)start;
	d.end_ns = (int64_t)end;
	d.stream = KERNEL_STREAM;
	d.device = (uint32_t)(rank % 8);
	d.launch_stream = 1;
	d.launch_t0 = t;
	d.dims = dims;
	nw_devop(nr, name, end + 100, corr, TPROF_DEVOP_KERNEL, &d);
}

/* A record of the thread stream with no extension units. */
static void put1(struct mw_rank *r, struct tprof_rec rec)
{
	mw_room(r);
	mw_put(r->s1, &r->n1, rec, NULL, 0);
}

static uint64_t gen_rank(const char *dir, int rank, int ranks, int steps, uint64_t bytes,
			 uint64_t step_ns, int nccl, int kernels)
{
	struct nw_rank nr;
	struct mw_rank *rp = &nr.m;
	char host[32];
	snprintf(host, sizeof(host), "node%03d", rank / 8);
	uint64_t start = 10000;
	uint64_t end = start + (uint64_t)steps * step_ns + 100000;
	int device = nccl || kernels;   /* a completion thread writes device work */
	if (device) {
		nw_begin(&nr, dir, host, 10000 + rank, rank, ranks, end);
		nr.dev = (uint32_t)(rank % 8);   /* eight ranks a node, one GPU each */
	}
	else
		mw_begin(rp, dir, host, 10000 + rank, rank, ranks, 0, end);
#define r (*rp)
	mw_world(&r, ranks);
	int left = (rank + ranks - 1) % ranks, right = (rank + 1) % ranks;
	uint32_t fwd = mw_str(&r, "forward"), bwd = mw_str(&r, "backward");
	uint64_t skew = (uint64_t)(rank % 7) * 500, records = 0;
	for (int s = 0; s < steps; s++) {
		uint64_t t = start + (uint64_t)s * step_ns + skew;
		put1(&r, tw_rec(TPROF_K_STEP, 0, t, 0, (uint64_t)s));
		put1(&r, tw_rec(TPROF_K_PUSH, fwd, t + 100, 0, 1));
		uint64_t fwd_ns = 25000 + (uint64_t)((rank * 37 + s * 11) % 11) * 400;
		if (kernels) {
			kernel(&nr, rank, "gemm_fwd", t + 200, t + 1000, t + fwd_ns - 1000);
			records += 2;
		}
		put1(&r, tw_rec(TPROF_K_POP, 0, t + fwd_ns, 0, 1));
		uint64_t rreq = 0x1000 + 2 * (uint64_t)s, sreq = rreq + 1;
		uint64_t m = t + fwd_ns;
		uint32_t seq = mw_irecv(&r, m + 100, m + 200, left, s % 1000, rreq);
		mw_isend(&r, m + 300, m + 400, right, s % 1000, bytes, sreq);
		uint64_t done = m + 12000 + (uint64_t)(6 - rank % 7) * 500;
		uint64_t w = mw_wait(&r, "MPI_Waitall", m + 500, done, 2);
		mw_recv_done(&r, done, w, seq, left, s % 1000, bytes, rreq, 0);
		mw_send_done(&r, done, w, right, s % 1000, bytes, sreq, 0);
		put1(&r, tw_rec(TPROF_K_PUSH, bwd, done + 100, 0, 1));
		uint64_t bwd_ns = 30000 + (uint64_t)(rank % 5) * 300;
		if (kernels) {
			kernel(&nr, rank, "gemm_bwd", done + 200, done + 1000, done + bwd_ns - 1000);
			records += 2;
		}
		put1(&r, tw_rec(TPROF_K_POP, 0, done + bwd_ns, 0, 1));
		uint64_t c0 = done + bwd_ns + 100;
		mw_coll(&r, "MPI_Allreduce", c0, t - skew + 95000, TPROF_COMM_WORLD, (uint32_t)s + 1,
			TPROF_MPI_NONE, 8, 8);
		if (nccl) {   /* the call after the Allreduce, its device span before the step ends */
			uint64_t n0 = t - skew + 95000 + (uint64_t)(rank % 4) * 10;
			uint64_t dev0 = t - skew + 95060;
			uint64_t corr = nw_call(&nr, "ncclAllReduce", n0, n0 + 50,
						nw_args(TPROF_NCCL_ALLREDUCE, NCCL_COMM, NCCL_FLOATS,
							NCCL_F32, 4, 0, (uint32_t)s + 1, 0),
						nw_args2(0x5000u, 0, -1, rank, ranks, rank));
			nw_device(&nr, "ncclAllReduce", t - skew + 99000, corr, n0, (int64_t)dev0,
				  (int64_t)dev0 + 3000 + (rank % 3) * 100, 0x5000u,
				  nw_coll(NCCL_COMM, (uint32_t)s + 1, TPROF_NCCL_ALLREDUCE, NCCL_F32,
					  1, rank, ranks, 0));
			records += 2;
		}
		put1(&r, tw_rec(TPROF_K_STEP, 0, t - skew + 95100, 0, (uint64_t)s));
		r.s1[r.n1 - 1].flags = TPROF_STEP_END;
		records += 12;   /* 2 steps, 4 ranges, 4 calls, 2 completions */
	}
	if (rank >= 8) {
		/* the clock offset measured against rank 0 at MPI_Init and MPI_Finalize: this
		 * host's clocks 0, 20 or 40 ns behind node000's */
		uint64_t lag = (uint64_t)(rank % 3) * 20;
		mw_csync(&r, TPROF_CSYNC_INIT, start - 5000, start - 5000 + lag, 1000, "node000",
			 10000);
		mw_csync(&r, TPROF_CSYNC_FINALIZE, end - 5000, end - 5000 + lag, 1000, "node000",
			 10000);
	}
#undef r
	if (device)
		nw_end(&nr);
	else
		mw_end(rp);
	return records;
}

static void usage(FILE *f)
{
	fputs("Usage: gen-profile -r RANKS -s STEPS [-b BYTES] [-t US] [-n] [-k] DIR\n"
	      "Writes a synthetic profile of an MPI job of RANKS ranks, STEPS steps each, to DIR\n"
	      "(made if need be), and prints what the analyzer must find, as one JSON line.\n"
	      "  -b BYTES  each ring message's size (default 4096)\n"
	      "  -t US     a step every US microseconds (default 100, the least)\n"
	      "  -n        an NCCL AllReduce each step too, with its device span\n"
	      "  -k        a kernel in each compute range, launched and run on the rank's GPU\n",
	      f);
}

int main(int argc, char **argv)
{
	long ranks = 0, steps = 0, bytes = 4096, step_us = 100;
	int c, nccl = 0, kernels = 0;
	while ((c = getopt(argc, argv, "r:s:b:t:nkh")) != -1) {
		char *end = NULL;
		if (c == 'n' || c == 'k') {
			*(c == 'n' ? &nccl : &kernels) = 1;
			continue;
		}
		long *v = c == 'r' ? &ranks : c == 's' ? &steps : c == 'b' ? &bytes
			: c == 't' ? &step_us : NULL;
		if (!v) {
			usage(c == 'h' ? stdout : stderr);
			return c == 'h' ? 0 : 2;
		}
		errno = 0;
		*v = strtol(optarg, &end, 10);
		if (errno || !*optarg || *end || *v < 0) {
			fprintf(stderr, "gen-profile: -%c %s: not a count\n", c, optarg);
			return 2;
		}
	}
	if (optind != argc - 1 || ranks < 2 || ranks > 1000000 || steps < 1 ||
	    steps > 100000000 || step_us < 100 || step_us > 1000000000) {
		usage(stderr);
		return 2;
	}
	const char *dir = argv[optind];
	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		fprintf(stderr, "gen-profile: %s: %s\n", dir, strerror(errno));
		return 1;
	}
	uint64_t records = 0;
	for (long i = 0; i < ranks; i++)
		records += gen_rank(dir, (int)i, (int)ranks, (int)steps, (uint64_t)bytes,
				    (uint64_t)step_us * 1000, nccl, kernels);
	printf("{\"ranks\": %ld, \"steps\": %ld, \"messages\": %ld, \"message_bytes\": %" PRIu64
	       ", \"collectives\": %ld, \"nccl_collectives\": %ld, \"nccl_bytes\": %u, "
	       "\"kernels\": %ld, \"records\": %" PRIu64 "}\n",
	       ranks, steps, ranks * steps, (uint64_t)ranks * (uint64_t)steps * (uint64_t)bytes,
	       steps, nccl ? steps : 0, 4 * NCCL_FLOATS, kernels ? 2 * ranks * steps : 0, records);
	return 0;
}
