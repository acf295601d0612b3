/* runtimes/mpi/rma.c — one-sided communication across ranks.  A window is known by its
 * communicator and its number over it (the same on every member), every call on it says
 * how many fences the window saw before it at the calling process (a fence: its own number),
 * and fences are collective: the puts, gets and atomic operations an origin makes in fence
 * epoch s (after its fence s, before its fence s + 1) are complete at their target when the
 * target's fence s + 1 returns.  Each is linked to that call (EV_RMA, drawn as an arrow from
 * the origin's call to the target's fence), whichever of the two the pipeline reads first.
 * An origin's epoch is a fence epoch from its fence until it locks the window or starts an
 * access epoch (MPI_Win_lock, _lock_all, _start); operations in those passive-target and
 * PSCW epochs are not linked.  Per (window, target) the last two fences are kept, so memory
 * follows the windows, ranks and operations in flight. */
#include <stdlib.h>
#include <string.h>

#include "../../../common/xalloc.h"
#include "../../model/emit.h"
#include "../../util/hpool.h"
#include "mpi.h"

/* What each call on a window is. */
static const struct {
	const char *name;
	uint8_t kind;
} kinds[] = {
	{ "MPI_Put", RK_PUT }, { "MPI_Rput", RK_PUT }, { "MPI_Get", RK_GET }, { "MPI_Rget", RK_GET },
	{ "MPI_Accumulate", RK_ATOMIC }, { "MPI_Raccumulate", RK_ATOMIC },
	{ "MPI_Get_accumulate", RK_ATOMIC }, { "MPI_Rget_accumulate", RK_ATOMIC },
	{ "MPI_Fetch_and_op", RK_ATOMIC }, { "MPI_Compare_and_swap", RK_ATOMIC },
	{ "MPI_Win_fence", RK_FENCE }, { "MPI_Win_lock", RK_LOCK }, { "MPI_Win_lock_all", RK_LOCK },
	{ "MPI_Win_start", RK_START }, { "MPI_Win_unlock", RK_END },
	{ "MPI_Win_unlock_all", RK_END }, { "MPI_Win_complete", RK_END },
	{ "MPI_Win_post", RK_SYNC }, { "MPI_Win_wait", RK_SYNC }, { "MPI_Win_test", RK_SYNC },
	{ "MPI_Win_flush", RK_SYNC }, { "MPI_Win_flush_all", RK_SYNC },
	{ "MPI_Win_flush_local", RK_SYNC }, { "MPI_Win_flush_local_all", RK_SYNC },
	{ "MPI_Win_sync", RK_SYNC }, { "MPI_Win_create", RK_MADE }, { "MPI_Win_allocate", RK_MADE },
	{ "MPI_Win_allocate_shared", RK_MADE }, { "MPI_Win_create_dynamic", RK_MADE },
	{ "MPI_Win_free", RK_FREE },
};

enum rma_kind rma_kind_of(const char *s)
{
	if (strncmp(s, "MPI_", 4))
		return RK_OTHER;
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(s, kinds[i].name))
			return (enum rma_kind)kinds[i].kind;
	return RK_OTHER;
}

enum rma_kind rma_kind(struct rma_kinds *k, uint32_t name)
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
		k->kind_of[name] = (uint8_t)(rma_kind_of(strings_get(name)) + 1);
	return (enum rma_kind)(k->kind_of[name] - 1);
}

/* An operation waiting for the fence that ends its epoch at its target. */
struct op {
	struct op *next;
	struct rma_info info;
	uint32_t name;
};

/* A fence of a target, or the operations waiting for it: (window, target, seq). */
struct fence {
	struct hpool_item item;
	uint64_t comm;
	int32_t window, rank;
	uint32_t seq;
	int seen;                        /* the target's fence was read: thread, t0, t1 */
	struct thread *thread;
	int64_t t0, t1;
	struct op *waiting;
};

/* An origin's epoch on a window: (process, window). */
struct epoch {
	struct hpool_item item;
	int proc;
	uint64_t comm;
	int32_t window;
	int fence;                       /* in a fence epoch */
};

struct rmas {
	struct pipeline *pl;
	struct rma_kinds kinds;
	struct hpool fences, epochs;
	struct op *spare;
	uint64_t next_id;
};

struct rmas *rmas_new(struct pipeline *pl)
{
	struct rmas *r = xcalloc(1, sizeof(*r));
	r->pl = pl;
	return r;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	h = (h ^ v) * 0x9e3779b97f4a7c15ull;
	return h ^ h >> 29;
}

static struct fence *fence_of(struct rmas *r, uint64_t comm, int32_t window, int32_t rank,
			      uint32_t seq, int make)
{
	uint64_t h = mix(mix(mix(mix(0, comm), (uint32_t)window), (uint32_t)rank), seq);
	size_t at;
	for (struct fence *f = hpool_first(&r->fences, h, &at); f;
	     f = hpool_next(&r->fences, h, &at))
		if (f->comm == comm && f->window == window && f->rank == rank && f->seq == seq)
			return f;
	if (!make)
		return NULL;
	struct fence *f = xcalloc(1, sizeof(*f));
	f->comm = comm;
	f->window = window;
	f->rank = rank;
	f->seq = seq;
	hpool_add(&r->fences, &f->item, h);
	return f;
}

