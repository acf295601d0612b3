/* hang/findings.c — why a job does not get on, from what was in progress where its data ends
 * (state.h): the collectives some members wait in for members that never entered them; those
 * every member entered and none left; members of one collective that asked differently; the
 * wait-for graph of processes (a member waits for those missing from its collective, a
 * blocking receive for its sender when no send of its is on the way, a blocking send for its
 * receiver when no receive for it is posted) and its cycles; processes waiting for their
 * device's work.  The findings are ordered by the oldest wait each explains: the first is
 * where the job began to wait. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/writer-live.h"
#include "../../common/xalloc.h"
#include "../util/grow.h"
#include "ends.h"
#include "findings.h"

int hang_gone(const struct hproc *hp)
{
	return hp->p->ended || hp->alive == 0;
}

const struct hwork *hang_stuck_work(const struct hproc *hp, const struct hstream *s)
{
	return hp->spans && s && s->nheld ? &s->held[0] : NULL;
}

const struct hstream *hang_call_stream(const struct hproc *hp, const struct hcall *c)
{
	if (!c->waits_device || !hp->spans)
		return NULL;
	const struct hstream *oldest = NULL;
	for (size_t i = 0; i < hp->nstreams; i++) {
		const struct hstream *s = &hp->streams[i];
		if (!s->nheld)
			continue;
		if (c->stream && s->stream == c->stream)
			return s;
		if (!c->stream && (!oldest || s->held[0].t0 < oldest->held[0].t0))
			oldest = s;   /* a device-wide wait: the stream with the oldest work */
	}
	return oldest;
}

const struct hcoll *hang_device_coll(const struct hang *h, const struct hproc *hp)
{
	const struct hcoll *best = NULL;
	for (size_t i = 0; i < h->colls.n; i++) {
		const struct hcoll *o = (const struct hcoll *)h->colls.v[i];
		if (!o->on_device)
			continue;
		for (size_t k = 0; k < o->nm; k++)
			if (o->m[k].proc == hp->p && o->m[k].t1 < 0 &&
			    (!best || o->m[k].t0 < best->m[0].t0))
				best = o;
	}
	return best;
}

static struct hfinding *add(struct hang *h, uint8_t kind, int64_t since)
{
	h->findings = util_grow(h->findings, &h->capfindings, h->nfindings, sizeof(*h->findings), 8);
	struct hfinding *f = &h->findings[h->nfindings++];
	memset(f, 0, sizeof(*f));
	f->kind = kind;
	f->since = since;
	return f;
}

/* ---- the wait-for graph ------------------------------------------------------------------ */

struct graph {
	struct hedge *e;
	size_t n, cap;
};

static void edge(struct graph *g, const struct hedge *e)
{
	if (!e->from || !e->to || e->from == e->to)
		return;
	g->e = util_grow(g->e, &g->cap, g->n, sizeof(*g->e), 16);
	g->e[g->n++] = *e;
}

static struct hproc *proc_of_rank(struct hang *h, int32_t world)
{
	for (size_t i = 0; world >= 0 && i < h->nprocs; i++)
		if (h->procs[i].p && h->procs[i].p->rank == world)
			return &h->procs[i];
	return NULL;
}

/* For each process, whether it is in a collective it has not left (which says why it waits). */
static uint8_t *in_coll(const struct hang *h)
{
	uint8_t *v = xcalloc(h->nprocs ? h->nprocs : 1, 1);
	for (size_t i = 0; i < h->colls.n; i++) {
		const struct hcoll *o = (const struct hcoll *)h->colls.v[i];
		for (size_t k = 0; k < o->nm; k++) {
			struct hproc *hp = o->m[k].t1 < 0 ? hang_proc((struct hang *)h, o->m[k].proc)
							  : NULL;
			if (hp)
				v[hp - h->procs] = 1;
		}
	}
	return v;
}

static void p2p_edges(struct hang *h, struct graph *g)
{
	struct hang_ends *ends = h->ends = hang_ends_new(h->p2p, h->np2p);
	uint8_t *blocked = in_coll(h);
	for (size_t i = 0; i < h->np2p; i++) {
		const struct hang_p2p *x = &h->p2p[i];
		struct hproc *from = hang_proc(h, x->proc);
		if (!from || x->peer < 0 || (hang_gone(from) && !from->ncalls))
			continue;
		if (x->kind == HANG_SEND && !x->blocking)
			continue;   /* a send that returned waits for nobody */
		/* a posted receive makes its process wait only while it is in some call, and not
		 * in a collective (which says why it waits) */
		if (!x->blocking && (!from->ncalls || blocked[from - h->procs]))
			continue;
		if (hang_ends_paired(ends, x))
			continue;
		edge(g, &(struct hedge){ .from = from, .to = proc_of_rank(h, x->peer),
					 .how = x->kind == HANG_RECV ? HE_RECV : HE_SEND,
					 .name = x->name, .comm = x->comm, .comm_name = x->comm_name,
					 .since = x->t0 });
	}
	free(blocked);
}

