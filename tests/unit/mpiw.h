/* mpiw.h — writes the trace of one synthetic MPI rank as the recorder would (through
 * writer.h): its properties, clock samples, communicators and clock offset measurements in
 * the process stream, and on one thread its MPI calls with their extension units and the
 * requests completed or started inside them.  Times are ticks; the rank records in
 * CLOCK_MONOTONIC ns (ticks = ns), with CLOCK samples that may claim a skewed clock, as
 * TPROF_TEST_CLOCK_SKEW_NS makes the recorder do. */
#ifndef TPROF_TEST_MPIW_H
#define TPROF_TEST_MPIW_H

#include <stdio.h>

#include "writer.h"

#define MW_REAL0 1700000000000000000ll   /* realtime of tick 0 */
#define MW_MAXSTR 128
#define MW_UNITS 65536

struct mw_rank {
	struct tw w;
	int rank;
	int64_t pid;
	const char *host;
	struct tprof_rec *s0, *s1;       /* process stream, thread stream */
	uint32_t n0, n1;
	const char *strs[MW_MAXSTR];
	uint32_t nstrs;
	uint64_t corr;
	uint32_t rseq;                   /* receives posted */
};

static inline uint32_t mw_str(struct mw_rank *r, const char *s)
{
	for (uint32_t i = 0; i < r->nstrs; i++)
		if (!strcmp(r->strs[i], s))
			return i + 1;
	r->strs[r->nstrs++] = s;
	return r->nstrs;
}

static inline struct tprof_rec *mw_put(struct tprof_rec *v, uint32_t *n, struct tprof_rec rec,
				       const void *ext, unsigned next)
{
	rec.ext = (uint8_t)next;
	struct tprof_rec *at = &v[*n];
	*at = rec;
	if (next)
		memcpy(at + 1, ext, next * TPROF_UNIT);
	*n += 1 + next;
	return at;
}

static inline void mw_prop_int(struct mw_rank *r, const char *key, int64_t v)
{
	struct tprof_rec rec = tw_rec(TPROF_K_PROP, mw_str(r, key), 0, 0, (uint64_t)v);
	rec.flags = TPROF_PROP_INT;
	mw_put(r->s0, &r->n0, rec, NULL, 0);
}

/* A clock sample at `ticks`: the CLOCK record claims monotonic ticks + skew and realtime
 * MW_REAL0 + ticks + skew. */
static inline void mw_clock(struct mw_rank *r, uint64_t ticks, int64_t skew)
{
	mw_put(r->s0, &r->n0, tw_rec(TPROF_K_CLOCK, 0, ticks, (uint64_t)((int64_t)ticks + skew),
				     (uint64_t)(MW_REAL0 + (int64_t)ticks + skew)), NULL, 0);
}

/* Starts rank `rank` of `world` ranks (rank < 0: a process without one), process `pid` on
 * `host`, its clock samples at ticks 1000 and end_ticks, skewed by `skew` ns. */
static inline void mw_begin(struct mw_rank *r, const char *dir, const char *host, int64_t pid,
			    int rank, int world, int64_t skew, uint64_t end_ticks)
{
	char path[512];
	memset(r, 0, sizeof(*r));
	r->s0 = calloc(MW_UNITS, sizeof(*r->s0));
	r->s1 = calloc(MW_UNITS, sizeof(*r->s1));
	r->rank = rank;
	r->pid = pid;
	r->host = host;
	snprintf(path, sizeof(path), "%s/%s.%lld.%08x.tpf", dir, host, (long long)pid, (unsigned)pid);
	tw_open(&r->w, path, (uint64_t)pid);
	mw_prop_int(r, "clock", TPROF_CLOCKSRC_MONOTONIC);
	mw_put(r->s0, &r->n0, tw_rec(TPROF_K_PROP, mw_str(r, "host"), 0, 0, mw_str(r, host)), NULL, 0);
	mw_prop_int(r, "pid", pid);
	mw_put(r->s0, &r->n0, tw_rec(TPROF_K_PROP, mw_str(r, "arg"), 0, 0, mw_str(r, "./mpi-synth")), NULL, 0);
	if (rank >= 0) {
		mw_prop_int(r, "rank", rank);
		mw_prop_int(r, "world_size", world);
	}
	mw_clock(r, 1000, skew);
	mw_clock(r, end_ticks, skew);
	mw_put(r->s0, &r->n0, tw_rec(TPROF_K_THREAD, mw_str(r, "main"), 1000, (uint64_t)pid, 1), NULL, 0);
}

/* The same for a rank that records in TSC-like ticks, two per ns (tick 0 at true time 0), on
 * a host whose monotonic clock reads mono_base at true time 0 and whose realtime clock is off
 * by real_skew: samples at true times 1000 ns and end_ns. */
