/* runtimes/mpi/coll.c — collectives lined up across ranks.
 *
 * Every member of a communicator numbers the collectives it calls on it alike (seq), so the
 * calls with one (communicator, seq) are one collective.  Blocking calls enter and leave it
 * in one call; a nonblocking one enters at its post and leaves at the completion of its
 * request (MPIREQ) inside a later call.  Once every member of the communicator that has a
 * process in the trace has been seen, the collective is emitted as EV_COLLECTIVE (earliest
 * and latest entry and exit, bytes summed, root) and forgotten, so memory follows the
 * collectives in progress.  Those still missing members when the data ends are emitted then,
 * flagged EVF_INCOMPLETE, as are those whose communicator has members that were not
 * recorded.  Members that call different functions for one collective are counted. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../../../common/xalloc.h"
#include "../../model/emit.h"
#include "../../util/hpool.h"
#include "mpi.h"

struct inst {
	struct hpool_item item;         /* by (comm, self, seq) in colls.insts */
	struct inst *next_spare;
	uint64_t comm;
	int32_t self;                   /* TPROF_COMM_SELF: whose */
	uint32_t seq;
	uint64_t order;                 /* creation order, for the end */
	const struct mpi_comm *c;
	uint32_t size, expect;          /* members, and those with a process in the trace
					 * (0: unknown, wait for the end) */
	struct coll_member *m;
	uint32_t n, cap;
	int32_t root;
	int differ;
};

/* A nonblocking collective posted and not yet completed. */
struct pend {
	struct pend *next;
	uint64_t comm, req;
	uint32_t seq;
	int32_t root;
	struct coll_member mb;
};

struct colls {
	struct pipeline *pl;
	struct hpool insts;             /* the collectives waiting for members */
	uint64_t next_order, next_id;
	struct inst *spare;             /* freed instances, their member arrays kept */
	struct pend **pend;             /* by process index - 1 */
	size_t npend;
	int32_t world_size;
	uint32_t world_recorded;        /* ranks below world_size with a process in the trace */
};

/* More collectives than this waiting for members: the oldest is emitted as it is. */
#define INFLIGHT_MAX 65536

static int by_int(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return x < y ? -1 : x > y;
}

struct colls *colls_new(struct pipeline *pl)
{
	struct colls *c = xcalloc(1, sizeof(*c));
	c->pl = pl;
	const struct trace *tr = pl->tr;
	c->npend = tr->nprocs ? tr->nprocs : 1;
	c->pend = xcalloc(c->npend, sizeof(*c->pend));
	int32_t maxr = -1;
	int32_t *ranks = xmallocarray(tr->nprocs ? tr->nprocs : 1, sizeof(*ranks));
	size_t n = 0;
	for (size_t i = 0; i < tr->nprocs; i++) {
		if (tr->procs[i]->rank >= 0 && tr->procs[i]->rank < (1 << 24))
			ranks[n++] = (int32_t)tr->procs[i]->rank;
		if (tr->procs[i]->rank > maxr && tr->procs[i]->rank < (1 << 24))
			maxr = (int32_t)tr->procs[i]->rank;
		if (tr->procs[i]->world_size > c->world_size && tr->procs[i]->world_size < (1 << 24))
			c->world_size = (int32_t)tr->procs[i]->world_size;
	}
	if (c->world_size < maxr + 1)
		c->world_size = maxr + 1;
	/* every rank is below world_size: the distinct ones are the world's recorded members */
	qsort(ranks, n, sizeof(*ranks), by_int);
	for (size_t i = 0; i < n; i++)
		c->world_recorded += !i || ranks[i] != ranks[i - 1];
	free(ranks);
	return c;
}

static uint64_t inst_hash(uint64_t comm, int32_t self, uint32_t seq)
{
	uint64_t h = comm * 0x9e3779b97f4a7c15ull ^ ((uint64_t)seq << 32 | (uint32_t)self) * 0xc2b2ae3d27d4eb4full;
	return h ^ (h >> 29);
}

static struct inst *find(struct colls *c, uint64_t h, uint64_t comm, int32_t self, uint32_t seq)
{
	size_t at;
	for (struct inst *x = hpool_first(&c->insts, h, &at); x; x = hpool_next(&c->insts, h, &at))
		if (x->comm == comm && x->self == self && x->seq == seq)
			return x;
	return NULL;
}