/* By the process waiting, the one waited for, messages before collectives, the call the
 * process waits in (named) before operations it posted earlier, the oldest first. */
static int edge_order(const void *a, const void *b)
{
	const struct hedge *x = a, *y = b;
	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	if (x->to != y->to)
		return x->to < y->to ? -1 : 1;
	if ((x->how == HE_COLL) != (y->how == HE_COLL))
		return x->how == HE_COLL ? 1 : -1;
	if ((x->name != 0) != (y->name != 0))
		return x->name ? -1 : 1;
	return (x->since > y->since) - (x->since < y->since);
}

/* One edge for each pair of processes and way of waiting (by a message, in a collective):
 * the call waited in, else the oldest, so that many receives posted to one peer make one
 * wait, not one each.  The edges end sorted by the process waiting; first[v] .. first[v + 1]
 * are process v's. */
static size_t *edges_settle(struct hang *h, struct graph *g)
{
	if (g->n > 1)
		qsort(g->e, g->n, sizeof(*g->e), edge_order);
	size_t m = 0;
	for (size_t i = 0; i < g->n; i++)
		if (!m || g->e[i].from != g->e[m - 1].from || g->e[i].to != g->e[m - 1].to ||
		    (g->e[i].how == HE_COLL) != (g->e[m - 1].how == HE_COLL))
			g->e[m++] = g->e[i];
	g->n = m;
	size_t *first = xcalloc(h->nprocs + 1, sizeof(*first));
	for (size_t i = 0; i < g->n; i++)
		first[g->e[i].from - h->procs + 1]++;
	for (size_t v = 0; v < h->nprocs; v++)
		first[v + 1] += first[v];
	return first;
}

/* ---- collectives -------------------------------------------------------------------------- */

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

static int cmp_ptr(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t) * (const void *const *)a, y = (uintptr_t) * (const void *const *)b;
	return (x > y) - (x < y);
}

/* v[0..n) sorted and its repeats dropped; the new n. */
static size_t sort_unique(void *v, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	if (n < 2)
		return n;
	qsort(v, n, size, cmp);
	size_t m = 1;
	for (size_t i = 1; i < n; i++)
		if (cmp((char *)v + i * size, (char *)v + (m - 1) * size))
			memcpy((char *)v + m++ * size, (char *)v + i * size, size);
	return m;
}

/* The ranks of o's communicator that may be missing and be named or have a process, sorted:
 * every rank below a window that holds the first MISSING_MAX missing ones, and beyond it only
 * the ranks some process may hold (its member ranks, the world ranks of MPI_COMM_WORLD, the
 * ranks of its table of world ranks).  The communicator's size is a field of the input: the
 * work is bounded by what the input holds, not by it. */
static uint32_t *candidates(const struct hang *h, const struct hcomm *c, const struct hcoll *o,
			    size_t *n)
{
	uint64_t window = (uint64_t)MISSING_MAX + o->nm + c->nm + h->tr->nprocs;
	if (window > o->size)
		window = o->size;
	uint64_t world = c->world && c->nworld < o->size ? c->nworld : c->world ? o->size : 0;
	size_t cap = (size_t)window + c->nm + (c->ranks_are_world ? h->tr->nprocs : 0) +
		     (world > window ? (size_t)(world - window) : 0);
	uint32_t *v = xcalloc(cap ? cap : 1, sizeof(*v));
	size_t k = 0;
	for (uint32_t r = 0; r < window; r++)
		v[k++] = r;
	for (size_t i = 0; i < c->nm; i++)
		if (c->m[i]->rank >= 0 && (uint32_t)c->m[i]->rank < o->size)
			v[k++] = (uint32_t)c->m[i]->rank;
	for (size_t i = 0; c->ranks_are_world && i < h->tr->nprocs; i++)
		if (h->tr->procs[i]->rank >= 0 && (uint64_t)h->tr->procs[i]->rank < o->size)
			v[k++] = (uint32_t)h->tr->procs[i]->rank;
	for (uint64_t r = window; r < world; r++)
		v[k++] = (uint32_t)r;
	*n = sort_unique(v, k, sizeof(*v), cmp_u32);
	return v;
}

