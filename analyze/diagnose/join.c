/* diagnose/join.c — what one analysis process of `--parallel --diagnose` found (parallel.c),
 * packed for the first (util/pack.h), and joined there into one diagnosis: each process it
 * read (a stand-in process with its number, rank, pid, host and label, then its parts, own
 * costs, launches, steps and waits), the groups of delays its processes caused, the
 * wait-state rows of its processes, its steps over the ranks it read (merged: sums, and the
 * most and least with the lower process number on ties), and the splits the database wants.
 * Processes are referred to by number; names travel as text. */
#include <stdlib.h>
#include <string.h>

#include "../../common/xalloc.h"
#include "../parallel/par.h"
#include "../read/trace.h"
#include "../util/grow.h"
#include "../util/pack.h"
#include "../util/strings.h"
#include "state.h"

static void pack_hist(struct pack *b, const struct hist *h)
{
	pack_u64(b, h->n);
	pack_i64(b, h->max);
	uint64_t used = 0;
	for (unsigned i = 0; i < HIST_BINS; i++)
		used += h->bin[i] != 0;
	pack_u64(b, used);
	for (unsigned i = 0; i < HIST_BINS; i++)
		if (h->bin[i]) {
			pack_u64(b, i);
			pack_u64(b, h->bin[i]);
		}
}

static void unpack_hist(struct unpack *u, struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->n = unpack_u64(u);
	h->max = unpack_i64(u);
	for (size_t i = 0, n = unpack_count(u, 2 * sizeof(uint64_t)); i < n; i++) {
		uint64_t at = unpack_u64(u), v = unpack_u64(u);
		if (at < HIST_BINS)
			h->bin[at] = (uint32_t)v;
	}
}

static void pack_own(struct pack *b, const struct own_cost *o)
{
	pack_i64(b, o->total);
	pack_i64(b, o->max);
	pack_u64(b, o->steps);
	pack_u64(b, o->max_step);
	pack_i64(b, o->max_has_step);
	pack_i64(b, o->max_t0);
	pack_i64(b, o->max_t1);
	pack_name(b, o->name);
	pack_u64(b, o->count);
	pack_i64(b, o->by_proc >= 0 ? o->by_index : -1);
	pack_i64(b, o->by_ns);
}

static void unpack_own(struct unpack *u, struct own_cost *o)
{
	o->total = unpack_i64(u);
	o->max = unpack_i64(u);
	o->steps = unpack_u64(u);
	o->max_step = unpack_u64(u);
	o->max_has_step = (int)unpack_i64(u);
	o->max_t0 = unpack_i64(u);
	o->max_t1 = unpack_i64(u);
	o->name = unpack_name(u);
	o->count = unpack_u64(u);
	o->by_index = unpack_i64(u);
	o->by_proc = -1;             /* found once every process is here */
	o->by_ns = unpack_i64(u);
}