static struct epoch *epoch_of(struct rmas *r, int proc, uint64_t comm, int32_t window)
{
	uint64_t h = mix(mix(mix(1, (uint32_t)proc), comm), (uint32_t)window);
	size_t at;
	for (struct epoch *e = hpool_first(&r->epochs, h, &at); e;
	     e = hpool_next(&r->epochs, h, &at))
		if (e->proc == proc && e->comm == comm && e->window == window)
			return e;
	struct epoch *e = xcalloc(1, sizeof(*e));
	e->proc = proc;
	e->comm = comm;
	e->window = window;
	hpool_add(&r->epochs, &e->item, h);
	return e;
}

/* Operation o linked to the target's fence f: its EV_RMA. */
static void emit(struct rmas *r, const struct fence *f, struct op *o)
{
	struct rma_info *ri = &o->info;
	ri->tthread = f->thread;
	ri->t_t0 = f->t0;
	ri->t_t1 = f->t1;
	ri->id = r->next_id++;
	struct event ev = { .kind = EV_RMA, .proc = f->thread->proc, .thread = f->thread,
			    .name = o->name, .t0 = ri->o_t0, .t1 = f->t1, .info = ri };
	r->pl->tr->mpi.rma_linked++;
	emit_derived(r->pl, &ev);
}

static void drop(struct rmas *r, struct fence *f)
{
	for (struct op *o = f->waiting, *next; o; o = next) {
		next = o->next;
		r->pl->tr->mpi.rma_unlinked++;
		o->next = r->spare;
		r->spare = o;
	}
	hpool_remove(&r->fences, &f->item);
	free(f);
}

/* The target's fence seq was read: what waits for it goes out, and the fence two before is
 * forgotten. */
static void fence_seen(struct rmas *r, const struct mpi_where *w, const struct mpi_info *mi,
		       int32_t me)
{
	struct fence *f = fence_of(r, mi->a.comm, mi->a.tag, me, mi->a.seq, 1);
	f->seen = 1;
	f->thread = w->thread;
	f->t0 = w->t0;
	f->t1 = w->t1;
	for (struct op *o = f->waiting, *next; o; o = next) {
		next = o->next;
		emit(r, f, o);
		o->next = r->spare;
		r->spare = o;
	}
	f->waiting = NULL;
	struct fence *old = mi->a.seq > 2 ? fence_of(r, mi->a.comm, mi->a.tag, me, mi->a.seq - 2, 0)
					  : NULL;
	if (old)
		drop(r, old);
}

void rmas_call(struct rmas *r, const struct mpi_where *w, uint32_t name, const struct mpi_info *mi)
{
	const struct tprof_mpi_args *a = &mi->a;
	enum rma_kind k = rma_kind(&r->kinds, name);
	if (k == RK_OTHER || k == RK_SYNC || k == RK_END || k == RK_MADE || k == RK_FREE)
		return;
	struct epoch *e = epoch_of(r, w->thread->proc->index, a->comm, a->tag);
	if (k == RK_FENCE) {
		e->fence = 1;
		fence_seen(r, w, mi, (int32_t)w->thread->proc->rank);
		return;
	}
	if (k == RK_LOCK || k == RK_START) {
		e->fence = 0;
		return;
	}
	/* a put, get or atomic operation */
	if (!e->fence || !a->seq || mi->peer_world < 0 || (a->flags & TPROF_MPIF_PROC_NULL))
		return;
	struct op *o = r->spare;
	if (o)
		r->spare = o->next;
	else
		o = xmalloc(sizeof(*o));
	memset(o, 0, sizeof(*o));
	o->name = name;
	o->info = (struct rma_info){ .comm_id = a->comm, .window = a->tag,
				     .origin = (int32_t)w->thread->proc->rank,
				     .target = mi->peer_world, .kind = (uint8_t)k,
				     .bytes = a->bytes + (mi->has_b ? mi->b.bytes : 0),
				     .othread = w->thread, .o_t0 = w->t0, .o_t1 = w->t1 };
	struct fence *f = fence_of(r, a->comm, a->tag, mi->peer_world, a->seq + 1, 1);
	if (f->seen) {
		emit(r, f, o);
		o->next = r->spare;
		r->spare = o;
		return;
	}
	o->next = f->waiting;
	f->waiting = o;
}

void rmas_finish(struct rmas *r)
{
	while (r->fences.n)
		drop(r, (struct fence *)r->fences.v[r->fences.n - 1]);
	while (r->epochs.n) {
		struct epoch *e = (struct epoch *)r->epochs.v[r->epochs.n - 1];
		hpool_remove(&r->epochs, &e->item);
		free(e);
	}
	hpool_free(&r->fences);
	hpool_free(&r->epochs);
	for (struct op *o = r->spare, *next; o; o = next) {
		next = o->next;
		free(o);
	}
	free(r->kinds.kind_of);
	free(r);
}
