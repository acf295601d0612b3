/* ncclw.h — writes the trace of one synthetic NCCL rank as the recorder does (through
 * mpiw.h and writer.h): NCCL calls with their two extension units on the main thread, and
 * the DEVICE records of the collectives (or of any device work) on a second thread, as the recorder's completion
 * thread writes them once the device finished (t0 = when written).  Times are ticks =
 * CLOCK_MONOTONIC ns, so device times and call times share one clock. */
#ifndef TPROF_TEST_NCCLW_H
#define TPROF_TEST_NCCLW_H

#include "mpiw.h"

struct nw_rank {
	struct mw_rank m;
	struct tprof_rec *s2;            /* the completion thread's stream */
	uint32_t n2;
	uint32_t dev;                    /* the GPU of this rank */
};

/* Rank `rank` of `world` (an MPI rank, so that it is labelled and ordered like one; rank < 0:
 * a process without one, as a forked rank is), pid, host, data up to end_ticks. */
static inline void nw_begin(struct nw_rank *r, const char *dir, const char *host, int64_t pid, int rank,
			    int world, uint64_t end_ticks)
{
	memset(r, 0, sizeof(*r));
	mw_begin(&r->m, dir, host, pid, rank, world, 0, end_ticks);
	r->s2 = calloc(MW_UNITS, sizeof(*r->s2));
	r->dev = rank >= 0 ? (uint32_t)rank : 0;
	mw_put(r->m.s0, &r->m.n0, tw_rec(TPROF_K_THREAD, mw_str(&r->m, "tprof-devtime"), 1000,
					 (uint64_t)pid + 1, 2), NULL, 0);
}

static inline struct tprof_nccl_args nw_args(uint8_t op, uint64_t comm, uint64_t count, uint8_t dtype,
					     unsigned dsize, uint8_t redop, uint32_t seq, uint8_t flags)
{
	struct tprof_nccl_args a = { .comm = comm, .count = count, .bytes = count * dsize, .seq = seq,
				     .op = op, .dtype = dtype, .redop = redop, .flags = flags };
	return a;
}

static inline struct tprof_nccl_args2 nw_args2(uint64_t stream, uint64_t aux, int32_t peer, int32_t rank,
					       int32_t nranks, int32_t device)
{
	struct tprof_nccl_args2 b = { .stream = stream, .aux = aux, .peer = peer, .rank = rank,
				      .nranks = nranks, .device = device };
	return b;
}

/* An NCCL call on the main thread; returns its correlation id. */
static inline uint64_t nw_call(struct nw_rank *r, const char *name, uint64_t t0, uint64_t t1,
			       struct tprof_nccl_args a, struct tprof_nccl_args2 b)
{
	uint8_t ext[2 * TPROF_UNIT];
	memcpy(ext, &a, sizeof(a));
	memcpy(ext + TPROF_UNIT, &b, sizeof(b));
	uint64_t corr = ++r->m.corr;
	mw_room(&r->m);
	struct tprof_rec rec = tw_rec(TPROF_K_CALL, mw_str(&r->m, name), t0, t1, corr);
	rec.flags = TPROF_DOM_NCCL;
	mw_put(r->m.s1, &r->m.n1, rec, ext, 2);
	return corr;
}

/* A DEVICE record of kind `kind` (enum tprof_devop_kind) for the work of call `corr`,
 * written at `at` by the completion thread. */
static inline void nw_devop(struct nw_rank *r, const char *name, uint64_t at, uint64_t corr,
			    uint8_t kind, const struct tprof_devop *d)
{
	struct tprof_rec rec = tw_rec(TPROF_K_DEVICE, mw_str(&r->m, name), at, 0, corr);
	rec.flags = kind;
	if (r->n2 + 4 > MW_UNITS) {   /* a full buffer becomes a chunk */
		tw_chunk(&r->m.w, 2, r->s2, r->n2);
		r->n2 = 0;
	}
	mw_put(r->s2, &r->n2, rec, d, 3);
}

/* The DEVICE record of a collective (or a group, coll.op TPROF_NCCL_GROUP_END) launched by
 * call `corr` (entered at launch_t0), run from start to end on `stream`, written at `at`. */
static inline void nw_device(struct nw_rank *r, const char *name, uint64_t at, uint64_t corr,
			     uint64_t launch_t0, int64_t start, int64_t end, uint64_t stream,
			     struct tprof_devop_coll coll)
{
	struct tprof_devop d;
	memset(&d, 0, sizeof(d));
	d.start_ns = start;
	d.end_ns = end;
	d.stream = stream;
	d.device = r->dev;
	d.launch_stream = 1;
	d.launch_t0 = launch_t0;
	d.coll = coll;
	nw_devop(r, name, at, corr, TPROF_DEVOP_COLLECTIVE, &d);
}

static inline struct tprof_devop_coll nw_coll(uint64_t comm, uint32_t seq, uint8_t op, uint8_t dtype,
					      uint16_t nops, int32_t rank, int32_t nranks, uint64_t group)
{
	struct tprof_devop_coll c = { .comm = comm, .seq = seq, .op = op, .dtype = dtype, .nops = nops,
				      .rank = rank, .nranks = nranks, .group = group };
	return c;
}

static inline void nw_end(struct nw_rank *r)
{
	if (r->n2)
		tw_chunk(&r->m.w, 2, r->s2, r->n2);
	free(r->s2);
	mw_end(&r->m);
}

#endif