static void pack_proc(struct pack *b, const struct diagnosis *dx, const struct dproc *dp)
{
	char label[300];
	pack_i64(b, dp->p->index);
	pack_i64(b, dp->p->rank);
	pack_i64(b, dp->p->pid);
	pack_name(b, dp->p->host);
	pack_str(b, proc_label(dp->p, label, sizeof(label)));
	pack_u64(b, (uint64_t)dp->has_steps | (uint64_t)dp->any << 1);
	pack_i64(b, dp->lo);
	pack_i64(b, dp->hi);
	pack_u64(b, dp->steps);
	pack_i64(b, dp->covered);
	for (unsigned c = 0; c < CATS; c++)
		pack_i64(b, dp->ns[c]);
	for (unsigned k = 0; k < OWN_KINDS; k++)
		pack_own(b, &dp->own[k]);
	pack_u64(b, dp->kernels);
	pack_i64(b, dp->kernel_ns);
	pack_u64(b, dp->outside);
	pack_i64(b, dp->comm_ns);
	pack_i64(b, dp->comm_hidden);
	pack_u64(b, dp->tl.late);
	const struct launches *l = &dp->launches;
	pack_u64(b, l->nstreams);
	for (size_t i = 0; i < l->nstreams; i++) {
		const struct stream_launches *s = &l->streams[i];
		pack_u64(b, s->stream);
		pack_hist(b, &s->latency);
		pack_u64(b, s->depth_sum);
		pack_u64(b, s->depth_max);
	}
	pack_u64(b, l->nkernels);
	for (size_t i = 0; i < l->nkernels; i++) {
		const struct kernel_launches *k = &l->kernels[i];
		pack_name(b, k->name);
		pack_hist(b, &k->latency);
		pack_u64(b, k->n);
		pack_u64(b, k->shorter);
		pack_u64(b, k->timed);
	}
	pack_u64(b, dp->nfinal);
	for (size_t i = 0; i < dp->nfinal; i++) {
		pack_u64(b, dp->pend[i].step);
		pack_i64(b, dp->pend[i].t0);
		pack_i64(b, dp->pend[i].t1);
	}
	pack_u64(b, dp->nwaits);
	for (size_t i = 0; i < dp->nwaits; i++) {
		const struct wait_rec *w = &dp->waits[i];
		pack_i64(b, w->t0);
		pack_i64(b, w->t1);
		pack_i64(b, w->cause_rank);
		pack_name(b, w->site);
		pack_u64(b, w->seq);
		pack_u64(b, w->comm);
	}
	overview_pack(b, dx, dp);
	threads_pack(b, dx, &dp->ov);
	stepmap_pack(b, dx, dp);
}

/* A process another analysis process read, as the first sees it: a stand-in process with
 * its number, rank, pid, host and label, and what its reader found. */
static void unpack_proc(struct diagnosis *dx, struct unpack *u)
{
	struct proc *p = xcalloc(1, sizeof(*p));
	dx->standins = util_grow(dx->standins, &dx->capstandins, dx->nstandins,
				 sizeof(*dx->standins), 16);
	dx->standins[dx->nstandins++] = p;
	p->index = unpack_i64(u);
	p->rank = unpack_i64(u);
	p->pid = unpack_i64(u);
	p->host = unpack_name(u);
	size_t len;
	const char *label = unpack_str(u, &len);
	struct dproc *dp = dproc_get(dx, p);
	dp->label = len ? strings_add(label, len) : 0;
	uint64_t flags = unpack_u64(u);
	dp->has_steps = (int)(flags & 1);
	dp->any = (int)(flags >> 1 & 1);
	dp->lo = unpack_i64(u);
	dp->hi = unpack_i64(u);
	dp->steps = unpack_u64(u);
	dp->covered = unpack_i64(u);
	for (unsigned c = 0; c < CATS; c++)
		dp->ns[c] = unpack_i64(u);
	for (unsigned k = 0; k < OWN_KINDS; k++)
		unpack_own(u, &dp->own[k]);
	dp->kernels = unpack_u64(u);
	dp->kernel_ns = unpack_i64(u);
	dp->outside = unpack_u64(u);
	dp->comm_ns = unpack_i64(u);
	dp->comm_hidden = unpack_i64(u);
	dp->tl.late = unpack_u64(u);
	struct launches *l = &dp->launches;
	for (size_t i = 0, n = unpack_count(u, 5 * sizeof(uint64_t)); i < n; i++) {
		l->streams = util_grow(l->streams, &l->capstreams, l->nstreams, sizeof(*l->streams), 4);
		struct stream_launches *s = &l->streams[l->nstreams++];
		memset(s, 0, sizeof(*s));
		s->stream = unpack_u64(u);
		unpack_hist(u, &s->latency);
		s->depth_sum = unpack_u64(u);
		s->depth_max = unpack_u64(u);
	}
	for (size_t i = 0, n = unpack_count(u, 6 * sizeof(uint64_t)); i < n; i++) {
		l->kernels = util_grow(l->kernels, &l->capkernels, l->nkernels, sizeof(*l->kernels), 4);
		struct kernel_launches *k = &l->kernels[l->nkernels++];
		memset(k, 0, sizeof(*k));
		k->name = unpack_name(u);
		unpack_hist(u, &k->latency);
		k->n = unpack_u64(u);
		k->shorter = unpack_u64(u);
		k->timed = unpack_u64(u);
	}
	for (size_t i = 0, n = unpack_count(u, 3 * sizeof(uint64_t)); i < n; i++) {
		dp->pend = util_grow(dp->pend, &dp->cappend, dp->npend, sizeof(*dp->pend), 8);
		struct pend_step *s = &dp->pend[dp->npend++];
		s->step = unpack_u64(u);
		s->t0 = unpack_i64(u);
		s->t1 = unpack_i64(u);
	}
	dp->nfinal = dp->npend;
	for (size_t i = 0, n = unpack_count(u, 6 * sizeof(uint64_t)); i < n; i++) {
		dp->waits = util_grow(dp->waits, &dp->capwaits, dp->nwaits, sizeof(*dp->waits), 16);
		struct wait_rec *w = &dp->waits[dp->nwaits++];
		w->t0 = unpack_i64(u);
		w->t1 = unpack_i64(u);
		w->cause_rank = (int32_t)unpack_i64(u);
		w->site = unpack_name(u);
		w->seq = (uint32_t)unpack_u64(u);
		w->comm = unpack_u64(u);
	}
	overview_unpack(u, dx, dp);
	threads_unpack(u, dx, &dp->ov);
	stepmap_unpack(u, dx, dp);
}