static inline void mw_begin_tsc(struct mw_rank *r, const char *dir, const char *host, int64_t pid,
				int rank, int world, int64_t mono_base, int64_t real_skew, uint64_t end_ns)
{
	mw_begin(r, dir, host, pid, rank, world, 0, end_ns);
	/* mw_begin wrote a clock property and two samples for a monotonic clock: replace them. */
	for (uint32_t i = 0; i < r->n0; i++) {
		struct tprof_rec *u = &r->s0[i];
		if (u->kind == TPROF_K_PROP && u->name == mw_str(r, "clock"))
			u->arg = TPROF_CLOCKSRC_TSC;
		if (u->kind == TPROF_K_CLOCK) {
			uint64_t ns = u->t0;
			u->t0 = 2 * ns;
			u->t1 = (uint64_t)(mono_base + (int64_t)ns);
			u->arg = (uint64_t)(MW_REAL0 + (int64_t)ns + real_skew);
		}
		if (u->kind == TPROF_K_THREAD)
			u->t0 *= 2;
		i += u->ext;
	}
}

/* A communicator: members as world ranks, 64 to a record (as the recorder splits them). */
static inline void mw_comm(struct mw_rank *r, uint64_t id, uint8_t kind, uint32_t size,
			   int32_t my_rank, const int32_t *members, const char *name)
{
	uint32_t first = 0;
	do {
		uint8_t ext[TPROF_UNIT * 9];
		memset(ext, 0, sizeof(ext));
		struct tprof_comm_def d = { .id = id, .size = size, .first = first,
					    .my_rank = my_rank };
		memcpy(ext, &d, sizeof(d));
		uint32_t n = size - first <= 64 ? size - first : 64;
		memcpy(ext + TPROF_UNIT, members + first, n * sizeof(int32_t));
		struct tprof_rec rec = tw_rec(TPROF_K_COMM, name ? mw_str(r, name) : 0, 1000, 0, id);
		rec.flags = kind;
		mw_put(r->s0, &r->n0, rec, ext, 1 + (n + 7) / 8);
		first += n;
	} while (first < size);
}

static inline void mw_world(struct mw_rank *r, int world)
{
	int32_t *m = malloc((size_t)(world > 0 ? world : 1) * sizeof(int32_t));
	for (int i = 0; i < world; i++)
		m[i] = i;
	mw_comm(r, TPROF_COMM_WORLD, TPROF_COMMK_WORLD, (uint32_t)world, r->rank, m, NULL);
	free(m);
}

/* A clock offset measurement against (ref_host, ref_pid), rank 0. */
static inline void mw_csync(struct mw_rank *r, uint8_t when, uint64_t t0, uint64_t t1, uint64_t rtt,
			    const char *ref_host, int64_t ref_pid)
{
	struct tprof_csync x = { .ref_pid = ref_pid, .ref_rank = 0, .rank = r->rank, .rounds = 16 };
	struct tprof_rec rec = tw_rec(TPROF_K_CSYNC, mw_str(r, ref_host), t0, t1, rtt);
	rec.flags = when;
	mw_put(r->s0, &r->n0, rec, &x, 1);
}

static inline struct tprof_mpi_args mw_args(uint8_t op, uint64_t comm, int32_t peer, int32_t tag,
					    uint64_t bytes, uint32_t seq, uint8_t flags)
{
	struct tprof_mpi_args a = { .comm = comm, .bytes = bytes, .peer = peer, .tag = tag,
				    .seq = seq, .op = op, .flags = flags };
	return a;
}

/* Room for a record of up to 3 units on the thread stream: a full buffer becomes a chunk. */
static inline void mw_room(struct mw_rank *r)
{
	if (r->n1 + 4 > MW_UNITS) {
		tw_chunk(&r->w, 1, r->s1, r->n1);
		r->n1 = 0;
	}
}

/* An MPI call on the thread; returns its correlation id. */
static inline uint64_t mw_call(struct mw_rank *r, const char *name, uint64_t t0, uint64_t t1,
			       struct tprof_mpi_args a, const struct tprof_mpi_args2 *b)
{
	uint8_t ext[2 * TPROF_UNIT];
	memcpy(ext, &a, sizeof(a));
	if (b)
		memcpy(ext + TPROF_UNIT, b, sizeof(*b));
	uint64_t corr = ++r->corr;
	mw_room(r);
	struct tprof_rec rec = tw_rec(TPROF_K_CALL, mw_str(r, name), t0, t1, corr);
	rec.flags = TPROF_DOM_MPI;
	mw_put(r->s1, &r->n1, rec, ext, b ? 2 : 1);
	return corr;
}

/* A request completed (or started) inside call `corr`, which returned at t; name: the call
 * that made the request. */
static inline void mw_req(struct mw_rank *r, const char *name, uint64_t t, uint64_t corr,
			  struct tprof_mpi_args a, uint64_t req)
{
	uint8_t ext[2 * TPROF_UNIT];
	struct tprof_mpi_args2 b = { .req = req };
	memcpy(ext, &a, sizeof(a));
	memcpy(ext + TPROF_UNIT, &b, sizeof(b));
	mw_room(r);
	struct tprof_rec rec = tw_rec(TPROF_K_MPIREQ, mw_str(r, name), t, 0, corr);
	rec.flags = a.flags;
	mw_put(r->s1, &r->n1, rec, ext, 2);
}

