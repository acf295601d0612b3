/* runtimes/mpi/rma.c — one-sided communication across ranks.  A window is known by its
 * communicator and its number over it (the same on every member).  Each put, get or atomic
 * operation is linked (EV_RMA, drawn as an arrow from the origin's call) to where it is
 * complete at its target, by the kind of epoch the origin made it in:
 *  - a fence epoch (after its fence s, before its fence s + 1): the target's fence s + 1
 *    (fences are collective; every call says how many fences its process saw before it);
 *  - a lock epoch (MPI_Win_lock, _lock_all): the moment the origin's MPI_Win_unlock,
 *    _unlock_all, _flush or _flush_all that covers the target returned, inside the target's
 *    MPI call at that moment, or, when it was in none, at the start of its next one (where
 *    Chrome would bind an arrow that ends outside any slice);
 *  - an access epoch (MPI_Win_start, PSCW): the target's MPI_Win_wait that ends the
 *    exposure epoch it matches (or its MPI_Win_test that did: the last before the window's
 *    next post, fence or free, since testing again after a success is an error).  MPI_Win_start and MPI_Win_post record their groups (world
 *    ranks), and MPI matches them in order: an origin's n-th access epoch that includes a
 *    target meets that target's n-th exposure epoch that includes the origin.
 * Whichever of the two ends the pipeline reads first, the other is waited for.  Per (window,
 * target, origin) the last two ends are kept, so memory follows the windows, ranks and
 * operations in flight.
 * In the parallel analyzer an operation whose target another analysis process reads is kept
 * aside and sent there at the end, which links it as it would have been linked while reading:
 * for that, the ends of a window that has members read elsewhere are all kept, and so are the
 * MPI calls of each rank while it has such a window (a lock epoch's operation completes in the
 * one that spans the moment, or the next one). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../../common/xalloc.h"
#include "../../model/emit.h"
#include "../../parallel/mail.h"
#include "../../parallel/par.h"
#include "../../read/remote.h"
#include "../../util/grow.h"
#include "../../util/hpool.h"
#include "../../util/pack.h"
#include "mpi.h"

/* What each call on a window is (enum rma_kind), and what it does to epochs here. */
enum rma_role { RR_NONE, RR_LOCK, RR_LOCK_ALL, RR_UNLOCK, RR_UNLOCK_ALL, RR_FLUSH,
		RR_FLUSH_ALL, RR_POST, RR_WAIT, RR_TEST, RR_COMPLETE };
static const struct {
	const char *name;
	uint8_t kind, role;
} kinds[] = {
	{ "MPI_Put", RK_PUT, 0 }, { "MPI_Rput", RK_PUT, 0 }, { "MPI_Get", RK_GET, 0 },
	{ "MPI_Rget", RK_GET, 0 }, { "MPI_Accumulate", RK_ATOMIC, 0 },
	{ "MPI_Raccumulate", RK_ATOMIC, 0 }, { "MPI_Get_accumulate", RK_ATOMIC, 0 },
	{ "MPI_Rget_accumulate", RK_ATOMIC, 0 }, { "MPI_Fetch_and_op", RK_ATOMIC, 0 },
	{ "MPI_Compare_and_swap", RK_ATOMIC, 0 }, { "MPI_Win_fence", RK_FENCE, 0 },
	{ "MPI_Win_lock", RK_LOCK, RR_LOCK }, { "MPI_Win_lock_all", RK_LOCK, RR_LOCK_ALL },
	{ "MPI_Win_start", RK_START, 0 }, { "MPI_Win_unlock", RK_END, RR_UNLOCK },
	{ "MPI_Win_unlock_all", RK_END, RR_UNLOCK_ALL }, { "MPI_Win_complete", RK_END, RR_COMPLETE },
	{ "MPI_Win_post", RK_SYNC, RR_POST }, { "MPI_Win_wait", RK_SYNC, RR_WAIT },
	{ "MPI_Win_test", RK_SYNC, RR_TEST }, { "MPI_Win_flush", RK_SYNC, RR_FLUSH },
	{ "MPI_Win_flush_all", RK_SYNC, RR_FLUSH_ALL }, { "MPI_Win_flush_local", RK_SYNC, 0 },
	{ "MPI_Win_flush_local_all", RK_SYNC, 0 }, { "MPI_Win_sync", RK_SYNC, 0 },
	{ "MPI_Win_create", RK_MADE, 0 }, { "MPI_Win_allocate", RK_MADE, 0 },
	{ "MPI_Win_allocate_shared", RK_MADE, 0 }, { "MPI_Win_create_dynamic", RK_MADE, 0 },
	{ "MPI_Win_free", RK_FREE, 0 },
};