static void pack_group(struct pack *b, const struct diagnosis *dx, const struct delay_group *g)
{
	pack_i64(b, dx->procs[g->proc]->p->index);
	pack_u64(b, (uint64_t)g->kind << 8 | g->on_device);
	pack_name(b, g->site);
	pack_name(b, g->caller);
	pack_u64(b, g->comm);
	pack_u64(b, g->n);
	pack_i64(b, g->cost);
	pack_i64(b, g->waited);
	pack_u64(b, g->waiters);
	pack_u64(b, g->steps);
	pack_i64(b, g->max);
	pack_i64(b, g->max_t0);
	pack_i64(b, g->max_t1);
	pack_u64(b, g->max_step);
	pack_i64(b, g->max_has_step);
	pack_u64(b, g->max_seq);
	for (unsigned c = 0; c < CATS; c++) {
		pack_i64(b, g->ex[c]);
		pack_i64(b, g->ex_best[c]);
		pack_name(b, g->ex_top[c]);
	}
	pack_name(b, g->after);
	for (uint64_t i = 0; i < g->n; i++)
		pack_i64(b, g->delays[i]);
}

static void unpack_group(struct diagnosis *dx, struct unpack *u)
{
	struct dproc *dp = dproc_at(dx, unpack_i64(u));
	dx->groups = util_grow(dx->groups, &dx->capgroups, dx->ngroups, sizeof(*dx->groups), 16);
	struct delay_group *g = &dx->groups[dx->ngroups];
	memset(g, 0, sizeof(*g));
	uint64_t kd = unpack_u64(u);
	g->kind = (uint8_t)(kd >> 8);
	g->on_device = (uint8_t)kd;
	g->site = unpack_name(u);
	g->caller = unpack_name(u);
	g->comm = unpack_u64(u);
	g->n = unpack_u64(u);
	g->cost = unpack_i64(u);
	g->waited = unpack_i64(u);
	g->waiters = (uint32_t)unpack_u64(u);
	g->steps = unpack_u64(u);
	g->max = unpack_i64(u);
	g->max_t0 = unpack_i64(u);
	g->max_t1 = unpack_i64(u);
	g->max_step = unpack_u64(u);
	g->max_has_step = (int)unpack_i64(u);
	g->max_seq = (uint32_t)unpack_u64(u);
	for (unsigned c = 0; c < CATS; c++) {
		g->ex[c] = unpack_i64(u);
		g->ex_best[c] = unpack_i64(u);
		g->ex_top[c] = unpack_name(u);
	}
	g->after = unpack_name(u);
	if (g->n > (uint64_t)(u->end - u->at) / sizeof(int64_t)) {
		u->short_read = 1;
		return;
	}
	g->delays = xmallocarray(g->n ? g->n : 1, sizeof(*g->delays));
	g->capdelays = g->n;
	for (uint64_t i = 0; i < g->n; i++)
		g->delays[i] = unpack_i64(u);
	if (!dp) {
		free(g->delays);
		return;
	}
	g->proc = dp->index;
	dx->ngroups++;
}