/* Members of the communicator, and how many of them were recorded. */
static void members(struct colls *c, struct inst *x)
{
	const struct trace *tr = c->pl->tr;
	x->c = trace_comm(tr, x->comm, x->self);
	if (x->comm == TPROF_COMM_SELF) {
		x->size = x->expect = 1;
		return;
	}
	if (x->c) {
		/* Both groups of an inter-communicator take part. */
		x->size = x->c->size + (x->c->kind == TPROF_COMMK_INTER ? x->c->remote_size : 0);
		x->expect = x->c->recorded;
		if (!x->expect)
			x->expect = x->size;
	} else if (x->comm == TPROF_COMM_WORLD && c->world_size > 0) {
		x->size = (uint32_t)c->world_size;
		x->expect = c->world_recorded;
	}
}

static void emit(struct colls *c, struct inst *x, unsigned flags)
{
	struct trace *tr = c->pl->tr;
	struct coll_info ci = {
		.comm = x->c, .comm_id = x->comm, .seq = x->seq, .name = x->m[0].name,
		.members = x->size, .seen = x->n, .root_world = x->root, .id = ++c->next_id,
		.m = x->m, .nm = x->n, .names_differ = x->differ,
	};
	const struct coll_member *last = &x->m[0];
	for (uint32_t i = 0; i < x->n; i++) {
		const struct coll_member *mb = &x->m[i];
		if (!i || mb->t0 < ci.first_begin)
			ci.first_begin = mb->t0;
		if (!i || mb->t0 > ci.last_begin) {
			ci.last_begin = mb->t0;
			last = mb;
		}
		if (!i || mb->t1 < ci.first_end)
			ci.first_end = mb->t1;
		if (!i || mb->t1 > ci.last_end)
			ci.last_end = mb->t1;
		ci.bytes_sent += mb->bytes_sent;
		ci.bytes_recv += mb->bytes_recv;
	}
	for (uint32_t i = 0; i < x->n; i++)
		ci.wait_total = sat_add(ci.wait_total, ci.last_begin - x->m[i].t0);
	if (x->n < x->size || !x->size)
		flags |= EVF_INCOMPLETE;
	tr->mpi.colls++;
	if (flags & EVF_INCOMPLETE) {
		tr->mpi.colls_incomplete++;
		char comm[64];
		if (x->c && x->c->name)
			snprintf(comm, sizeof(comm), "%s", strings_get(x->c->name));
		else
			snprintf(comm, sizeof(comm), "communicator 0x%" PRIx64, x->comm);
		diag_note("incomplete collective: %s #%u on %s, %u of %u members", strings_get(ci.name),
			  x->seq, comm, x->n, x->size);
	}
	if (x->differ)
		tr->mpi.colls_name_mismatch++;
	struct event ev = { .kind = EV_COLLECTIVE, .flags = flags, .proc = last->proc,
			    .thread = last->thread, .name = ci.name, .t0 = ci.first_begin,
			    .t1 = ci.last_end, .coll = &ci };
	emit_derived(c->pl, &ev);
}

/* An instance emitted, kept for the next. */
static void unlink_inst(struct colls *c, struct inst *x)
{
	hpool_remove(&c->insts, &x->item);
	x->next_spare = c->spare;
	c->spare = x;
}

static void oldest_out(struct colls *c)
{
	struct inst *o = NULL;
	for (size_t i = 0; i < c->insts.n; i++) {
		struct inst *x = (struct inst *)c->insts.v[i];
		if (!o || x->order < o->order)
			o = x;
	}
	if (o) {
		emit(c, o, EVF_INCOMPLETE);
		unlink_inst(c, o);
	}
}

/* One member's part, complete: entry and exit known. */
static void add(struct colls *c, uint64_t comm, uint32_t seq, int32_t root,
		const struct coll_member *mb)
{
	int32_t self = comm == TPROF_COMM_SELF ? mb->world : 0;
	uint64_t h = inst_hash(comm, self, seq);
	struct inst *x = find(c, h, comm, self, seq);
	if (!x) {
		if (c->insts.n >= INFLIGHT_MAX)
			oldest_out(c);
		if ((x = c->spare)) {
			c->spare = x->next_spare;
			struct coll_member *m = x->m;
			uint32_t cap = x->cap;
			memset(x, 0, sizeof(*x));
			x->m = m;
			x->cap = cap;
		} else {
			x = xcalloc(1, sizeof(*x));
		}
		x->comm = comm;
		x->self = self;
		x->seq = seq;
		x->order = ++c->next_order;
		x->root = TPROF_MPI_NONE;
		members(c, x);
		hpool_add(&c->insts, &x->item, h);
	}
	if (x->n == x->cap) {
		x->cap = x->cap ? x->cap * 2 : (x->expect && x->expect <= 64 ? x->expect : 8);
		x->m = xreallocarray(x->m, x->cap, sizeof(*x->m));
	}
	x->m[x->n++] = *mb;
	if (x->n > 1 && mb->name != x->m[0].name)
		x->differ = 1;
	if (x->root < 0 && root >= 0)
		x->root = root;
	if (x->expect && x->n >= x->expect) {
		emit(c, x, x->expect < x->size ? EVF_INCOMPLETE : 0);
		unlink_inst(c, x);
	}
}