/* A name's kind and role: role << 4 | kind. */
static unsigned kind_role_of(const char *s)
{
	if (strncmp(s, "MPI_", 4))
		return RK_OTHER;
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(s, kinds[i].name))
			return (unsigned)kinds[i].role << 4 | kinds[i].kind;
	return RK_OTHER;
}

enum rma_kind rma_kind_of(const char *s)
{
	return (enum rma_kind)(kind_role_of(s) & 15);
}

static unsigned kind_role(struct rma_kinds *k, uint32_t name)
{
	if (name >= k->n) {
		size_t n = k->n ? k->n : 64;
		while (n <= name)
			n *= 2;
		k->kind_of = xrealloc(k->kind_of, n);
		memset(k->kind_of + k->n, 0, n - k->n);
		k->n = n;
	}
	if (!k->kind_of[name])
		k->kind_of[name] = (uint8_t)(kind_role_of(strings_get(name)) + 1);
	return k->kind_of[name] - 1u;
}

enum rma_kind rma_kind(struct rma_kinds *k, uint32_t name)
{
	return (enum rma_kind)(kind_role(k, name) & 15);
}

/* An operation waiting for the call that completes it at its target. */
struct op {
	struct op *next;
	struct rma_info info;
	uint32_t name;
};

/* The target's call that ends epochs, or the operations waiting for it: (window, target,
 * origin, seq): a fence (origin -1, seq its number), or the MPI_Win_wait that ends the
 * seq-th exposure epoch of the target that includes the origin. */
struct end {
	struct hpool_item item;
	uint64_t comm;
	int32_t window, rank, origin;
	uint32_t seq;
	int seen;                        /* the target's call was read: thread, t0, t1 */
	struct thread *thread;
	int64_t t0, t1;
	struct op *waiting;
};

/* What one rank does with a window: (rank, window). */
enum { EP_NONE, EP_FENCE, EP_LOCK, EP_ACCESS };
struct epoch {
	struct hpool_item item;
	int32_t rank;
	uint64_t comm;
	int32_t window;
	int mode;                        /* its access epoch as an origin: EP_* */
	int locks, lock_all;             /* EP_LOCK: targets locked, MPI_Win_lock_all */
	struct op *pending;              /* EP_LOCK: operations until an unlock or flush */
	int32_t *peer;                   /* EP_ACCESS: each target with its access epoch's */
	uint32_t *n, npeer;              /* number; as a target, each origin of its exposure
					  * epoch with that epoch's number (xpeer, xn, nx) */
	int32_t *xpeer;
	uint32_t *xn, nx;
	struct mpi_where test;           /* its last MPI_Win_test in that exposure epoch */
	int asked, remote;               /* whether the window has members another analysis
					  * process reads (its ends and calls are kept), asked */
};

/* A rank, for the lock epochs' operations to it: of the MPI calls of its process read so
 * far, the one that ends last; the operations complete at t_at, waiting for a call that ends
 * after it. */
struct member {
	struct hpool_item item;
	int32_t rank;
	struct thread *thread;
	int64_t t0, t1;
	struct op *inbound;
	/* the parallel analyzer: its MPI calls, in the order read, while it has windows with
	 * members read elsewhere (keep of them) */
	int keep;
	struct mpi_where *calls;
	size_t ncalls, capcalls;
	size_t *last;                    /* at the end: of calls [0, i], the one that ends last */
};