static void pack_row(struct pack *b, const struct diagnosis *dx, const struct wait_row *r)
{
	pack_i64(b, dx->procs[r->proc]->p->index);
	pack_u64(b, r->kind);
	pack_name(b, r->site);
	pack_name(b, r->caller);
	pack_u64(b, r->comm);
	pack_u64(b, r->n);
	pack_i64(b, r->ns);
}

static void unpack_row(struct diagnosis *dx, struct unpack *u)
{
	struct dproc *dp = dproc_at(dx, unpack_i64(u));
	struct wait_row r = { .kind = (uint8_t)unpack_u64(u) };
	r.site = unpack_name(u);
	r.caller = unpack_name(u);
	r.comm = unpack_u64(u);
	r.n = unpack_u64(u);
	r.ns = unpack_i64(u);
	if (!dp || u->short_read)
		return;
	r.proc = dp->index;
	dx->rows = util_grow(dx->rows, &dx->caprows, dx->nrows, sizeof(*dx->rows), 16);
	dx->rows[dx->nrows++] = r;
}

/* A step over the ranks read here; the process numbers of its extremes. */
static void pack_step(struct pack *b, const struct diagnosis *dx, const struct step_agg *s)
{
	pack_u64(b, s->step);
	pack_u64(b, s->ranks);
	pack_i64(b, s->t0);
	pack_i64(b, s->t1);
	const int64_t v[] = { s->dur_max, s->comp_max, s->comp_min, s->wait_max, s->wait_min };
	const int who[] = { s->dur_max_proc, s->comp_max_proc, s->comp_min_proc, s->wait_max_proc,
			    s->wait_min_proc };
	for (unsigned i = 0; i < 5; i++) {
		pack_i64(b, v[i]);
		pack_i64(b, dx->procs[who[i]]->p->index);
	}
	pack_i64(b, s->dur_sum);
	pack_i64(b, s->comp_sum);
	pack_i64(b, s->wait_sum);
	for (unsigned c = 0; c < CATS; c++)
		pack_i64(b, s->ns[c]);
}

/* Whether (v, index) wins over (best, best_index): more (or less), then the lower number. */
static int wins(int64_t v, int64_t index, int64_t best, int64_t best_index, int more)
{
	if (v != best)
		return more ? v > best : v < best;
	return index < best_index;
}

static void unpack_step(struct diagnosis *dx, struct unpack *u)
{
	uint64_t step = unpack_u64(u);
	uint32_t ranks = (uint32_t)unpack_u64(u);
	int64_t t0 = unpack_i64(u), t1 = unpack_i64(u);
	int64_t v[5], who[5];
	for (unsigned i = 0; i < 5; i++) {
		v[i] = unpack_i64(u);
		who[i] = unpack_i64(u);
	}
	int64_t dur_sum = unpack_i64(u), comp_sum = unpack_i64(u), wait_sum = unpack_i64(u);
	int64_t ns[CATS];
	for (unsigned c = 0; c < CATS; c++)
		ns[c] = unpack_i64(u);
	if (u->short_read || !ranks)
		return;
	struct step_agg *s = step_agg_of(dx, step);
	int64_t *best[] = { &s->dur_max, &s->comp_max, &s->comp_min, &s->wait_max, &s->wait_min };
	int *held[] = { &s->dur_max_proc, &s->comp_max_proc, &s->comp_min_proc,
			&s->wait_max_proc, &s->wait_min_proc };
	const int more[] = { 1, 1, 0, 1, 0 };
	for (unsigned i = 0; i < 5; i++) {
		struct dproc *dp = dproc_at(dx, who[i]);
		if (!dp)
			continue;
		if (!s->ranks || wins(v[i], who[i], *best[i], dx->procs[*held[i]]->p->index,
					more[i])) {
			*best[i] = v[i];
			*held[i] = dp->index;
		}
	}
	if (!s->ranks || t0 < s->t0)
		s->t0 = t0;
	if (!s->ranks || t1 > s->t1)
		s->t1 = t1;
	s->ranks += ranks;
	s->done += ranks;
	s->dur_sum += dur_sum;
	s->comp_sum += comp_sum;
	s->wait_sum += wait_sum;
	for (unsigned c = 0; c < CATS; c++)
		s->ns[c] += ns[c];
}

