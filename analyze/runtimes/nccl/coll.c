/* runtimes/nccl/coll.c — NCCL/RCCL operations lined up across ranks.
 *
 * A rank's launch is what reaches its device as one piece of work: an operation called
 * outside a group (keyed by its correlation id, which its DEVICE record carries as arg), or
 * every operation between the outermost ncclGroupStart and its ncclGroupEnd (keyed by the
 * group id, the outermost start's correlation id, which the grouped calls carry as aux and
 * the group's DEVICE records as coll.group: one per stream the group used).  A launch is
 * complete once its launching call was seen (the operation, or the outermost ncclGroupEnd),
 * each of its operations found its counterparts, and a device span came for each stream of
 * its timed operations.
 *
 * Operations are matched as NCCL defines them: a collective by (communicator, seq) on all
 * nranks ranks, a send by (communicator, sender, receiver, seq) with the receive numbered
 * alike.  A completed match joins the launches of its members (union-find), so a group that
 * mixes collectives and point-to-point operations joins every launch it touches; once every
 * launch so joined is complete, they are emitted together as one EV_NCCL and forgotten:
 * memory follows the launches still waiting for a rank.  What is left when the data ends
 * (a rank's records missing, a device span never resolved) is emitted then, flagged
 * incomplete; a cap on launches in flight does the same earlier for the oldest.
 *
 * The parallel analyzer: each analysis process gathers its processes' launches without
 * matching them.  At the end, the launches that share an operation's key are found across
 * analysis processes (each key's analysis process, by its hash, gives back the least label
 * of the launches that have it, until no label changes), and each such set goes to the
 * analysis process its label hashes to, which matches and emits it as above. */
#include <stdlib.h>
#include <string.h>

#include "../../../common/xalloc.h"
#include "../../model/emit.h"
#include "../../model/runtime.h"
#include "../../parallel/mail.h"
#include "../../parallel/par.h"
#include "../../read/remote.h"
#include "../../util/grow.h"
#include "../../util/hpool.h"
#include "../../util/pack.h"
#include "nccl.h"

struct op_match;

/* A rank's launch while it is in flight. */
struct rank_launch {
	struct hpool_item item;         /* by (proc, key) in nccl_state.launches */
	struct rank_launch *parent;              /* union-find */
	struct rank_launch *cnext, *ctail; /* the component's launches: a list from the root */
	struct op_match *cmatch;              /* root: matches done within the component */
	uint32_t nopen;                 /* root: launches of the component not complete */
	uint32_t index;                 /* at emission: position in the instance */
	uint64_t order;                 /* creation order */
	uint64_t label;                 /* parallel: the least id of the launches it is tied to */
	struct proc *proc;
	uint64_t key;
	int depth;                      /* group nesting seen */
	int closed;                     /* the launching call was seen */
	int complete;
	uint32_t pending;               /* operations whose match is not done */
	struct nccl_launch L;
	struct nccl_op *ops;
	struct op_match **opm;                /* each operation's match while pending */
	uint32_t nops, capops;
	struct nccl_span *spans;
	uint32_t nspans, capspans;
	struct tprof_devop_coll dcoll;  /* the first DEVICE record's, for a launch without calls */
};

struct member {
	struct rank_launch *l;                   /* NULL: forgotten (emitted early by the cap) */
	uint32_t op;
};

/* One operation matched across ranks. */
struct op_match {
	struct hpool_item item;         /* while pending: by (p2p, comm, seq, src, dst) in
					 * nccl_state.matches */
	struct op_match *cnext;         /* once done: the component's list */
	int p2p;
	uint64_t comm;
	uint32_t seq;
	int32_t src, dst;
	uint32_t expected, seen;
	struct member *m;
	uint32_t cap;
};

struct nccl_state {
	struct pipeline *pl;
	struct hpool launches;          /* in flight */
	struct hpool matches;           /* pending */
	uint64_t next_order, next_id;
	int hold;                       /* parallel, while reading: launches gathered, not matched */
	struct remotes *remotes;        /* parallel: the processes of launches sent here */
	struct nccl_copies *copies;     /* parallel: instances for the analysis processes of
					 * their launches (runtimes/nccl/copies.c) */
};

/* More launches than this waiting: the oldest is emitted as it is. */
#define INFLIGHT_MAX 65536

/* This runtime's state in the pipeline. */
static struct nccl_state **slot(struct pipeline *pl)
{
	return (struct nccl_state **)pipeline_state(pl, &runtime_nccl);
}

static struct nccl_state *state(struct pipeline *pl)
{
	if (!*slot(pl)) {
		struct nccl_state *s = xcalloc(1, sizeof(*s));
		s->pl = pl;
		s->hold = par_size() > 1;
		*slot(pl) = s;
	}
	return *slot(pl);
}

static uint64_t mix(uint64_t h)
{
	h *= 0x9e3779b97f4a7c15ull;
	return h ^ (h >> 29);
}

/* ---- launches ---------------------------------------------------------------------------- */