/* The parallel analyzer: an operation whose target another analysis process reads, and what
 * it waits for there: an end (window, target, origin, seq) or, in a lock epoch, the target's
 * call at o.info.t_at (after: the start of the origin's call that completed it). */
struct away {
	struct op o;
	int lock;
	int32_t origin;
	uint32_t seq;
	int64_t after;
};

/* Epochs an origin and a target had together: (window, origin, target, exposed). */
struct pair {
	struct hpool_item item;
	uint64_t comm;
	int32_t window, a, b;
	int exposed;
	uint32_t count;
};

struct rmas {
	struct pipeline *pl;
	struct rma_kinds kinds;
	struct hpool ends, epochs, pairs, members;
	size_t waiting;                  /* operations of lock epochs in members' inbound */
	struct op *spare;
	uint64_t next_id;
	/* the parallel analyzer: operations kept for the analysis process that reads their
	 * target, by that process; their origins' threads where they arrive */
	int k, me;
	struct away **away;
	size_t *naway, *capaway;
	struct remotes *remotes;
	const struct mpi_comm *last_comm;   /* the communicator last asked about, its answer */
	int last_remote;
};

struct rmas *rmas_new(struct pipeline *pl)
{
	struct rmas *r = xcalloc(1, sizeof(*r));
	r->pl = pl;
	r->k = par_size();
	r->me = par_rank();
	if (r->k > 1) {
		r->away = xcalloc((size_t)r->k, sizeof(*r->away));
		r->naway = xcalloc((size_t)r->k, sizeof(*r->naway));
		r->capaway = xcalloc((size_t)r->k, sizeof(*r->capaway));
		r->remotes = remotes_new();
	}
	return r;
}

static enum rma_role role(struct rmas *r, uint32_t name)
{
	return (enum rma_role)(kind_role(&r->kinds, name) >> 4);
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	h = (h ^ v) * 0x9e3779b97f4a7c15ull;
	return h ^ h >> 29;
}

static struct end *end_of(struct rmas *r, uint64_t comm, int32_t window, int32_t rank,
			  int32_t origin, uint32_t seq, int make)
{
	uint64_t h = mix(mix(mix(mix(mix(0, comm), (uint32_t)window), (uint32_t)rank),
			     (uint32_t)origin), seq);
	size_t at;
	for (struct end *f = hpool_first(&r->ends, h, &at); f; f = hpool_next(&r->ends, h, &at))
		if (f->comm == comm && f->window == window && f->rank == rank &&
		    f->origin == origin && f->seq == seq)
			return f;
	if (!make)
		return NULL;
	struct end *f = xcalloc(1, sizeof(*f));
	f->comm = comm;
	f->window = window;
	f->rank = rank;
	f->origin = origin;
	f->seq = seq;
	hpool_add(&r->ends, &f->item, h);
	return f;
}

static struct epoch *epoch_of(struct rmas *r, int32_t rank, uint64_t comm, int32_t window)
{
	uint64_t h = mix(mix(mix(1, (uint32_t)rank), comm), (uint32_t)window);
	size_t at;
	for (struct epoch *e = hpool_first(&r->epochs, h, &at); e;
	     e = hpool_next(&r->epochs, h, &at))
		if (e->rank == rank && e->comm == comm && e->window == window)
			return e;
	struct epoch *e = xcalloc(1, sizeof(*e));
	e->rank = rank;
	e->comm = comm;
	e->window = window;
	hpool_add(&r->epochs, &e->item, h);
	return e;
}

/* The number of the epoch origin a and target b now begin together (exposed: counted at
 * the target). */
static uint32_t pair_next(struct rmas *r, uint64_t comm, int32_t window, int32_t a, int32_t b,
			  int exposed)
{
	uint64_t h = mix(mix(mix(mix(mix(2, comm), (uint32_t)window), (uint32_t)a), (uint32_t)b),
			 (uint64_t)exposed);
	size_t at;
	for (struct pair *p = hpool_first(&r->pairs, h, &at); p; p = hpool_next(&r->pairs, h, &at))
		if (p->comm == comm && p->window == window && p->a == a && p->b == b &&
		    p->exposed == exposed)
			return ++p->count;
	struct pair *p = xcalloc(1, sizeof(*p));
	p->comm = comm;
	p->window = window;
	p->a = a;
	p->b = b;
	p->exposed = exposed;
	p->count = 1;
	hpool_add(&r->pairs, &p->item, h);
	return 1;
}