static struct coll_member member_of(const struct mpi_where *w, uint32_t name,
				    const struct mpi_info *mi)
{
	return (struct coll_member){
		.proc = w->thread->proc, .thread = w->thread, .world = (int32_t)w->thread->proc->rank,
		.name = name, .t0 = w->t0, .t1 = w->t1, .post_t1 = w->t1, .done_t0 = w->t0,
		.done_t1 = w->t1, .done_thread = w->thread, .bytes_sent = mi->a.bytes,
		.bytes_recv = mi->has_b ? mi->b.bytes : 0,
	};
}

void colls_blocking(struct colls *c, const struct mpi_where *w, uint32_t name,
		    const struct mpi_info *mi)
{
	struct coll_member mb = member_of(w, name, mi);
	add(c, mi->a.comm, mi->a.seq, mi->peer_world, &mb);
}

static struct pend **pend_list(struct colls *c, const struct proc *p)
{
	size_t i = p->index > 0 ? (size_t)p->index - 1 : 0;
	if (i >= c->npend) {
		size_t n = i + 1;
		c->pend = xreallocarray(c->pend, n, sizeof(*c->pend));
		memset(c->pend + c->npend, 0, (n - c->npend) * sizeof(*c->pend));
		c->npend = n;
	}
	return &c->pend[i];
}

void colls_post(struct colls *c, const struct mpi_where *w, uint32_t name, const struct mpi_info *mi)
{
	struct pend *pd = xcalloc(1, sizeof(*pd));
	pd->comm = mi->a.comm;
	pd->seq = mi->a.seq;
	pd->req = mi->has_b ? mi->b.req : 0;
	pd->root = mi->peer_world;
	pd->mb = member_of(w, name, mi);
	struct pend **l = pend_list(c, w->thread->proc);
	/* Appended: completions usually come in posting order. */
	while (*l)
		l = &(*l)->next;
	*l = pd;
}

void colls_done(struct colls *c, const struct mpi_where *w, uint32_t name, const struct mpi_info *mi,
		int64_t at)
{
	struct pend **l = pend_list(c, w->thread->proc), *pd = NULL;
	uint64_t req = mi->has_b ? mi->b.req : 0;
	for (; *l; l = &(*l)->next)
		if (mi->a.seq ? (*l)->seq == mi->a.seq && (*l)->comm == mi->a.comm
			      : req && (*l)->req == req) {
			pd = *l;
			*l = pd->next;
			break;
		}
	struct coll_member mb;
	uint64_t comm = mi->a.comm;
	uint32_t seq = mi->a.seq;
	int32_t root = mi->peer_world;
	if (pd) {
		mb = pd->mb;
		comm = pd->comm;
		seq = pd->seq;
		root = pd->root;
		free(pd);
	} else {
		/* Its post was not recorded: it entered when the completing call did. */
		mb = member_of(w, name, mi);
	}
	mb.t1 = at;
	mb.done_t0 = w->t0;
	mb.done_t1 = w->t1;
	mb.done_thread = w->thread;
	add(c, comm, seq, root, &mb);
}

/* Instances in the pool, by creation. */
static int by_order(const void *a, const void *b)
{
	const struct inst *x = (const struct inst *)*(struct hpool_item *const *)a;
	const struct inst *y = (const struct inst *)*(struct hpool_item *const *)b;
	return x->order < y->order ? -1 : x->order > y->order;
}

void colls_finish(struct colls *c)
{
	if (c->insts.n > 1)
		qsort(c->insts.v, c->insts.n, sizeof(*c->insts.v), by_order);
	for (size_t i = 0; i < c->insts.n; i++) {
		struct inst *x = (struct inst *)c->insts.v[i];
		emit(c, x, EVF_INCOMPLETE);
		free(x->m);
		free(x);
	}
	hpool_free(&c->insts);
	for (size_t i = 0; i < c->npend; i++)
		for (struct pend *pd = c->pend[i], *next; pd; pd = next) {
			next = pd->next;
			free(pd);
		}
	free(c->pend);
	for (struct inst *x = c->spare, *next; x; x = next) {
		next = x->next_spare;
		free(x->m);
		free(x);
	}
	free(c);
}