static uint64_t lhash(const struct proc *p, uint64_t key)
{
	return mix((uint64_t)(uintptr_t)p ^ mix(key));
}

static void emit_oldest(struct nccl_state *s);

static struct rank_launch *launch_get(struct nccl_state *s, struct proc *p, uint64_t key,
				      uint64_t group)
{
	uint64_t h = lhash(p, key);
	size_t at;
	for (struct rank_launch *x = hpool_first(&s->launches, h, &at); x;
	     x = hpool_next(&s->launches, h, &at))
		if (x->proc == p && x->key == key)
			return x;
	if (s->launches.n >= INFLIGHT_MAX && !s->hold)
		emit_oldest(s);
	struct rank_launch *x = xcalloc(1, sizeof(*x));
	x->proc = p;
	x->key = key;
	x->order = ++s->next_order;
	x->parent = x;
	x->ctail = x;
	x->nopen = 1;
	x->L.proc = p;
	x->L.group = group;
	x->L.rank = -1;
	hpool_add(&s->launches, &x->item, h);
	return x;
}

static struct rank_launch *find(struct rank_launch *x)
{
	while (x->parent != x) {
		x->parent = x->parent->parent;
		x = x->parent;
	}
	return x;
}

static struct rank_launch *join(struct rank_launch *a, struct rank_launch *b)
{
	a = find(a);
	b = find(b);
	if (a == b)
		return a;
	if (b->order < a->order) {
		struct rank_launch *t = a;
		a = b;
		b = t;
	}
	b->parent = a;
	a->ctail->cnext = b;
	a->ctail = b->ctail;
	a->nopen += b->nopen;
	if (b->cmatch) {
		struct op_match *m = b->cmatch;
		while (m->cnext)
			m = m->cnext;
		m->cnext = a->cmatch;
		a->cmatch = b->cmatch;
		b->cmatch = NULL;
	}
	return a;
}

/* Marks x complete when it is; its component's count of open launches follows. */
static void update(struct rank_launch *x)
{
	if (x->complete || !x->closed || x->pending || x->nspans < x->L.spans_expected)
		return;
	x->complete = 1;
	find(x)->nopen--;
}

/* ---- matches ----------------------------------------------------------------------------- */

static uint64_t mhash(int p2p, uint64_t comm, uint32_t seq, int32_t src, int32_t dst)
{
	uint64_t h = mix(comm) ^ mix((uint64_t)seq << 1 | (uint64_t)p2p);
	if (p2p)
		h ^= mix((uint64_t)(uint32_t)src << 32 | (uint32_t)dst);
	return mix(h);
}

/* A match no longer pending. */
static void munlink(struct nccl_state *s, struct op_match *m)
{
	hpool_remove(&s->matches, &m->item);
}

static void emit_component(struct nccl_state *s, struct rank_launch *root);

/* Every member came: the launches it touches are joined, its operations matched. */
static void match_done(struct nccl_state *s, struct op_match *m)
{
	munlink(s, m);
	struct rank_launch *root = NULL;
	for (uint32_t i = 0; i < m->seen; i++) {
		struct rank_launch *x = m->m[i].l;
		if (!x)
			continue;
		x->ops[m->m[i].op].matched = 1;
		x->opm[m->m[i].op] = NULL;
		x->pending--;
		root = root ? join(root, x) : find(x);
	}
	if (!root) {
		free(m->m);
		free(m);
		return;
	}
	root = find(root);
	m->cnext = root->cmatch;
	root->cmatch = m;
	for (uint32_t i = 0; i < m->seen; i++)
		if (m->m[i].l)
			update(m->m[i].l);
	if (!root->nopen)
		emit_component(s, root);
}

/* What an operation is matched by: a collective by (comm, seq), a send or receive also by its
 * sender and receiver (returns whether it is one). */
static int op_ends(const struct nccl_op *o, int32_t *src, int32_t *dst)
{
	int p2p = nccl_op_is_p2p(o->op);
	*src = *dst = -1;
	if (p2p) {
		*src = o->op == TPROF_NCCL_SEND ? o->rank : o->peer;
		*dst = o->op == TPROF_NCCL_SEND ? o->peer : o->rank;
	}
	return p2p;
}

static void match_add(struct nccl_state *s, struct rank_launch *x, uint32_t opi)
{
	const struct nccl_op *o = &x->ops[opi];
	int32_t src, dst;
	int p2p = op_ends(o, &src, &dst);
	uint64_t h = mhash(p2p, o->comm, o->seq, src, dst);
	struct op_match *m;
	size_t at;
	for (m = hpool_first(&s->matches, h, &at); m; m = hpool_next(&s->matches, h, &at))
		if (m->p2p == p2p && m->comm == o->comm && m->seq == o->seq && m->src == src &&
		    m->dst == dst)
			break;
	if (!m) {
		m = xcalloc(1, sizeof(*m));
		m->p2p = p2p;
		m->comm = o->comm;
		m->seq = o->seq;
		m->src = src;
		m->dst = dst;
		m->expected = p2p ? 2 : o->nranks > 0 ? (uint32_t)o->nranks : 1;
		hpool_add(&s->matches, &m->item, h);
	}
	if (m->seen == m->cap) {
		m->cap = m->cap ? m->cap * 2 : m->expected < 64 ? m->expected : 64;
		m->m = xreallocarray(m->m, m->cap, sizeof(*m->m));
	}
	m->m[m->seen++] = (struct member){ x, opi };
	x->opm[opi] = m;
	x->pending++;
	if (m->seen >= m->expected)
		match_done(s, m);
}