/* The analysis process that reads rank `rank`, when it is another. */
static int away_to(const struct rmas *r, int32_t rank)
{
	if (r->k < 2 || !r->away)   /* alone, or the operations have been sent */
		return -1;
	const struct rank_home *h = trace_rank_home(r->pl->tr, rank);
	return h && h->from != r->me ? h->from : -1;
}

/* Whether communicator c has members another analysis process reads (an unknown one, or one
 * whose members were not all listed, may). */
static int comm_remote(struct rmas *r, const struct mpi_comm *c)
{
	if (r->k < 2)
		return 0;
	if (!c)
		return 1;
	if (c == r->last_comm)
		return r->last_remote;
	int remote = c->kind != TPROF_COMMK_SELF &&
		     c->known < c->size + (c->kind == TPROF_COMMK_INTER ? c->remote_size : 0);
	for (uint32_t i = 0; !remote && i < c->known; i++)
		remote = away_to(r, c->members[i]) >= 0;
	r->last_comm = c;
	r->last_remote = remote;
	return remote;
}

static void op_free(struct rmas *r, struct op *o);

/* Operation o, whose target another analysis process reads, kept for it. */
static void keep_away(struct rmas *r, int to, struct op *o, int lock, int32_t origin,
		      uint32_t seq, int64_t after)
{
	r->away[to] = util_grow(r->away[to], &r->capaway[to], r->naway[to], sizeof(struct away),
				64);
	struct away *a = &r->away[to][r->naway[to]++];
	a->o = *o;
	a->o.next = NULL;
	a->lock = lock;
	a->origin = origin;
	a->seq = seq;
	a->after = after;
	op_free(r, o);
}

static void op_free(struct rmas *r, struct op *o)
{
	o->next = r->spare;
	r->spare = o;
}

static void unlinked(struct rmas *r, struct op *list)
{
	for (struct op *o = list, *next; o; o = next) {
		next = o->next;
		r->pl->tr->mpi.rma_unlinked++;
		op_free(r, o);
	}
}

/* Operation o complete at its target at `at`, inside the call t0..t1 on thread th: its
 * EV_RMA. */
static void emit(struct rmas *r, struct thread *th, int64_t t0, int64_t t1, int64_t at,
		 struct op *o)
{
	struct rma_info *ri = &o->info;
	ri->tthread = th;
	ri->t_t0 = t0;
	ri->t_t1 = t1;
	ri->t_at = at;
	ri->id = r->next_id++ * (uint64_t)par_size() + (uint64_t)par_rank();
	struct event ev = { .kind = EV_RMA, .proc = th->proc, .thread = th, .name = o->name,
			    .t0 = ri->o_t0, .t1 = t1, .info = ri };
	r->pl->tr->mpi.rma_linked++;
	emit_derived(r->pl, &ev);
	op_free(r, o);
}

static void end_drop(struct rmas *r, struct end *f)
{
	unlinked(r, f->waiting);
	hpool_remove(&r->ends, &f->item);
	free(f);
}

/* The target's call that ends (window, me, origin, seq) was read: what waits for it goes out,
 * and the one two before is forgotten, unless operations read elsewhere may still come for it
 * (keep). */
static void end_seen(struct rmas *r, const struct mpi_where *w, uint64_t comm, int32_t window,
		     int32_t me, int32_t origin, uint32_t seq, int keep)
{
	struct end *f = end_of(r, comm, window, me, origin, seq, 1);
	f->seen = 1;
	f->thread = w->thread;
	f->t0 = w->t0;
	f->t1 = w->t1;
	for (struct op *o = f->waiting, *next; o; o = next) {
		next = o->next;
		emit(r, f->thread, f->t0, f->t1, f->t1, o);
	}
	f->waiting = NULL;
	struct end *old = seq > 2 && !keep ? end_of(r, comm, window, me, origin, seq - 2, 0) : NULL;
	if (old)
		end_drop(r, old);
}

