/* diagnose/findings.c — wait states grouped by who caused them and where (kind, the late
 * process, the call, the communicator), the waits of each process by kind and place for the
 * wait-state table, and the findings: those groups and each process's own costs (streams
 * idle between launches, kernels held back by copies, waiting for a CPU), ranked by the time
 * they cost, those under FINDING_SHARE of the time a process covers left out.  A process's
 * own cost that is at least half the delays it caused, in at least half their steps (or,
 * waiting for a CPU, a quarter of their time), is taken as their cause: one finding of both,
 * costing the larger. */
#include <stdlib.h>
#include <string.h>

#include "../util/grow.h"
#include "../util/strings.h"
#include "state.h"

/* A finding must cost at least this share of the time the average process covers. */
#define FINDING_SHARE 0.01

const char *const own_kind_key[OWN_KINDS] = { "host_bound", "copy_held", "cpu_wait" };

static uint64_t key_mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdull;
}

static uint64_t group_key(unsigned kind, int proc, uint32_t site, uint32_t caller,
			  uint64_t comm)
{
	return key_mix(key_mix(key_mix(key_mix(kind, (uint64_t)proc), site), caller), comm);
}

static struct delay_group *group_of(struct diagnosis *dx, const struct wait_delay *d, int proc)
{
	uint64_t key = group_key(d->kind, proc, d->site, d->caller, d->comm);
	for (;; key++) {   /* a hash shared by two groups: the next key */
		uint32_t *at = u64map_get(&dx->group_of, key);
		if (!at)
			break;
		struct delay_group *g = &dx->groups[*at];
		if (g->kind == d->kind && g->proc == proc && g->site == d->site &&
		    g->caller == d->caller && g->comm == d->comm)
			return g;
	}
	dx->groups = util_grow(dx->groups, &dx->capgroups, dx->ngroups, sizeof(*dx->groups), 16);
	struct delay_group *g = &dx->groups[dx->ngroups];
	memset(g, 0, sizeof(*g));
	g->kind = d->kind;
	g->on_device = d->on_device;
	g->proc = proc;
	g->site = d->site;
	g->caller = d->caller;
	g->comm = d->comm;
	u64map_put(&dx->group_of, key, (uint32_t)dx->ngroups++);
	return g;
}

void group_add(struct diagnosis *dx, struct dproc *dp, const struct wait_delay *d,
	       const int64_t ex[CATS], const uint32_t top[CATS], uint32_t after,
	       int has_step, uint64_t step)
{
	struct delay_group *g = group_of(dx, d, dp->index);
	int64_t delay = d->t1 - d->t0;
	g->delays = util_grow(g->delays, &g->capdelays, g->n, sizeof(*g->delays), 8);
	g->delays[g->n] = delay;
	g->n++;
	g->cost += delay;
	g->waited += d->waited;
	if (d->waiters > g->waiters)
		g->waiters = d->waiters;
	if (has_step && (!g->counted_step || g->last_step != step)) {
		g->steps++;
		g->last_step = step;
		g->counted_step = 1;
	}
	if (delay > g->max) {
		g->max = delay;
		g->max_t0 = d->t0;
		g->max_t1 = d->t1;
		g->max_step = step;
		g->max_has_step = has_step;
		g->max_seq = d->seq;
		if (after)
			g->after = after;
	}
	for (unsigned c = 0; c < CATS; c++) {
		g->ex[c] += ex[c];
		if (top[c] && ex[c] > g->ex_best[c]) {
			g->ex_best[c] = ex[c];
			g->ex_top[c] = top[c];
		}
	}
}

void wait_row_add(struct diagnosis *dx, const struct wait_span *w, int proc)
{
	uint64_t key = key_mix(group_key(w->kind, proc, w->site, w->caller, w->comm), 1);
	struct wait_row *r = NULL;
	for (;; key++) {
		uint32_t *at = u64map_get(&dx->row_of, key);
		if (!at)
			break;
		struct wait_row *x = &dx->rows[*at];
		if (x->kind == w->kind && x->proc == proc && x->site == w->site &&
		    x->caller == w->caller && x->comm == w->comm) {
			r = x;
			break;
		}
	}
	if (!r) {
		dx->rows = util_grow(dx->rows, &dx->caprows, dx->nrows, sizeof(*dx->rows), 16);
		r = &dx->rows[dx->nrows];
		*r = (struct wait_row){ .kind = w->kind, .proc = proc, .site = w->site,
					.caller = w->caller, .comm = w->comm };
		u64map_put(&dx->row_of, key, (uint32_t)dx->nrows++);
	}
	r->n++;
	r->ns += w->t1 - w->t0;
}