/* ---- the usual calls, on MPI_COMM_WORLD unless a comm is given ---- */

static inline uint64_t mw_send(struct mw_rank *r, uint64_t t0, uint64_t t1, int32_t dst, int32_t tag,
			       uint64_t bytes)
{
	return mw_call(r, "MPI_Send", t0, t1, mw_args(TPROF_MPI_SEND, TPROF_COMM_WORLD, dst, tag, bytes, 0, 0),
		       NULL);
}

/* A blocking receive that got (src, tag, bytes); returns its receive number. */
static inline uint32_t mw_recv(struct mw_rank *r, uint64_t t0, uint64_t t1, int32_t src, int32_t tag,
			       uint64_t bytes)
{
	uint32_t seq = ++r->rseq;
	mw_call(r, "MPI_Recv", t0, t1, mw_args(TPROF_MPI_RECV, TPROF_COMM_WORLD, src, tag, bytes, seq, 0), NULL);
	return seq;
}

static inline uint64_t mw_isend(struct mw_rank *r, uint64_t t0, uint64_t t1, int32_t dst, int32_t tag,
				uint64_t bytes, uint64_t req)
{
	struct tprof_mpi_args2 b = { .req = req };
	return mw_call(r, "MPI_Isend", t0, t1,
		       mw_args(TPROF_MPI_ISEND, TPROF_COMM_WORLD, dst, tag, bytes, 0, TPROF_MPIF_NONBLOCKING), &b);
}

/* A receive posted for (src, tag), either may be TPROF_MPI_ANY; returns its number. */
static inline uint32_t mw_irecv(struct mw_rank *r, uint64_t t0, uint64_t t1, int32_t src, int32_t tag,
				uint64_t req)
{
	struct tprof_mpi_args2 b = { .req = req };
	uint32_t seq = ++r->rseq;
	mw_call(r, "MPI_Irecv", t0, t1,
		mw_args(TPROF_MPI_IRECV, TPROF_COMM_WORLD, src, tag, 0, seq, TPROF_MPIF_NONBLOCKING), &b);
	return seq;
}

/* A Wait-family call completing n requests; returns its correlation id for mw_req. */
static inline uint64_t mw_wait(struct mw_rank *r, const char *name, uint64_t t0, uint64_t t1, uint16_t n)
{
	struct tprof_mpi_args a = mw_args(TPROF_MPI_WAIT, 0, TPROF_MPI_NONE, 0, 0, 0, 0);
	a.nreq = n;
	return mw_call(r, name, t0, t1, a, NULL);
}

/* The completion of receive `seq` inside call `corr` (returned at t): what it got. */
static inline void mw_recv_done(struct mw_rank *r, uint64_t t, uint64_t corr, uint32_t seq, int32_t src,
				int32_t tag, uint64_t bytes, uint64_t req, uint8_t flags)
{
	mw_req(r, "MPI_Irecv", t, corr,
	       mw_args(TPROF_MPI_IRECV, TPROF_COMM_WORLD, src, tag, bytes, seq, TPROF_MPIF_NONBLOCKING | flags), req);
}

static inline void mw_send_done(struct mw_rank *r, uint64_t t, uint64_t corr, int32_t dst, int32_t tag,
				uint64_t bytes, uint64_t req, uint8_t flags)
{
	mw_req(r, "MPI_Isend", t, corr,
	       mw_args(TPROF_MPI_ISEND, TPROF_COMM_WORLD, dst, tag, bytes, 0, TPROF_MPIF_NONBLOCKING | flags), req);
}

/* A blocking collective: root a rank in comm (or TPROF_MPI_NONE), seq its number on comm. */
static inline void mw_coll(struct mw_rank *r, const char *name, uint64_t t0, uint64_t t1, uint64_t comm,
			   uint32_t seq, int32_t root, uint64_t sent, uint64_t recvd)
{
	struct tprof_mpi_args2 b = { .bytes = recvd };
	mw_call(r, name, t0, t1, mw_args(TPROF_MPI_COLL, comm, root, 0, sent, seq, 0), &b);
}

static inline void mw_end(struct mw_rank *r)
{
	struct tprof_rec *u = calloc(MW_UNITS, sizeof(*u));
	uint32_t n = 0;
	for (uint32_t i = 0; i < r->nstrs; i++)
		n += tw_string(u + n, i + 1, r->strs[i]);
	memcpy(u + n, r->s0, r->n0 * sizeof(*u));
	n += r->n0;
	u[n++] = tw_rec(TPROF_K_END, 0, 0, 0, 0);
	if (r->n1)
		tw_chunk(&r->w, 1, r->s1, r->n1);
	tw_chunk(&r->w, 0, u, n);
	tw_close(&r->w);
	free(u);
	free(r->s0);
	free(r->s1);
}

#endif