static void coll_findings(struct hang *h, struct graph *g, struct hcoll **open, size_t nopen)
{
	for (size_t i = 0; i < nopen; i++) {
		struct hcoll *o = open[i];
		struct hcomm *c = hang_comm(h, o->comm);
		uint32_t waiting = 0;
		int64_t since = INT64_MAX;
		uint32_t name = 0;
		for (size_t k = 0; k < o->nm; k++)
			if (o->m[k].t1 < 0) {
				waiting++;
				if (o->m[k].t0 < since)
					since = o->m[k].t0, name = o->m[k].name;
			}
		if (!waiting)
			continue;
		/* the ranks and the processes that entered, sorted, to look up */
		uint32_t *in_rank = xcalloc(o->nm ? o->nm : 1, sizeof(*in_rank));
		const struct proc **in_proc = xcalloc(o->nm ? o->nm : 1, sizeof(*in_proc));
		size_t nr = 0, np = 0;
		for (size_t k = 0; k < o->nm; k++) {
			if (o->m[k].rank >= 0 && (uint32_t)o->m[k].rank < o->size)
				in_rank[nr++] = (uint32_t)o->m[k].rank;
			if (o->m[k].proc)
				in_proc[np++] = o->m[k].proc;
		}
		nr = sort_unique(in_rank, nr, sizeof(*in_rank), cmp_u32);
		np = sort_unique(in_proc, np, sizeof(*in_proc), cmp_ptr);
		size_t ncand = 0;
		uint32_t *cand = o->size ? candidates(h, c, o, &ncand) : NULL;
		/* the processes missing, each once in rank order, for the wait-for graph */
		struct hproc **gone_to = xcalloc(h->nprocs ? h->nprocs : 1, sizeof(*gone_to));
		uint8_t *listed = xcalloc(h->nprocs ? h->nprocs : 1, 1);
		size_t ngone = 0;
		uint64_t left_out = o->size - nr;   /* missing ranks that are no candidate */
		struct hfinding *f = NULL;
		for (size_t ci = 0; ci < ncand; ci++) {
			uint32_t r = cand[ci];
			if (bsearch(&r, in_rank, nr, sizeof(*in_rank), cmp_u32))
				continue;
			left_out--;
			struct proc *p = hang_member_proc(h, c, (int32_t)r);
			/* one process may hold two ranks of the communicator */
			if (p && bsearch(&p, in_proc, np, sizeof(*in_proc), cmp_ptr))
				continue;
			if (!f) {
				f = add(h, HF_NOT_ENTERED, since);
				f->coll = o;
				f->name = name;
				f->waiters = waiting;
			}
			if (f->nmissing < MISSING_MAX) {
				f->missing[f->nmissing] = hang_proc(h, p);
				f->missing_rank[f->nmissing] = (int32_t)r;
			}
			f->nmissing++;
			struct hproc *hp = hang_proc(h, p);
			if (hp && !listed[hp - h->procs]) {
				listed[hp - h->procs] = 1;
				gone_to[ngone++] = hp;
			}
		}
		if (left_out && !f) {
			f = add(h, HF_NOT_ENTERED, since);
			f->coll = o;
			f->name = name;
			f->waiters = waiting;
		}
		if (f)
			f->nmissing += (uint32_t)left_out;
		for (size_t gi = 0; gi < ngone; gi++)
			for (size_t k = 0; k < o->nm; k++)
				if (o->m[k].t1 < 0)
					edge(g, &(struct hedge){ .from = hang_proc(h, o->m[k].proc),
								 .to = gone_to[gi], .how = HE_COLL,
								 .name = o->m[k].name, .comm = o->comm,
								 .comm_name = o->comm_name, .seq = o->seq,
								 .since = o->m[k].t0 });
		free(listed);
		free(gone_to);
		free(cand);
		free(in_proc);
		free(in_rank);
		if (!f && o->size && o->nm >= o->size && waiting == o->nm) {
			int64_t last = INT64_MIN;
			for (size_t k = 0; k < o->nm; k++)
				if (o->m[k].t0 > last)
					last = o->m[k].t0;
			f = add(h, HF_NONE_LEFT, last);
			f->coll = o;
			f->name = name;
			f->waiters = waiting;
		}
	}
}