static int by_ns(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* Two groups of delays in an order that does not depend on which came first: by process
 * number, kind, call, calling function and communicator. */
static int group_cmp(const struct diagnosis *dx, const struct delay_group *x,
		     const struct delay_group *y)
{
	int64_t px = dx->procs[x->proc]->p->index, py = dx->procs[y->proc]->p->index;
	if (px != py)
		return (px > py) - (px < py);
	if (x->kind != y->kind)
		return x->kind - y->kind;
	int c = strcmp(strings_get(x->site), strings_get(y->site));
	if (!c)
		c = strcmp(strings_get(x->caller), strings_get(y->caller));
	return c ? c : (x->comm > y->comm) - (x->comm < y->comm);
}

static int by_cost(const void *a, const void *b, void *ctx)
{
	const struct finding *x = a, *y = b;
	const struct diagnosis *dx = ctx;
	if (x->cost != y->cost)
		return x->cost > y->cost ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind - y->kind;
	if (x->kind == F_WAIT)
		return group_cmp(dx, &dx->groups[x->i], &dx->groups[y->i]);
	return x->i < y->i ? -1 : x->i > y->i;
}

static int row_cmp(const void *a, const void *b)
{
	const struct wait_row *x = a, *y = b;
	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind - y->kind;
	if (x->proc != y->proc)
		return x->proc - y->proc;
	if (x->comm != y->comm)
		return (x->comm > y->comm) - (x->comm < y->comm);
	if (x->site != y->site)
		return strcmp(strings_get(x->site), strings_get(y->site));
	return strcmp(strings_get(x->caller), strings_get(y->caller));
}

/* Also puts the wait-state rows largest first. */
void findings_rank(struct diagnosis *dx)
{
	if (dx->nrows > 1)
		qsort(dx->rows, dx->nrows, sizeof(*dx->rows), row_cmp);
	for (size_t i = 0; i < dx->ngroups; i++) {
		struct delay_group *g = &dx->groups[i];
		if (g->n > 1)
			qsort(g->delays, g->n, sizeof(*g->delays), by_ns);
		g->median = g->n ? g->delays[(g->n - 1) / 2] : 0;
	}
	for (size_t i = 0; i < dx->nsteps; i++) {
		const struct step_agg *s = &dx->steps[i];
		if (s->ranks < 2)
			continue;
		if (s->comp_max > s->comp_min) {
			struct dproc *dp = dx->procs[s->comp_max_proc];
			dp->excess = util_grow(dp->excess, &dp->capexcess, dp->most_compute,
					       sizeof(*dp->excess), 8);
			dp->excess[dp->most_compute++] = s->comp_max - (s->comp_sum - s->comp_max) /
							 (int64_t)(s->ranks - 1);
		}
		if (s->wait_max > s->wait_min)
			dx->procs[s->wait_max_proc]->most_wait++;
	}
	for (size_t i = 0; i < dx->nprocs; i++) {
		struct dproc *dp = dx->procs[i];
		if (dp->most_compute > 1)
			qsort(dp->excess, dp->most_compute, sizeof(*dp->excess), by_ns);
		dp->excess_median = dp->most_compute ? dp->excess[(dp->most_compute - 1) / 2] : 0;
	}
	int64_t covered = 0;
	size_t counted = 0;
	for (size_t i = 0; i < dx->nprocs; i++)
		if (dx->procs[i]->covered) {
			covered += dx->procs[i]->covered;
			counted++;
		}
	int64_t floor = counted ? (int64_t)((double)covered / (double)counted * FINDING_SHARE) : 0;
	if (floor < 1)
		floor = 1;
	/* a cost many processes have alike is one finding of them all */
	for (unsigned k = 0; k < OWN_KINDS; k++) {
		struct own_many *m = &dx->many[k];
		memset(m, 0, sizeof(*m));
		for (size_t i = 0; i < dx->nprocs; i++) {
			const struct own_cost *o = &dx->procs[i]->own[k];
			if (o->total < floor)
				continue;
			m->procs++;
			m->total += o->total;
			if (o->total > m->max) {
				m->max = o->total;
				m->proc = (int)i;
			}
		}
	}
	for (size_t i = 0; i < dx->ngroups; i++) {
		struct delay_group *g = &dx->groups[i];
		struct dproc *dp = dx->procs[g->proc];
		struct own_cost *best = NULL;
		for (unsigned k = 0; k < OWN_KINDS; k++) {
			struct own_cost *o = &dp->own[k];
			if (dx->many[k].procs > OWN_MANY)
				continue;
			if (o->total >= floor && o->total * 2 >= g->cost && o->steps * 2 >= g->steps &&
			    (!best || o->total > best->total))
				best = o;
		}
		if (!best && dp->own[OWN_CPU_WAIT].total >= floor &&
		    dx->many[OWN_CPU_WAIT].procs <= OWN_MANY && g->ex[CAT_CPU_WAIT] * 4 >= g->cost)
			best = &dp->own[OWN_CPU_WAIT];   /* a quarter of its delay waiting for a CPU */
		if (best && (!best->made || g->cost > dx->groups[best->made - 1].cost)) {
			if (best->made)
				dx->groups[best->made - 1].folded = 0;
			best->made = (uint32_t)i + 1;
			g->folded = 1;
		}
	}
	size_t cap = dx->ngroups + dx->nprocs * OWN_KINDS + OWN_KINDS;
	dx->findings = xmallocarray(cap ? cap : 1, sizeof(*dx->findings));
	dx->nfindings = 0;
	for (size_t i = 0; i < dx->ngroups; i++)
		if (dx->groups[i].cost >= floor && !dx->groups[i].folded)
			dx->findings[dx->nfindings++] = (struct finding){ dx->groups[i].cost, F_WAIT,
									  (uint32_t)i };
	for (unsigned k = 0; k < OWN_KINDS; k++)
		if (dx->many[k].procs > OWN_MANY)
			dx->findings[dx->nfindings++] = (struct finding){ dx->many[k].max, F_OWN_MANY,
									  k };
	for (size_t i = 0; i < dx->nprocs; i++)
		for (unsigned k = 0; k < OWN_KINDS; k++)
			if (dx->procs[i]->own[k].total >= floor && dx->many[k].procs <= OWN_MANY) {
				const struct own_cost *o = &dx->procs[i]->own[k];
				int64_t cost = o->total;
				if (o->made && dx->groups[o->made - 1].cost > cost)
					cost = dx->groups[o->made - 1].cost;
				dx->findings[dx->nfindings++] = (struct finding){
					cost, F_OWN, (uint32_t)(i * OWN_KINDS + k) };
			}
	if (dx->nfindings > 1)
		qsort_r(dx->findings, dx->nfindings, sizeof(*dx->findings), by_cost, dx);
}