/* Operation o waits for the end (window, target, origin, seq), or goes out when it was read;
 * kept for the analysis process that reads its target, when another does. */
static void end_wait(struct rmas *r, struct op *o, int32_t origin, uint32_t seq)
{
	struct rma_info *ri = &o->info;
	int to = away_to(r, ri->target);
	if (to >= 0) {
		keep_away(r, to, o, 0, origin, seq, 0);
		return;
	}
	struct end *f = end_of(r, ri->comm_id, ri->window, ri->target, origin, seq, 1);
	if (f->seen) {
		emit(r, f->thread, f->t0, f->t1, f->t1, o);
		return;
	}
	o->next = f->waiting;
	f->waiting = o;
}

static struct member *member_of(struct rmas *r, int32_t rank)
{
	uint64_t h = mix(3, (uint32_t)rank);
	size_t at;
	for (struct member *m = hpool_first(&r->members, h, &at); m;
	     m = hpool_next(&r->members, h, &at))
		if (m->rank == rank)
			return m;
	struct member *m = xcalloc(1, sizeof(*m));
	m->rank = rank;
	hpool_add(&r->members, &m->item, h);
	return m;
}

/* Lock epochs: the origin's call that completed o at its target returned at t (it started at
 * `after`): inside the target's call that ends last when it spans t, else at the next call
 * read that ends after t (rmas_seen). */
static void complete_at(struct rmas *r, struct op *o, int64_t t, int64_t after)
{
	int to = away_to(r, o->info.target);
	if (to >= 0) {
		o->info.t_at = t;
		keep_away(r, to, o, 1, 0, 0, after);
		return;
	}
	struct member *m = member_of(r, o->info.target);
	if (m->thread && m->t0 <= t && t <= m->t1) {
		emit(r, m->thread, m->t0, m->t1, t, o);
		return;
	}
	o->info.t_at = t;
	o->next = m->inbound;
	m->inbound = o;
	r->waiting++;
}

void rmas_seen(struct rmas *r, const struct mpi_where *w)
{
	if (!r->epochs.n)   /* no window yet */
		return;
	struct member *m = member_of(r, (int32_t)w->thread->proc->rank);
	if (!m->thread || w->t1 >= m->t1) {
		m->thread = w->thread;
		m->t0 = w->t0;
		m->t1 = w->t1;
	}
	if (m->keep) {
		m->calls = util_grow(m->calls, &m->capcalls, m->ncalls, sizeof(*m->calls), 64);
		m->calls[m->ncalls++] = *w;
	}
	if (!r->waiting || !m->inbound)
		return;
	struct op **pp = &m->inbound;
	while (*pp) {
		struct op *o = *pp;
		if (w->t1 < o->info.t_at) {
			pp = &o->next;
			continue;
		}
		*pp = o->next;
		r->waiting--;
		emit(r, w->thread, w->t0, w->t1, w->t0 <= o->info.t_at ? o->info.t_at : w->t0, o);
	}
}

/* The pending operations of e's lock epoch to target (-1: all), complete when the call w
 * returned. */
static void complete_pending(struct rmas *r, struct epoch *e, int32_t target,
			     const struct mpi_where *w)
{
	struct op **pp = &e->pending;
	while (*pp) {
		struct op *o = *pp;
		if (target >= 0 && o->info.target != target) {
			pp = &o->next;
			continue;
		}
		*pp = o->next;
		complete_at(r, o, w->t1, w->t0);
	}
}

/* A group recorded by MPI_Win_post or _start ("0-3,7"): its ranks (below `size`, the job's:
 * a damaged text claims no more) and, for each, the number of the epoch it begins with this
 * rank (pair_next), in *peer and *n. */