/* ---- what the pipeline hands over -------------------------------------------------------- */

static void launching_call(struct pipeline *pl, struct rank_launch *x, const struct event *ev,
			   uint64_t corr)
{
	x->L.thread = ev->thread;
	x->L.t0 = ev->t0;
	x->L.t1 = ev->t1;
	x->L.call_kept = emit_kept(&pl->win, ev);
	x->L.corr = corr;
}

/* The launching call was seen: no more operations; a span is due per stream they used. */
static void close_launch(struct nccl_state *s, struct rank_launch *x)
{
	if (x->closed)
		return;
	x->closed = 1;
	uint32_t streams = 0;
	for (uint32_t i = 0; i < x->nops; i++) {
		if (x->ops[i].flags & TPROF_NCCLF_UNTIMED)
			continue;
		uint32_t k = 0;
		while (k < i && (x->ops[k].stream != x->ops[i].stream || (x->ops[k].flags & TPROF_NCCLF_UNTIMED)))
			k++;
		streams += k == i;
	}
	x->L.spans_expected = streams;
	if (s->hold)
		return;
	update(x);
	struct rank_launch *root = find(x);
	if (!root->nopen)
		emit_component(s, root);
}

static void add_op(struct nccl_state *s, struct rank_launch *x, const struct event *ev)
{
	const struct nccl_info *ni = nccl_info_of(ev);
	if (x->nops == x->capops) {
		x->capops = x->capops ? x->capops * 2 : 4;
		x->ops = xreallocarray(x->ops, x->capops, sizeof(*x->ops));
		x->opm = xreallocarray(x->opm, x->capops, sizeof(*x->opm));
	}
	uint32_t i = x->nops++;
	x->ops[i] = (struct nccl_op){
		.name = ev->name, .op = ni->a.op, .dtype = ni->a.dtype, .redop = ni->a.redop,
		.flags = ni->a.flags, .comm = ni->a.comm, .count = ni->a.count, .bytes = ni->a.bytes,
		.seq = ni->a.seq, .peer = ni->has_b ? ni->b.peer : -1, .rank = ni->has_b ? ni->b.rank : 0,
		.nranks = ni->has_b ? ni->b.nranks : 1, .stream = ni->has_b ? ni->b.stream : 0,
		.corr = ev->call->corr, .t0 = ev->t0, .t1 = ev->t1, .caller = ev->call->caller,
	};
	x->opm[i] = NULL;
	if (i == 0) {
		x->L.rank = x->ops[0].rank;
		x->L.nranks = x->ops[0].nranks;
		x->L.comm = x->ops[0].comm;
	}
	if (!s->hold)
		match_add(s, x, i);
}

void nccl_call(struct pipeline *pl, const struct event *ev)
{
	const struct nccl_info *ni = nccl_info_of(ev);
	if (!ni || !ev->thread)
		return;
	const struct tprof_nccl_args *a = &ni->a;
	uint64_t corr = ev->call->corr;
	uint64_t aux = ni->has_b ? ni->b.aux : 0;
	struct nccl_state *s;
	struct rank_launch *x;
	switch (a->op) {
	case TPROF_NCCL_GROUP_START:
		s = state(pl);
		x = launch_get(s, ev->proc, aux ? aux : corr, aux ? aux : corr);
		x->depth++;
		return;
	case TPROF_NCCL_GROUP_END:
		s = state(pl);
		x = launch_get(s, ev->proc, aux ? aux : corr, aux ? aux : corr);
		if (--x->depth > 0 || x->closed)
			return;
		launching_call(pl, x, ev, corr);
		close_launch(s, x);
		return;
	default:
		break;
	}
	if (!nccl_op_is_coll(a->op) && !nccl_op_is_p2p(a->op))
		return;
	s = state(pl);
	/* A launch already closed (its id used again: damaged input) takes no more operations:
	 * one might complete its component, which is then emitted and freed. */
	if ((a->flags & TPROF_NCCLF_GROUPED) && aux) {
		x = launch_get(s, ev->proc, aux, aux);
		if (!x->closed)
			add_op(s, x, ev);   /* may not emit: the group is open until its ncclGroupEnd */
		return;
	}
	x = launch_get(s, ev->proc, corr, 0);
	if (x->closed)
		return;
	launching_call(pl, x, ev, corr);
	add_op(s, x, ev);
	close_launch(s, x);
}