/* ---- cycles ------------------------------------------------------------------------------ */

/* Depth-first search from every process; a cycle is reported once, from its first process in
 * process order.  first: each process's edges (edges_settle). */
static void cycles(struct hang *h, struct graph *g, const size_t *first)
{
	size_t n = h->nprocs;
	if (!g->n || !n)
		return;
	int *state = calloc(n, sizeof(*state));      /* 0 new, 1 on the path, 2 done */
	size_t *via = calloc(n, sizeof(*via));         /* the edge the path took out of it */
	size_t *next = calloc(n, sizeof(*next));       /* the next edge to try */
	size_t *stack = calloc(n, sizeof(*stack));
	if (!state || !via || !next || !stack)
		goto out;
	for (size_t v = 0; v < n; v++)
		next[v] = first[v];
	for (size_t s0 = 0; s0 < n; s0++) {
		if (state[s0])
			continue;
		size_t depth = 0;
		stack[depth++] = s0;
		state[s0] = 1;
		while (depth) {
			size_t v = stack[depth - 1];
			size_t k = next[v];
			if (k == first[v + 1]) {
				state[v] = 2;
				depth--;
				continue;
			}
			next[v] = k + 1;
			via[v] = k;
			size_t w = (size_t)(g->e[k].to - h->procs);
			if (state[w] == 0) {
				state[w] = 1;
				stack[depth++] = w;
			} else if (state[w] == 1) {
				/* the path from w back to w */
				size_t at = depth;
				while (at > 0 && stack[at - 1] != w)
					at--;
				/* a cycle through collectives alone is what their findings say
				 * (who never entered which); one with a message is a deadlock */
				int message = 0;
				for (size_t i = at - 1; i < depth; i++)
					message |= g->e[via[stack[i]]].how != HE_COLL;
				if (!message)
					continue;
				struct hfinding *f = add(h, HF_CYCLE, INT64_MAX);
				for (size_t i = at - 1; i < depth; i++) {
					const struct hedge *e = &g->e[via[stack[i]]];
					if (f->ncycle < CYCLE_MAX)
						f->cycle[f->ncycle++] = *e;
					if (e->since < f->since)
						f->since = e->since;
				}
			}
		}
	}
out:
	free(state);
	free(via);
	free(next);
	free(stack);
}

/* Point-to-point waits outside any cycle, and waits for a process that is gone. */
static void lone_waits(struct hang *h, const struct graph *g)
{
	for (size_t i = 0; i < g->n; i++) {
		const struct hedge *e = &g->e[i];
		if (e->how == HE_COLL) {
			continue;   /* said by the collective's finding */
		}
		int in_cycle = 0;
		for (size_t k = 0; k < h->nfindings && !in_cycle; k++)
			for (uint32_t j = 0; h->findings[k].kind == HF_CYCLE &&
					     j < h->findings[k].ncycle && !in_cycle; j++)
				in_cycle = h->findings[k].cycle[j].from == e->from &&
					   h->findings[k].cycle[j].to == e->to;
		if (in_cycle)
			continue;
		int said = 0;   /* one finding a pair: a receive and a send between them say it twice */
		for (size_t k = 0; k < h->nfindings && !said; k++)
			said = (h->findings[k].kind == HF_WAITS_PEER || h->findings[k].kind == HF_GONE) &&
			       h->findings[k].cycle[0].from == e->from &&
			       h->findings[k].cycle[0].to == e->to;
		if (said)
			continue;
		struct hfinding *f = add(h, hang_gone(e->to) ? HF_GONE : HF_WAITS_PEER, e->since);
		f->cycle[0] = *e;
		f->ncycle = 1;
	}
}

/* Processes waiting for their device, unless a finding says so already. */
static void device_waits(struct hang *h)
{
	for (size_t i = 0; i < h->nprocs; i++) {
		struct hproc *hp = &h->procs[i];
		for (size_t k = 0; k < hp->ncalls; k++) {
			const struct hstream *s = hang_call_stream(hp, &hp->calls[k]);
			if (!s)
				continue;
			int said = 0;
			for (size_t j = 0; j < h->nfindings && !said; j++)
				for (uint32_t m = 0; m < h->findings[j].nmissing && m < MISSING_MAX; m++)
					said |= h->findings[j].missing[m] == hp;
			if (said)
				continue;
			struct hfinding *f = add(h, HF_DEVICE, hp->calls[k].t0);
			f->who = hp;
			f->call = &hp->calls[k];
			f->stream = s;
		}
	}
}

