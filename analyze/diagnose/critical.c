/* diagnose/critical.c — a step's critical path across processes: the chain of work that set
 * its length.  It is walked backwards from the process that ended the step last: on a
 * process, back from the time reached to the end of its latest wait for another process
 * (where that other arrived); then on the one it waited for, back from its arrival; until a
 * process's step start, with no wait before.  Each link is a process's time between two such
 * points, described by its split (the category with the most of it, and the kernel or call
 * with the most of that); a link that ends in an arrival others waited for (or, on the
 * process the walk ends on, holds the one waited for longest) says where, and how many
 * waited how long in all.  Times strictly decrease along the walk, so it ends; CP_LINKS
 * bounds it.  The processes' spans of the step are still kept: diagnosis.c forgets them only
 * once every process has diagnosed the step and its path is found. */
#include <stdlib.h>
#include <string.h>

#include "../util/grow.h"
#include "state.h"

const struct pend_step *done_step(const struct dproc *dp, uint64_t step)
{
	if (dp->nfinal) {       /* held (parallel.c): every step kept, in order */
		size_t lo = 0, hi = dp->nfinal;
		while (lo < hi) {
			size_t m = lo + (hi - lo) / 2;
			if (dp->pend[m].step < step)
				lo = m + 1;
			else
				hi = m;
		}
		if (lo < dp->nfinal && dp->pend[lo].step == step)
			return &dp->pend[lo];
		for (size_t i = 0; i < dp->nfinal; i++)   /* numbers out of order */
			if (dp->pend[i].step == step)
				return &dp->pend[i];
		return NULL;
	}
	for (unsigned i = 0; i < DONE_KEPT && i < dp->ndone; i++) {
		const struct pend_step *s = &dp->done[(dp->ndone - 1 - i) % DONE_KEPT];
		if (s->step == step)
			return s;
	}
	return NULL;
}

static struct dproc *of_rank(struct diagnosis *dx, int32_t rank)
{
	if (rank < 0)
		return NULL;
	uint32_t *at = u64map_get(&dx->by_rank, (uint64_t)rank);
	return at ? dx->procs[*at - 1] : NULL;
}

/* The latest wait of dp ending after lo and before t whose cause took part in the step. */
static const struct wait_rec *latest_wait(struct diagnosis *dx, const struct dproc *dp,
					  uint64_t step, int64_t lo, int64_t t, struct dproc **cause)
{
	const struct wait_rec *best = NULL;
	for (size_t i = 0; i < dp->nwaits; i++) {
		const struct wait_rec *w = &dp->waits[i];
		if (w->t1 >= t || w->t1 <= lo || (best && w->t1 <= best->t1))
			continue;
		struct dproc *q = of_rank(dx, w->cause_rank);
		if (!q || q == dp || !done_step(q, step))
			continue;
		best = w;
		*cause = q;
	}
	return best;
}

/* How many of the step's processes waited at (comm, seq, site), and how long in all. */
static void waited_at(struct diagnosis *dx, uint64_t step, struct cp_link *l)
{
	for (size_t i = 0; i < dx->nprocs; i++) {
		const struct dproc *dp = dx->procs[i];
		const struct pend_step *ps = done_step(dp, step);
		if (!ps)
			continue;
		for (size_t k = 0; k < dp->nwaits; k++) {
			const struct wait_rec *w = &dp->waits[k];
			if (w->comm == l->via_comm && w->seq == l->via_seq && w->site == l->via_site &&
			    w->t1 > ps->t0 && w->t0 < ps->t1) {
				l->via_waiters++;
				l->via_waited += w->t1 - w->t0;
			}
		}
	}
}

void describe_link(struct dproc *dp, struct cp_link *l)
{
	int64_t ns[CATS];
	uint32_t top[CATS];
	timeline_split(&dp->tl, l->t0, l->t1, ns, top);
	unsigned best = CAT_HOST;
	for (unsigned c = 0; c < CATS; c++)
		if (ns[c] > ns[best])
			best = c;
	l->cat = (uint8_t)best;
	l->cat_ns = ns[best];
	l->name = top[best];
	l->after = best == CAT_HOST && !l->name ? timeline_gap_after(&dp->tl, l->t0, l->t1) : 0;
}

/* A link that ends the path on its own process may still have made others wait: the arrival
 * of its process in it that another process of the step waited for longest. */
static void made_wait(struct diagnosis *dx, uint64_t step, struct cp_link *l)
{
	int64_t rank = dx->procs[l->proc]->p->rank;
	int64_t best = INT64_MIN;
	for (size_t i = 0; i < dx->nprocs && rank >= 0; i++) {
		const struct dproc *dp = dx->procs[i];
		if (!done_step(dp, step))
			continue;
		for (size_t k = 0; k < dp->nwaits; k++) {
			const struct wait_rec *w = &dp->waits[k];
			if (w->cause_rank == rank && w->t1 > l->t0 && w->t1 <= l->t1 &&
			    w->t1 - w->t0 > best) {
				best = w->t1 - w->t0;
				l->has_via = 1;
				l->via_site = w->site;
				l->via_seq = w->seq;
				l->via_comm = w->comm;
			}
		}
	}
}

void critical_path(struct diagnosis *dx, struct step_agg *s, int describe)
{
	struct dproc *p = NULL;
	const struct pend_step *ps = NULL;
	for (size_t i = 0; i < dx->nprocs; i++) {
		const struct pend_step *x = done_step(dx->procs[i], s->step);
		if (x && (!ps || x->t1 > ps->t1)) {
			ps = x;
			p = dx->procs[i];
		}
	}
	if (!p)
		return;
	struct cp_link back[CP_LINKS];
	unsigned n = 0;
	int64_t t = ps->t1;
	struct cp_link via = { .has_via = 0 };
	while (n < CP_LINKS) {
		struct dproc *q = NULL;
		const struct wait_rec *w = n + 1 < CP_LINKS ?
			latest_wait(dx, p, s->step, ps->t0, t, &q) : NULL;
		struct cp_link *l = &back[n++];
		*l = via;
		l->proc = p->index;
		l->t0 = w ? w->t1 : ps->t0;
		l->t1 = t;
		if (!w)
			break;
		via = (struct cp_link){ .has_via = 1, .via_site = w->site, .via_seq = w->seq,
					.via_comm = w->comm };
		t = w->t1;
		p = q;
		ps = done_step(q, s->step);
	}
	/* the first link's process began the step late: the step before ran late there */
	s->late_start = ps->t0 - s->t0;
	s->late_proc = p->index;
	free(s->path);
	s->path = xmallocarray(n, sizeof(*s->path));
	s->npath = n;
	for (unsigned i = 0; i < n; i++) {
		struct cp_link *l = &s->path[i];
		*l = back[n - 1 - i];
		if (describe)
			describe_link(dx->procs[l->proc], l);
		if (!l->has_via)
			made_wait(dx, s->step, l);
		if (l->has_via)
			waited_at(dx, s->step, l);
	}
}
