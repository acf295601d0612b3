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
 * recorded.  Members that call different functions for one collective are counted.
 *
 * In the parallel analyzer the members of a collective are read by several analysis
 * processes: each keeps its members' parts, with where they came in the pipeline's order, and
 * at the end sends each to the analysis process its (communicator, seq) hashes to, which puts
 * every collective's parts back in that order and groups them as above. */
#include <inttypes.h>
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

/* A member's part kept for the analysis process that groups its collective (parallel), with
 * where it came in the order the pipeline hands events over. */
struct part {
	uint64_t comm;
	int32_t self, root;
	uint32_t seq;
	int64_t at;                     /* the time of the record that completed it */
	int64_t proc;                   /* its process's number */
	uint32_t stream;                /* and stream */
	uint64_t n;                     /* and its place among the parts of this process */
	struct coll_member mb;
};

struct colls {
	struct pipeline *pl;
	int k;                          /* analysis processes: parts kept when more than one */
	struct part *parts;
	size_t nparts, capparts;
	struct remotes *remotes;        /* the members' processes, where they are grouped */
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

struct colls *colls_new(struct pipeline *pl)
{
	struct colls *c = xcalloc(1, sizeof(*c));
	c->pl = pl;
	const struct trace *tr = pl->tr;
	c->npend = tr->nprocs ? tr->nprocs : 1;
	c->pend = xcalloc(c->npend, sizeof(*c->pend));
	c->k = par_size();
	/* every process with a rank, whoever reads it (read/share.c), by rank */
	int32_t maxr = -1;
	for (size_t i = 0; i < tr->nhomes && tr->homes[i].rank < (1 << 24); i++) {
		c->world_recorded += !i || tr->homes[i].rank != tr->homes[i - 1].rank;
		maxr = tr->homes[i].rank;
	}
	c->world_size = tr->world_size > 0 ? (int32_t)tr->world_size : 0;
	if (c->world_size < maxr + 1)
		c->world_size = maxr + 1;
	return c;
}

/* Every bit of the three reaches the low bits, which choose the analysis process (h % K):
 * splitmix64's finish. */
static uint64_t inst_hash(uint64_t comm, int32_t self, uint32_t seq)
{
	uint64_t h = comm * 0x9e3779b97f4a7c15ull ^ ((uint64_t)seq << 32 | (uint32_t)self);
	h ^= h >> 30;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 27;
	h *= 0x94d049bb133111ebull;
	return h ^ (h >> 31);
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
		.members = x->size, .seen = x->n, .root_world = x->root, .id = ++c->next_id * (uint64_t)par_size() + (uint64_t)par_rank(),
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
	/* the calls its arrows join, as the window keeps them */
	const struct window *w = &c->pl->win;
	ci.last_kept = emit_kept(w, &(struct event){ .kind = EV_CALL, .t0 = last->t0 });
	for (uint32_t i = 0; i < x->n; i++)
		x->m[i].done_kept = emit_kept(w, &(struct event){ .kind = EV_CALL,
								 .t0 = x->m[i].done_t0 });
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
static void group(struct colls *c, uint64_t comm, uint32_t seq, int32_t root,
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

/* A member's part, complete, which came with a record at `at` (ns from the trace start): grouped
 * now, or kept for the analysis process that groups its collective. */
static void add(struct colls *c, uint64_t comm, uint32_t seq, int32_t root,
		const struct coll_member *mb, int64_t at)
{
	if (c->k < 2) {
		group(c, comm, seq, root, mb);
		return;
	}
	c->parts = util_grow(c->parts, &c->capparts, c->nparts, sizeof(*c->parts), 256);
	c->parts[c->nparts] = (struct part){
		.comm = comm, .self = comm == TPROF_COMM_SELF ? mb->world : 0, .root = root,
		.seq = seq, .at = at, .proc = mb->proc->index, .stream = mb->thread->stream,
		.n = c->nparts, .mb = *mb,
	};
	c->nparts++;
}

static struct coll_member member_of(const struct mpi_where *w, uint32_t name,
				    const struct mpi_info *mi)
{
	return (struct coll_member){
		.proc = w->thread->proc, .thread = w->thread, .world = (int32_t)w->thread->proc->rank,
		.name = name, .caller = w->caller, .t0 = w->t0, .t1 = w->t1, .post_t1 = w->t1,
		.done_t0 = w->t0,
		.done_t1 = w->t1, .done_thread = w->thread, .bytes_sent = mi->a.bytes,
		.bytes_recv = mi->has_b ? mi->b.bytes : 0,
	};
}

void colls_blocking(struct colls *c, const struct mpi_where *w, uint32_t name,
		    const struct mpi_info *mi)
{
	struct coll_member mb = member_of(w, name, mi);
	add(c, mi->a.comm, mi->a.seq, mi->peer_world, &mb, w->t0);
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
	add(c, comm, seq, root, &mb, at);
}

/* ---- the parallel analyzer: parts to the analysis process that groups their collective ---- */

static void part_pack(struct pack *b, const struct part *p)
{
	const struct coll_member *mb = &p->mb;
	pack_u64(b, p->comm);
	pack_i64(b, p->self);
	pack_i64(b, p->root);
	pack_u64(b, p->seq);
	pack_i64(b, p->at);
	pack_i64(b, p->proc);
	pack_u64(b, p->stream);
	pack_u64(b, p->n);
	pack_i64(b, mb->world);
	pack_i64(b, mb->thread->tid);
	pack_i64(b, mb->done_thread ? mb->done_thread->tid : mb->thread->tid);
	pack_name(b, mb->name);
	pack_name(b, mb->caller);
	pack_i64(b, mb->t0);
	pack_i64(b, mb->t1);
	pack_i64(b, mb->post_t1);
	pack_i64(b, mb->done_t0);
	pack_i64(b, mb->done_t1);
	pack_u64(b, mb->bytes_sent);
	pack_u64(b, mb->bytes_recv);
}

static void part_unpack(struct colls *c, struct unpack *u, struct part *p)
{
	struct coll_member *mb = &p->mb;
	p->comm = unpack_u64(u);
	p->self = (int32_t)unpack_i64(u);
	p->root = (int32_t)unpack_i64(u);
	p->seq = (uint32_t)unpack_u64(u);
	p->at = unpack_i64(u);
	p->proc = unpack_i64(u);
	p->stream = (uint32_t)unpack_u64(u);
	p->n = unpack_u64(u);
	mb->world = (int32_t)unpack_i64(u);
	int32_t tid = (int32_t)unpack_i64(u), done_tid = (int32_t)unpack_i64(u);
	mb->name = unpack_name(u);
	mb->caller = unpack_name(u);
	mb->t0 = unpack_i64(u);
	mb->t1 = unpack_i64(u);
	mb->post_t1 = unpack_i64(u);
	mb->done_t0 = unpack_i64(u);
	mb->done_t1 = unpack_i64(u);
	mb->bytes_sent = unpack_u64(u);
	mb->bytes_recv = unpack_u64(u);
	mb->thread = remote_thread(c->remotes, p->proc, mb->world, tid);
	mb->done_thread = remote_thread(c->remotes, p->proc, mb->world, done_tid);
	mb->proc = mb->thread->proc;
}

static uint64_t part_hash(const struct part *p)
{
	return inst_hash(p->comm, p->self, p->seq);
}

/* By collective, then in the order the serial pipeline would have handed them over. */
static int by_part(const void *a, const void *b)
{
	const struct part *x = a, *y = b;
	if (x->comm != y->comm)
		return x->comm < y->comm ? -1 : 1;
	if (x->self != y->self)
		return x->self < y->self ? -1 : 1;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	if (x->proc != y->proc)
		return x->proc < y->proc ? -1 : 1;
	if (x->stream != y->stream)
		return x->stream < y->stream ? -1 : 1;
	return x->n < y->n ? -1 : x->n > y->n;
}

/* Every part to the analysis process its collective hashes to, which groups them
 * (collective: every analysis process calls it). */
static void parts_exchange(struct colls *c)
{
	struct mail *m = mail_new();
	for (size_t i = 0; i < c->nparts; i++)
		part_pack(&m->to[part_hash(&c->parts[i]) % (size_t)c->k], &c->parts[i]);
	free(c->parts);
	c->parts = NULL;
	mail_exchange(m);
	c->remotes = remotes_new();
	struct part *v = NULL;
	size_t n = 0, cap = 0;
	for (struct unpack u = mail_all(m); unpack_more(&u);) {
		v = util_grow(v, &cap, n, sizeof(*v), 256);
		part_unpack(c, &u, &v[n]);
		if (u.short_read)
			break;
		n++;
	}
	mail_free(m);
	if (n > 1)
		qsort(v, n, sizeof(*v), by_part);
	for (size_t i = 0; i < n; i++)
		group(c, v[i].comm, v[i].seq, v[i].root, &v[i].mb);
	free(v);
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
	if (c->k > 1)
		parts_exchange(c);
	if (c->insts.n > 1)
		qsort(c->insts.v, c->insts.n, sizeof(*c->insts.v), by_order);
	for (size_t i = 0; i < c->insts.n; i++) {
		struct inst *x = (struct inst *)c->insts.v[i];
		emit(c, x, EVF_INCOMPLETE);
		free(x->m);
		free(x);
	}
	hpool_free(&c->insts);
	const struct hang_sink *hs = c->pl->hangs;
	for (size_t i = 0; i < c->npend; i++)
		for (struct pend *pd = c->pend[i], *next; pd; pd = next) {
			next = pd->next;
			if (hs && pd->comm != TPROF_COMM_SELF)
				mpi_hang_posted(hs, trace_comm(c->pl->tr, pd->comm, 0), pd->comm,
						pd->seq, &pd->mb);
			free(pd);
		}
	free(c->pend);
	for (struct inst *x = c->spare, *next; x; x = next) {
		next = x->next_spare;
		free(x->m);
		free(x);
	}
	if (c->remotes)
		remotes_free(c->remotes);
	free(c);
}