static void group_epochs(struct rmas *r, struct epoch *e, uint32_t group, int exposed,
			 int64_t size, int32_t **peer, uint32_t **n, uint32_t *count)
{
	*count = 0;
	const char *s = group ? strings_get(group) : NULL;
	while (s && *s) {
		char *end;
		long a = strtol(s, &end, 10), b = a;
		if (end == s || a < 0)
			break;
		if (*end == '-') {
			const char *q = end + 1;
			b = strtol(q, &end, 10);
			if (end == q || b < a)
				break;
		}
		for (long k = a; k <= b && k < size && *count < size; k++) {
			*peer = xrealloc(*peer, (*count + 1) * sizeof(**peer));
			*n = xrealloc(*n, (*count + 1) * sizeof(**n));
			(*peer)[*count] = (int32_t)k;
			(*n)[*count] = exposed ? pair_next(r, e->comm, e->window, (int32_t)k, e->rank, 1)
					       : pair_next(r, e->comm, e->window, e->rank, (int32_t)k, 0);
			(*count)++;
		}
		s = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			break;
	}
}

/* The exposure epoch of e (rank me) ended in the call w. */
static void exposure_end(struct rmas *r, struct epoch *e, const struct mpi_where *w)
{
	for (uint32_t i = 0; i < e->nx; i++)
		end_seen(r, w, e->comm, e->window, e->rank, e->xpeer[i], e->xn[i],
			 away_to(r, e->xpeer[i]) >= 0);
	e->nx = 0;
	e->test.thread = NULL;
}

/* A new exposure epoch, a fence or the window freed: the one MPI_Win_test ended, if any. */
static void exposure_tested(struct rmas *r, struct epoch *e)
{
	if (e->nx && e->test.thread) {
		struct mpi_where w = e->test;
		exposure_end(r, e, &w);
	}
}

/* The ranks of w's job: its world size, else the processes of the trace. */
static int64_t job_size(const struct rmas *r, const struct mpi_where *w)
{
	int64_t n = w->thread->proc->world_size;
	return n > 0 ? n : (int64_t)r->pl->tr->nprocs;
}

/* A put, get or atomic operation of rank me in its epoch e. */
static void op_made(struct rmas *r, const struct mpi_where *w, uint32_t name, enum rma_kind k,
		    const struct mpi_info *mi, struct epoch *e, int32_t me)
{
	const struct tprof_mpi_args *a = &mi->a;
	if (e->mode == EP_NONE || mi->peer_world < 0 || (a->flags & TPROF_MPIF_PROC_NULL))
		return;
	uint32_t n = 0;
	if (e->mode == EP_FENCE && !a->seq)
		return;
	if (e->mode == EP_ACCESS) {
		for (uint32_t i = 0; !n && i < e->npeer; i++)
			if (e->peer[i] == mi->peer_world)
				n = e->n[i];
		if (!n) {   /* a target outside the group, or a group not recorded */
			r->pl->tr->mpi.rma_unlinked++;
			return;
		}
	}
	struct op *o = r->spare;
	if (o)
		r->spare = o->next;
	else
		o = xmalloc(sizeof(*o));
	memset(o, 0, sizeof(*o));
	o->name = name;
	o->info = (struct rma_info){ .comm_id = a->comm, .window = a->tag, .origin = me,
				     .target = mi->peer_world, .kind = (uint8_t)k,
				     .bytes = a->bytes + (mi->has_b ? mi->b.bytes : 0),
				     .othread = w->thread, .o_t0 = w->t0, .o_t1 = w->t1 };
	if (e->mode == EP_FENCE) {
		end_wait(r, o, -1, a->seq + 1);
	} else if (e->mode == EP_ACCESS) {
		end_wait(r, o, me, n);
	} else {
		o->next = e->pending;
		e->pending = o;
	}
}