void nccl_device(struct pipeline *pl, const struct event *ev)
{
	const struct device_info *di = ev->dev;
	const struct tprof_devop_coll *c = &di->op.coll;
	struct nccl_state *s = state(pl);
	uint64_t key = c->group ? c->group : di->corr;
	struct rank_launch *x = launch_get(s, ev->proc, key, c->group);
	if (x->nspans == x->capspans) {
		x->capspans = x->capspans ? x->capspans * 2 : 2;
		x->spans = xreallocarray(x->spans, x->capspans, sizeof(*x->spans));
	}
	x->spans[x->nspans++] = (struct nccl_span){ di->op.stream, di->op.device, ev->name, ev->t0,
						     ev->t1, emit_kept(&pl->win, ev) };
	if (x->nspans == 1)
		x->dcoll = *c;
	if (!x->L.corr)
		x->L.corr = di->corr;   /* the launching call not seen (yet) */
	if (!x->closed || s->hold)
		return;
	update(x);
	struct rank_launch *root = find(x);
	if (!root->nopen)
		emit_component(s, root);
}

/* ---- emission ---------------------------------------------------------------------------- */

static uint32_t label(const struct rank_launch *x)
{
	char buf[256];
	if (!x->nops)
		snprintf(buf, sizeof(buf), "%s", x->dcoll.op == TPROF_NCCL_GROUP_END ? "ncclGroup"
						 : nccl_op_name(x->dcoll.op));
	else if (!x->L.group)
		snprintf(buf, sizeof(buf), "%s", nccl_op_name(x->ops[0].op));
	else {
		int k = snprintf(buf, sizeof(buf), "ncclGroup (%u op%s: ", x->nops, x->nops == 1 ? "" : "s");
		for (uint32_t i = 0; i < x->nops && k < (int)sizeof(buf) - 24; i++) {
			if (i == 8) {
				k += snprintf(buf + k, sizeof(buf) - (size_t)k, ", ...");
				break;
			}
			k += snprintf(buf + k, sizeof(buf) - (size_t)k, "%s%s", i ? ", " : "",
				      nccl_op_name(x->ops[i].op));
		}
		snprintf(buf + k, sizeof(buf) - (size_t)k, ")");
	}
	return strings_add(buf, strlen(buf));
}