static void pack_split(struct pack *b, const struct diagnosis *dx, const struct split_rec *r)
{
	pack_i64(b, dx->procs[r->proc]->p->index);
	pack_u64(b, (uint64_t)r->has_step);
	pack_u64(b, r->step);
	pack_i64(b, r->t0);
	pack_i64(b, r->t1);
	for (unsigned c = 0; c < CATS; c++)
		pack_i64(b, r->ns[c]);
}

static void unpack_split(struct diagnosis *dx, struct unpack *u)
{
	struct dproc *dp = dproc_at(dx, unpack_i64(u));
	struct split_rec r = { .has_step = (int)unpack_u64(u) };
	r.step = unpack_u64(u);
	r.t0 = unpack_i64(u);
	r.t1 = unpack_i64(u);
	for (unsigned c = 0; c < CATS; c++)
		r.ns[c] = unpack_i64(u);
	if (!dp || u->short_read)
		return;
	r.proc = dp->index;
	dx->splits = util_grow(dx->splits, &dx->capsplits, dx->nsplits, sizeof(*dx->splits), 64);
	dx->splits[dx->nsplits++] = r;
}

/* Everything this analysis process found, for the first. */
void join_pack(struct pack *b, const struct diagnosis *dx)
{
	pack_u64(b, (uint64_t)dx->job_steps);
	pack_u64(b, dx->nprocs);
	for (size_t i = 0; i < dx->nprocs; i++)
		pack_proc(b, dx, dx->procs[i]);
	pack_u64(b, dx->ngroups);
	for (size_t i = 0; i < dx->ngroups; i++)
		pack_group(b, dx, &dx->groups[i]);
	pack_u64(b, dx->nrows);
	for (size_t i = 0; i < dx->nrows; i++)
		pack_row(b, dx, &dx->rows[i]);
	pack_u64(b, dx->nsteps);
	for (size_t i = 0; i < dx->nsteps; i++)
		pack_step(b, dx, &dx->steps[i]);
	pack_u64(b, dx->nsplits);
	for (size_t i = 0; i < dx->nsplits; i++)
		pack_split(b, dx, &dx->splits[i]);
}

/* Every part: the processes first (what the rest refers to), then the rest. */
int join_unpack(struct diagnosis *dx, const char *all, const size_t *len_of)
{
	size_t k = (size_t)par_size(), off = 0;
	size_t *rest = xcalloc(k, sizeof(*rest));
	int rc = 0;
	for (size_t a = 0; a < k && !rc; a++) {
		struct unpack u = unpack_of(all + off, len_of[a]);
		dx->job_steps |= (int)unpack_u64(&u);
		for (size_t i = 0, n = unpack_count(&u, 8); i < n; i++)
			unpack_proc(dx, &u);
		rest[a] = off + (size_t)(u.at - (all + off));
		off += len_of[a];
		rc = u.short_read ? -1 : 0;
	}
	off = 0;
	for (size_t a = 0; a < k && !rc; a++) {
		struct unpack u = unpack_of(all + rest[a], len_of[a] - (rest[a] - off));
		off += len_of[a];
		for (size_t i = 0, n = unpack_count(&u, 8); i < n; i++)
			unpack_group(dx, &u);
		for (size_t i = 0, n = unpack_count(&u, 8); i < n; i++)
			unpack_row(dx, &u);
		for (size_t i = 0, n = unpack_count(&u, 8); i < n; i++)
			unpack_step(dx, &u);
		for (size_t i = 0, n = unpack_count(&u, 8); i < n; i++)
			unpack_split(dx, &u);
		rc = u.short_read || u.at != u.end ? -1 : 0;
	}
	free(rest);
	return rc;
}