void rmas_call(struct rmas *r, const struct mpi_where *w, uint32_t name, const struct mpi_info *mi)
{
	const struct tprof_mpi_args *a = &mi->a;
	enum rma_kind k = rma_kind(&r->kinds, name);
	if (k == RK_OTHER || !a->comm)
		return;
	int32_t me = (int32_t)w->thread->proc->rank;
	struct epoch *e = epoch_of(r, me, a->comm, a->tag);
	if (!e->asked && r->k > 1) {   /* a window with members elsewhere: keep my calls */
		e->asked = 1;
		e->remote = comm_remote(r, mi->comm);
		member_of(r, me)->keep += e->remote;
	}
	if (k == RK_FREE && e->asked) {
		e->asked = 0;
		member_of(r, me)->keep -= e->remote;
	}
	if (k == RK_PUT || k == RK_GET || k == RK_ATOMIC) {
		op_made(r, w, name, k, mi, e, me);
		return;
	}
	if (k == RK_FENCE || k == RK_FREE)
		exposure_tested(r, e);
	if (k == RK_FENCE) {
		e->mode = EP_FENCE;
		end_seen(r, w, a->comm, a->tag, me, -1, a->seq, e->remote);
		return;
	}
	if (k == RK_START) {
		e->mode = EP_ACCESS;
		group_epochs(r, e, mi->has_b ? mi->b.group : 0, 0, job_size(r, w), &e->peer, &e->n,
			     &e->npeer);
		return;
	}
	int32_t peer = mi->peer_world;
	switch (role(r, name)) {
	case RR_LOCK:
	case RR_LOCK_ALL:
		if (e->mode != EP_LOCK)
			e->locks = e->lock_all = 0;
		e->mode = EP_LOCK;
		if (role(r, name) == RR_LOCK)
			e->locks++;
		else
			e->lock_all = 1;
		break;
	case RR_FLUSH:
		if (peer >= 0)
			complete_pending(r, e, peer, w);
		break;
	case RR_FLUSH_ALL:
		complete_pending(r, e, -1, w);
		break;
	case RR_UNLOCK:
		if (peer >= 0)
			complete_pending(r, e, peer, w);
		if (e->locks > 0)
			e->locks--;
		if (!e->locks && !e->lock_all && e->mode == EP_LOCK) {
			unlinked(r, e->pending);
			e->pending = NULL;
			e->mode = EP_NONE;
		}
		break;
	case RR_UNLOCK_ALL:
		complete_pending(r, e, -1, w);
		e->lock_all = 0;
		if (!e->locks && e->mode == EP_LOCK)
			e->mode = EP_NONE;
		break;
	case RR_POST:
		exposure_tested(r, e);
		group_epochs(r, e, mi->has_b ? mi->b.group : 0, 1, job_size(r, w), &e->xpeer,
			     &e->xn, &e->nx);
		break;
	case RR_WAIT:
		exposure_end(r, e, w);
		break;
	case RR_TEST:
		e->test = *w;
		break;
	case RR_COMPLETE:
		if (e->mode == EP_ACCESS)
			e->mode = EP_NONE;
		e->npeer = 0;
		break;
	default:
		break;
	}
}

/* The parallel analyzer: a lock epoch's operation o from another analysis process, complete at
 * its target (read here) at o->info.t_at by the origin's call that started at `after`: linked
 * as complete_at and rmas_seen would have while reading, from the target's calls kept. */
static void lock_arrived(struct rmas *r, struct op *o, int64_t after)
{
	struct member *m = member_of(r, o->info.target);
	int64_t t = o->info.t_at;
	size_t lo = 0, hi = m->ncalls;   /* the calls read before the origin's: t0 <= after */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->calls[mid].t0 <= after)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (m->ncalls && !m->last) {
		m->last = xmallocarray(m->ncalls, sizeof(*m->last));
		for (size_t i = 0; i < m->ncalls; i++)
			m->last[i] = i && m->calls[i].t1 < m->calls[m->last[i - 1]].t1 ? m->last[i - 1]
										: i;
	}
	const struct mpi_where *last = lo ? &m->calls[m->last[lo - 1]] : NULL;
	if (last && last->t0 <= t && t <= last->t1) {
		emit(r, last->thread, last->t0, last->t1, t, o);
		return;
	}
	for (size_t i = lo; i < m->ncalls; i++) {
		const struct mpi_where *w = &m->calls[i];
		if (w->t1 >= t) {
			emit(r, w->thread, w->t0, w->t1, w->t0 <= t ? t : w->t0, o);
			return;
		}
	}
	unlinked(r, o);
}

/* The parallel analyzer: the operations kept aside go to the analysis processes that read
 * their targets, and those that came here are linked (collective). */