/* Whether process hp waits for another (an edge out of it). */
static int waits_for_other(const struct hang *h, const size_t *first, const struct hproc *hp)
{
	return hp && first[hp - h->procs + 1] > first[hp - h->procs];
}

/* A finding follows from another when whom it is about waits for others in turn: the rank
 * that never entered a collective is itself waiting in a receive, say.  Cycles, mismatches,
 * devices that do not finish and processes that are gone are causes. */
static void mark_follows(struct hang *h, const size_t *first)
{
	for (size_t i = 0; i < h->nfindings; i++) {
		struct hfinding *f = &h->findings[i];
		if (f->kind == HF_NOT_ENTERED) {
			int any = 0;
			for (uint32_t k = 0; k < f->nmissing && k < MISSING_MAX; k++)
				any |= waits_for_other(h, first, f->missing[k]);
			f->follows = (uint8_t)any;
		} else if (f->kind == HF_WAITS_PEER) {
			f->follows = (uint8_t)waits_for_other(h, first, f->cycle[0].to);
		}
	}
}

static int finding_order(const void *a, const void *b)
{
	const struct hfinding *x = a, *y = b;
	if (x->follows != y->follows)
		return x->follows - y->follows;
	/* Collectives waiting on each other (a rank that skipped one waits in the next): the
	 * one fewer members are missing from names the rank that went another way, whichever
	 * wait began first. */
	if (x->kind == HF_NOT_ENTERED && y->kind == HF_NOT_ENTERED && x->nmissing != y->nmissing)
		return x->nmissing < y->nmissing ? -1 : 1;
	if (x->since != y->since)
		return x->since < y->since ? -1 : 1;
	return (x->kind > y->kind) - (x->kind < y->kind);
}

/* On this host, whether the process of p runs (its /proc entry is there); -1: not known. */
/* 1 when process p runs on this host, 0 when it has ended there, -1 when it is not known
 * (another host). */
static int process_runs(const struct proc *p)
{
	if (!p->host)
		return -1;
	const char *host = strings_get(p->host);
	switch (tprof_process_state(host, strlen(host), (long)p->pid, 0, NULL)) {
	case TPROF_WRITER_LIVE: return 1;
	case TPROF_WRITER_GONE: return 0;
	default: return -1;
	}
}

void hang_settle(struct hang *h)
{
	const struct trace *tr = h->tr;
	int64_t end = tr->end_ns - tr->start_ns;
	h->now = h->now ? h->now - tr->start_ns : end;
	if (h->now < end)
		h->now = end;
	/* Live, a process of this host that is gone while others run is said to be; when none
	 * runs any more the profile is read as it was left, where each process's data ends. */
	int running = 0;
	for (size_t i = 0; h->live && i < h->nprocs; i++)
		if (h->procs[i].p) {
			h->procs[i].alive = process_runs(h->procs[i].p);
			running |= h->procs[i].alive != 0;
		}
	if (!running) {
		h->live = 0;
		h->now = end;
		for (size_t i = 0; i < h->nprocs; i++)
			h->procs[i].alive = -1;
	}
	size_t nopen;
	struct hcoll **open = hang_open_colls(h, &nopen);
	for (size_t i = 0; i < nopen; i++)   /* members that asked differently, not all out */
		hang_check_alike(h, open[i]->comm, open[i]->comm_name, open[i]->seq, open[i]->m,
				 open[i]->nm);
	struct graph g = { 0 };
	coll_findings(h, &g, open, nopen);
	p2p_edges(h, &g);
	size_t *first = edges_settle(h, &g);
	cycles(h, &g, first);
	lone_waits(h, &g);
	device_waits(h);
	for (size_t i = 0; i < h->nmismatch; i++) {
		struct hmismatch *m = &h->mismatch[i];
		int64_t at = m->a.t0 < m->b.t0 ? m->a.t0 : m->b.t0;   /* before its waits */
		struct hfinding *f = add(h, HF_MISMATCH, at);
		f->mismatch = m;
	}
	mark_follows(h, first);
	if (h->nfindings > 1)   /* none: findings is NULL, which qsort may not be given */
		qsort(h->findings, h->nfindings, sizeof(*h->findings), finding_order);
	free(first);
	free(g.e);
	free(open);
}

int hang_running(const struct hang *h)
{
	return h->live;
}