static int by_rank(const void *a, const void *b)
{
	const struct rank_launch *x = *(struct rank_launch *const *)a;
	const struct rank_launch *y = *(struct rank_launch *const *)b;
	if (x->L.rank != y->L.rank)
		return x->L.rank < y->L.rank ? -1 : 1;
	if (x->proc->index != y->proc->index)
		return x->proc->index < y->proc->index ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static void unlink_launch(struct nccl_state *s, struct rank_launch *x)
{
	hpool_remove(&s->launches, &x->item);
}

/* Its pending matches forget it: they may still complete among the others. */
static void forget(struct rank_launch *x)
{
	for (uint32_t i = 0; i < x->nops; i++) {
		struct op_match *m = x->opm[i];
		if (!m)
			continue;
		for (uint32_t k = 0; k < m->seen; k++)
			if (m->m[k].l == x)
				m->m[k].l = NULL;
	}
}

/* The component's launches, by rank (then process, then creation); *n: how many. */
static struct rank_launch **launches_by_rank(struct rank_launch *root, uint32_t *n)
{
	uint32_t count = 0;
	for (struct rank_launch *x = root; x; x = x->cnext)
		count++;
	struct rank_launch **v = xmallocarray(count, sizeof(*v));
	count = 0;
	for (struct rank_launch *x = root; x; x = x->cnext)
		v[count++] = x;
	if (count > 1)
		qsort(v, count, sizeof(*v), by_rank);
	*n = count;
	return v;
}

/* The launch as the instance holds it: x's own, with its label, bytes and device span. */
static void describe_launch(const struct rank_launch *x, struct nccl_launch *l)
{
	*l = x->L;
	l->ops = x->ops;
	l->nops = x->nops;
	l->spans = x->spans;
	l->nspans = x->nspans;
	l->complete = x->complete;
	l->label = label(x);
	if (!x->nops) {
		l->comm = x->dcoll.comm;
		l->rank = x->dcoll.rank;
		l->nranks = x->dcoll.nranks;
	}
	nccl_launch_bytes(x->ops, x->nops, &l->algbytes, &l->busbytes);
	for (uint32_t k = 0; k < x->nspans; k++) {
		if (!k || x->spans[k].t0 < l->dev_t0)
			l->dev_t0 = x->spans[k].t0;
		if (!k || x->spans[k].t1 > l->dev_t1)
			l->dev_t1 = x->spans[k].t1;
	}
}

/* x's operations in the instance: those left unmatched, the ranks they expect. */
static void count_ops(struct nccl_inst *in, const struct rank_launch *x)
{
	for (uint32_t k = 0; k < x->nops; k++) {
		const struct nccl_op *o = &x->ops[k];
		in->unmatched += !o->matched;
		uint32_t want = nccl_op_is_p2p(o->op) ? 2 : o->nranks > 0 ? (uint32_t)o->nranks : 1;
		if (want > in->ranks_expected)
			in->ranks_expected = want;
	}
}

/* l's launching call and device span in the instance's first and last entries and starts;
 * *any_entry: a launching call was seen. */
static void note_times(struct nccl_inst *in, const struct nccl_launch *l, int *any_entry)
{
	if (l->thread) {
		if (!*any_entry || l->t0 < in->first_entry)
			in->first_entry = l->t0;
		if (!*any_entry || l->t0 > in->last_entry) {
			in->last_entry = l->t0;
			in->last_rank = l->rank;
		}
		*any_entry = 1;
	}
	if (l->nspans) {
		if (!in->timed || l->dev_t0 < in->first_start)
			in->first_start = l->dev_t0;
		if (!in->timed || l->dev_t0 > in->last_start) {
			in->last_start = l->dev_t0;
			in->last_start_rank = l->rank;
		}
		in->timed++;
	}
}

/* Each launch's index and description (into L), and what the instance gathers from them;
 * returns whether a launching call was seen. */
static int describe_launches(struct nccl_inst *in, struct rank_launch **v,
			     struct nccl_launch *L)
{
	int any_entry = 0;
	for (uint32_t i = 0; i < in->nl; i++) {
		struct rank_launch *x = v[i];
		x->index = i;
		describe_launch(x, &L[i]);
		count_ops(in, x);
		if (!x->complete)
			in->incomplete = 1;
		note_times(in, &L[i], &any_entry);
	}
	if (in->unmatched)
		in->incomplete = 1;
	return any_entry;
}

/* How many of the component's matches are send/receive ones: the most links it can have. */
static uint32_t count_links(const struct op_match *matches)
{
	uint32_t nlinks = 0;
	for (const struct op_match *m = matches; m; m = m->cnext)
		nlinks += m->p2p;
	return nlinks;
}

/* A link, into links, for each send/receive match whose both sides are still known (the
 * launches' indexes given). */
static void link_sends(struct nccl_inst *in, struct nccl_link *links,
		       const struct op_match *matches)
{
	for (const struct op_match *m = matches; m; m = m->cnext) {
		if (!m->p2p)
			continue;
		struct nccl_link k = { .comm = m->comm, .src = m->src, .dst = m->dst,
				       .seq = m->seq };
		int from = 0, to = 0;
		for (uint32_t i = 0; i < m->seen; i++) {
			struct rank_launch *x = m->m[i].l;
			if (!x)
				continue;
			const struct nccl_op *o = &x->ops[m->m[i].op];
			if (o->op == TPROF_NCCL_SEND) {
				k.from = x->index;
				k.from_stream = o->stream;
				k.bytes = o->bytes;
				from = 1;
			} else {
				k.to = x->index;
				k.to_stream = o->stream;
				to = 1;
			}
		}
		if (from && to)
			links[in->nlinks++] = k;
	}
}

/* The instance's time: from its first entry (else device start) to the last end of a call or
 * device span. */
static void instance_times(const struct nccl_inst *in, int any_entry, int64_t *t0, int64_t *t1)
{
	const struct nccl_launch *L = in->l;
	*t0 = any_entry ? in->first_entry : in->first_start;
	*t1 = *t0;
	for (uint32_t i = 0; i < in->nl; i++) {
		if (L[i].thread && L[i].t1 > *t1)
			*t1 = L[i].t1;
		if (L[i].nspans && L[i].dev_t1 > *t1)
			*t1 = L[i].dev_t1;
		if (L[i].nspans && L[i].dev_t0 < *t0)
			*t0 = L[i].dev_t0;
	}
}

/* The launch whose call entered last (the last such in rank order), 0 when none was seen. */
static uint32_t last_entered(const struct nccl_inst *in)
{
	uint32_t who = 0;
	for (uint32_t i = 0; i < in->nl; i++)
		if (in->l[i].thread && in->l[i].t0 == in->last_entry)
			who = i;
	return who;
}

/* An empty group: nothing ran, nothing to show. */
static int empty_group(const struct nccl_launch *L, uint32_t n)
{
	int empty = 1;
	for (uint32_t i = 0; i < n; i++)
		empty &= !L[i].nops && !L[i].nspans;
	return empty;
}

/* The component's launches and matches forgotten and freed. */
static void free_component(struct nccl_state *s, struct rank_launch **v, uint32_t n,
			   struct op_match *done)
{
	for (uint32_t i = 0; i < n; i++) {
		struct rank_launch *x = v[i];
		forget(x);
		unlink_launch(s, x);
		free(x->ops);
		free(x->opm);
		free(x->spans);
		free(x);
	}
	for (struct op_match *m = done, *next; m; m = next) {
		next = m->cnext;
		free(m->m);
		free(m);
	}
}

/* The component of root emitted as one EV_NCCL (unless an empty group), then forgotten. */
static void emit_component(struct nccl_state *s, struct rank_launch *root)
{
	root = find(root);
	uint32_t n;
	struct rank_launch **v = launches_by_rank(root, &n);
	struct nccl_launch *L = xmallocarray(n, sizeof(*L));
	uint32_t nlinks = count_links(root->cmatch);
	struct nccl_link *links = xmallocarray(nlinks ? nlinks : 1, sizeof(*links));
	/* ids unique in the job: an analysis process's own numbers, interleaved */
	struct nccl_inst in = { .id = ++s->next_id * (uint64_t)par_size() + (uint64_t)par_rank(),
				.l = L, .nl = n, .links = links,
				.last_rank = -1, .last_start_rank = -1 };
	int any_entry = describe_launches(&in, v, L);
	link_sends(&in, links, root->cmatch);
	int64_t t0, t1;
	instance_times(&in, any_entry, &t0, &t1);
	uint32_t who = last_entered(&in);
	struct event ev = { .kind = EV_NCCL, .flags = in.incomplete ? EVF_INCOMPLETE : 0,
			    .proc = L[who].proc, .thread = L[who].thread, .name = L[0].label,
			    .t0 = t0, .t1 = t1, .info = &in };

	if (empty_group(L, n)) {
		s->next_id--;
	} else {
		emit_derived(s->pl, &ev);
		if (s->copies)
			nccl_copies_add(s->copies, &ev);
	}
	free_component(s, v, n, root->cmatch);
	free(v);
	free(L);
	free(links);
}

static int by_order(const void *a, const void *b)
{
	const struct rank_launch *x = *(struct rank_launch *const *)a;
	const struct rank_launch *y = *(struct rank_launch *const *)b;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* The cap on launches in flight: the oldest one's component goes out as it is. */
static void emit_oldest(struct nccl_state *s)
{
	struct rank_launch *o = NULL;
	for (size_t i = 0; i < s->launches.n; i++) {
		struct rank_launch *x = (struct rank_launch *)s->launches.v[i];
		if (!o || x->order < o->order)
			o = x;
	}
	if (o)
		emit_component(s, o);
}

/* ---- the parallel analyzer: each set of tied launches to one analysis process ------------- */

/* This analysis process's launches, by creation (*n of them). */
static struct rank_launch **own_launches(struct nccl_state *s, size_t *n)
{
	struct rank_launch **v = xmallocarray(s->launches.n ? s->launches.n : 1, sizeof(*v));
	for (size_t i = 0; i < s->launches.n; i++)
		v[i] = (struct rank_launch *)s->launches.v[i];
	*n = s->launches.n;
	if (*n > 1)
		qsort(v, *n, sizeof(*v), by_order);
	return v;
}

/* An operation of a launch, with the analysis process its key hashes to. */
struct opref {
	struct rank_launch *x;
	uint32_t op;
	uint32_t home;
};

static int by_home(const void *a, const void *b)
{
	const struct opref *x = a, *y = b;
	if (x->home != y->home)
		return x->home < y->home ? -1 : 1;
	return x->x->order < y->x->order ? -1 : x->x->order > y->x->order ? 1 : (x->op > y->op) - (x->op < y->op);
}

/* Every operation of the launches, by the analysis process its key hashes to (*n of them). */
static struct opref *op_homes(struct rank_launch **v, size_t nv, size_t k, size_t *n)
{
	size_t total = 0;
	for (size_t i = 0; i < nv; i++)
		total += v[i]->nops;
	struct opref *r = xmallocarray(total ? total : 1, sizeof(*r));
	*n = 0;
	for (size_t i = 0; i < nv; i++)
		for (uint32_t j = 0; j < v[i]->nops; j++) {
			const struct nccl_op *o = &v[i]->ops[j];
			int32_t src, dst;
			int p2p = op_ends(o, &src, &dst);
			r[(*n)++] = (struct opref){ v[i], j,
						    (uint32_t)(mhash(p2p, o->comm, o->seq, src, dst) % k) };
		}
	if (*n > 1)
		qsort(r, *n, sizeof(*r), by_home);
	return r;
}

/* A key as its analysis process receives it, with the label it came with and its place. */
struct keyed {
	uint64_t comm, label;
	uint32_t seq, at;
	int32_t src, dst, p2p;
};

static int by_key(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	if (x->p2p != y->p2p)
		return x->p2p < y->p2p ? -1 : 1;
	if (x->comm != y->comm)
		return x->comm < y->comm ? -1 : 1;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	if (x->src != y->src)
		return x->src < y->src ? -1 : 1;
	return x->dst < y->dst ? -1 : x->dst > y->dst;
}

/* The keys received, each answered to its sender with the least label that came with it: the
 * answers, 8 bytes each, packed for each sender in the order its keys came. */
static void least_labels(struct mail *mail)
{
	struct keyed *e = NULL;
	size_t n = 0, cap = 0;
	size_t *first = xcalloc((size_t)mail->k + 1, sizeof(*first));   /* p's keys: from first[p] */
	for (int from = 0; from < mail->k; from++) {
		first[from] = n;
		for (struct unpack u = mail_from(mail, from); unpack_more(&u);) {
			struct keyed x;
			x.p2p = (int32_t)unpack_i64(&u);
			x.comm = unpack_u64(&u);
			x.seq = (uint32_t)unpack_u64(&u);
			x.src = (int32_t)unpack_i64(&u);
			x.dst = (int32_t)unpack_i64(&u);
			x.label = unpack_u64(&u);
			if (u.short_read)
				break;
			x.at = (uint32_t)n;
			e = util_grow(e, &cap, n, sizeof(*e), 256);
			e[n++] = x;
		}
	}
	first[mail->k] = n;
	if (n > 1)
		qsort(e, n, sizeof(*e), by_key);
	uint64_t *least = xmallocarray(n ? n : 1, sizeof(*least));
	for (size_t i = 0, j; i < n; i = j) {
		uint64_t m = e[i].label;
		for (j = i; j < n && !by_key(&e[i], &e[j]); j++)
			if (e[j].label < m)
				m = e[j].label;
		for (size_t q = i; q < j; q++)
			least[e[q].at] = m;
	}
	for (int p = 0; p < mail->k; p++) {
		size_t asked = first[p + 1] - first[p];
		pack_bytes(&mail->to[p], least + first[p], asked * sizeof(*least));
	}
	free(e);
	free(least);
	free(first);
}

/* Labels until stable: each launch's the least of those of the launches it shares a key with,
 * transitively (collective: every analysis process calls it). */
static void label_launches(struct rank_launch **v, size_t nv)
{
	size_t k = (size_t)par_size(), n;
	for (size_t i = 0; i < nv; i++)
		v[i]->label = (uint64_t)par_rank() << 40 | i;
	struct opref *r = op_homes(v, nv, k, &n);
	struct mail *m = mail_new();
	for (int64_t changed = 1; changed;) {
		for (size_t i = 0; i < n; i++) {
			const struct nccl_op *o = &r[i].x->ops[r[i].op];
			struct pack *b = &m->to[r[i].home];
			int32_t src, dst;
			pack_i64(b, op_ends(o, &src, &dst));
			pack_u64(b, o->comm);
			pack_u64(b, o->seq);
			pack_i64(b, src);
			pack_i64(b, dst);
			pack_u64(b, r[i].x->label);
		}
		mail_exchange(m);
		least_labels(m);
		mail_exchange(m);
		/* the answers come in the order asked: by analysis process, then as sent */
		changed = 0;
		struct unpack u = mail_all(m);
		for (size_t i = 0; i < n; i++) {
			uint64_t least = unpack_u64(&u);
			if (u.short_read)
				break;
			if (least < r[i].x->label) {
				r[i].x->label = least;
				changed = 1;
			}
		}
		par_max_i64(&changed, 1);
	}
	mail_free(m);
	free(r);
}

static void launch_pack(struct pack *b, const struct rank_launch *x)
{
	pack_i64(b, x->proc->index);
	pack_i64(b, x->proc->rank);
	pack_i64(b, x->L.thread ? x->L.thread->tid : -1);
	pack_u64(b, x->key);
	pack_u64(b, x->L.group);
	pack_u64(b, x->order);
	pack_i64(b, x->depth);
	pack_u64(b, (uint64_t)x->closed);
	pack_u64(b, x->L.corr);
	pack_i64(b, x->L.t0);
	pack_i64(b, x->L.t1);
	pack_u64(b, (uint64_t)x->L.call_kept);
	pack_bytes(b, &x->dcoll, sizeof(x->dcoll));
	nccl_ops_pack(b, x->ops, x->nops);
	nccl_spans_pack(b, x->spans, x->nspans);
}

/* A launch sent here, as it was when the data ended (not matched yet); NULL when short. */
struct sent {
	int from;                       /* the analysis process that sent it */
	int64_t index, rank, tid, depth;
	uint64_t key, group, order, corr;
	int closed;
	int64_t t0, t1;
	int call_kept;
	struct tprof_devop_coll dcoll;
	struct nccl_op *ops;
	uint32_t nops;
	struct nccl_span *spans;
	uint32_t nspans;
};

static int launch_unpack(struct unpack *u, struct sent *x)
{
	memset(x, 0, sizeof(*x));
	x->index = unpack_i64(u);
	x->rank = unpack_i64(u);
	x->tid = unpack_i64(u);
	x->key = unpack_u64(u);
	x->group = unpack_u64(u);
	x->order = unpack_u64(u);
	x->depth = unpack_i64(u);
	x->closed = unpack_u64(u) != 0;
	x->corr = unpack_u64(u);
	x->t0 = unpack_i64(u);
	x->t1 = unpack_i64(u);
	x->call_kept = unpack_u64(u) != 0;
	unpack_bytes(u, &x->dcoll, sizeof(x->dcoll));
	x->ops = nccl_ops_unpack(u, &x->nops);
	x->spans = nccl_spans_unpack(u, &x->nspans);
	if (!u->short_read)
		return 0;
	free(x->ops);
	free(x->spans);
	return -1;
}

/* By process, then in the order that process's launches were made. */
static int by_proc(const void *a, const void *b)
{
	const struct sent *x = a, *y = b;
	if (x->index != y->index)
		return x->index < y->index ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* A launch sent here, made again and fed to the matching as its records would have been. */
static void replay(struct nccl_state *s, struct sent *y)
{
	struct proc *p = remote_proc(s->remotes, y->index, y->rank);
	nccl_copies_read_by(s->copies, y->index, y->from);
	struct rank_launch *x = launch_get(s, p, y->key, y->group);
	x->depth = (int)y->depth;
	x->dcoll = y->dcoll;
	x->L.corr = y->corr;
	if (y->tid >= 0) {
		x->L.thread = remote_thread(s->remotes, y->index, y->rank, (int32_t)y->tid);
		x->L.t0 = y->t0;
		x->L.t1 = y->t1;
		x->L.call_kept = y->call_kept;
	}
	x->spans = y->spans;
	x->nspans = x->capspans = y->nspans;
	x->ops = y->ops;
	x->capops = y->nops;
	x->opm = xcalloc(y->nops ? y->nops : 1, sizeof(*x->opm));
	for (uint32_t i = 0; i < y->nops; i++) {
		x->nops = i + 1;
		if (i == 0) {
			x->L.rank = x->ops[0].rank;
			x->L.nranks = x->ops[0].nranks;
			x->L.comm = x->ops[0].comm;
		}
		match_add(s, x, i);
	}
	if (y->closed)
		close_launch(s, x);
}

/* Every launch to the analysis process its label hashes to, which matches and emits its sets
 * (collective: every analysis process calls it). */
static void spread(struct nccl_state *s)
{
	size_t k = (size_t)par_size(), n;
	struct rank_launch **v = own_launches(s, &n);
	label_launches(v, n);
	struct mail *mail = mail_new();
	for (size_t i = 0; i < n; i++)
		launch_pack(&mail->to[mix(v[i]->label) % k], v[i]);
	for (size_t i = 0; i < n; i++) {
		unlink_launch(s, v[i]);
		free(v[i]->ops);
		free(v[i]->opm);
		free(v[i]->spans);
		free(v[i]);
	}
	free(v);
	mail_exchange(mail);
	size_t m = 0, cap = 0;
	struct sent *w = NULL;
	for (int from = 0; from < mail->k; from++)
		for (struct unpack u = mail_from(mail, from); unpack_more(&u);) {
			w = util_grow(w, &cap, m, sizeof(*w), 64);
			if (launch_unpack(&u, &w[m]) < 0)
				break;
			w[m++].from = from;
		}
	mail_free(mail);
	if (m > 1)
		qsort(w, m, sizeof(*w), by_proc);
	s->hold = 0;
	s->remotes = remotes_new();
	s->copies = nccl_copies_new();
	for (size_t i = 0; i < m; i++)
		replay(s, &w[i]);
	free(w);
}

void nccl_finish(struct pipeline *pl)
{
	struct nccl_state *s = *slot(pl);
	if (!s && par_size() > 1)
		s = state(pl);   /* every analysis process takes part in the exchanges */
	if (!s)
		return;
	if (s->hold)
		spread(s);
	/* The members found of each match still pending belong together. */
	for (size_t i = 0; i < s->matches.n; i++) {
		const struct op_match *m = (const struct op_match *)s->matches.v[i];
		struct rank_launch *root = NULL;
		for (uint32_t k = 0; k < m->seen; k++)
			if (m->m[k].l)
				root = root ? join(root, m->m[k].l) : find(m->m[k].l);
	}
	struct rank_launch **v = xmallocarray(s->launches.n ? s->launches.n : 1, sizeof(*v));
	size_t n = 0;
	for (size_t i = 0; i < s->launches.n; i++) {
		struct rank_launch *x = (struct rank_launch *)s->launches.v[i];
		if (find(x) == x)
			v[n++] = x;
	}
	if (n > 1)
		qsort(v, n, sizeof(*v), by_order);
	for (size_t i = 0; i < n; i++)
		emit_component(s, v[i]);
	free(v);
	if (s->copies) {
		nccl_copies_send(s->copies, s->pl);
		nccl_copies_free(s->copies);
	}
	for (size_t i = 0; i < s->matches.n; i++) {
		struct op_match *m = (struct op_match *)s->matches.v[i];
		free(m->m);
		free(m);
	}
	hpool_free(&s->matches);
	hpool_free(&s->launches);
	if (s->remotes)
		remotes_free(s->remotes);
	free(s);
	*slot(pl) = NULL;
}