static void away_exchange(struct rmas *r)
{
	struct mail *m = mail_new();
	for (int to = 0; to < r->k; to++) {
		struct pack *b = &m->to[to];
		for (size_t i = 0; i < r->naway[to]; i++) {
			const struct away *a = &r->away[to][i];
			const struct rma_info *ri = &a->o.info;
			pack_name(b, a->o.name);
			pack_u64(b, ri->comm_id);
			pack_i64(b, ri->window);
			pack_i64(b, ri->origin);
			pack_i64(b, ri->target);
			pack_u64(b, ri->kind);
			pack_u64(b, ri->bytes);
			pack_i64(b, ri->othread->proc->index);
			pack_i64(b, ri->othread->tid);
			pack_i64(b, ri->o_t0);
			pack_i64(b, ri->o_t1);
			pack_i64(b, a->lock);
			pack_i64(b, a->origin);
			pack_u64(b, a->seq);
			pack_i64(b, ri->t_at);
			pack_i64(b, a->after);
		}
		free(r->away[to]);
	}
	mail_exchange(m);
	free(r->away);
	free(r->naway);
	free(r->capaway);
	r->away = NULL;
	for (struct unpack u = mail_all(m); unpack_more(&u);) {
		struct op o = { .name = unpack_name(&u) };
		struct rma_info *ri = &o.info;
		ri->comm_id = unpack_u64(&u);
		ri->window = (int32_t)unpack_i64(&u);
		ri->origin = (int32_t)unpack_i64(&u);
		ri->target = (int32_t)unpack_i64(&u);
		ri->kind = (uint8_t)unpack_u64(&u);
		ri->bytes = unpack_u64(&u);
		int64_t index = unpack_i64(&u), tid = unpack_i64(&u);
		ri->o_t0 = unpack_i64(&u);
		ri->o_t1 = unpack_i64(&u);
		int lock = (int)unpack_i64(&u);
		int32_t origin = (int32_t)unpack_i64(&u);
		uint32_t seq = (uint32_t)unpack_u64(&u);
		ri->t_at = unpack_i64(&u);
		int64_t after = unpack_i64(&u);
		if (u.short_read)
			break;
		ri->othread = remote_thread(r->remotes, index, ri->origin, (int32_t)tid);
		struct op *mine = r->spare;
		if (mine)
			r->spare = mine->next;
		else
			mine = xmalloc(sizeof(*mine));
		*mine = o;
		if (lock)
			lock_arrived(r, mine, after);
		else
			end_wait(r, mine, origin, seq);
	}
	mail_free(m);
}

void rmas_finish(struct rmas *r)
{
	for (size_t i = 0; i < r->epochs.n; i++)
		exposure_tested(r, (struct epoch *)r->epochs.v[i]);
	if (r->k > 1)
		away_exchange(r);
	while (r->ends.n)
		end_drop(r, (struct end *)r->ends.v[r->ends.n - 1]);
	while (r->epochs.n) {
		struct epoch *e = (struct epoch *)r->epochs.v[r->epochs.n - 1];
		unlinked(r, e->pending);
		hpool_remove(&r->epochs, &e->item);
		free(e->peer);
		free(e->n);
		free(e->xpeer);
		free(e->xn);
		free(e);
	}
	while (r->pairs.n) {
		struct pair *p = (struct pair *)r->pairs.v[r->pairs.n - 1];
		hpool_remove(&r->pairs, &p->item);
		free(p);
	}
	while (r->members.n) {
		struct member *m = (struct member *)r->members.v[r->members.n - 1];
		unlinked(r, m->inbound);
		free(m->calls);
		free(m->last);
		hpool_remove(&r->members, &m->item);
		free(m);
	}
	hpool_free(&r->ends);
	hpool_free(&r->epochs);
	hpool_free(&r->pairs);
	hpool_free(&r->members);
	for (struct op *o = r->spare, *next; o; o = next) {
		next = o->next;
		free(o);
	}
	if (r->remotes)
		remotes_free(r->remotes);
	free(r->kinds.kind_of);
	free(r);
}
