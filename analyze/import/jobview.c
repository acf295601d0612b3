/* import/jobview.c — what placing an imported file needs of the job's recorded processes
 * (jobview.h), whichever analysis process reads them: the profile's start (its earliest clock
 * point), its one host when it has one, and per host the clock of its first recorded process
 * (in the order the files were found, the serial analyzer's order at that time).  Serially
 * the trace's own; under --parallel every analysis process's, combined (one collective each),
 * so that every one places a file as the serial analyzer does. */
#include <stdlib.h>
#include <string.h>

#include "../../common/xalloc.h"
#include "../parallel/par.h"
#include "../util/grow.h"
#include "../util/pack.h"
#include "jobview.h"

static int recorded(const struct proc *p)
{
	return !p->imp && !p->sys;
}

/* This analysis process's first recorded process of each host, by scan order. */
static void local_clocks(const struct trace *tr, struct job_view *v)
{
	for (size_t i = 0; i < tr->nprocs; i++) {
		const struct proc *p = tr->procs[i];
		if (!recorded(p) || !p->tb.n)
			continue;
		size_t k = 0;
		while (k < v->nclocks && v->clocks[k].host != p->host)
			k++;
		if (k < v->nclocks && v->clocks[k].order <= p->scan_order)
			continue;
		if (k == v->nclocks) {
			v->clocks = util_grow(v->clocks, &v->capclocks, v->nclocks, sizeof(*v->clocks),
					      8);
			v->nclocks++;
		}
		v->clocks[k] = (struct host_clock){ .host = p->host, .order = p->scan_order,
						    .real_mono = p->tb.pts[0].real - p->tb.pts[0].mono,
						    .offset = p->tb.offset, .corrected = p->tb.corrected,
						    .corr = p->tb.corr };
	}
}

/* Every analysis process's clocks, the first of each host kept. */
static void share_clocks(struct job_view *v)
{
	struct pack mine = { 0 };
	for (size_t k = 0; k < v->nclocks; k++) {
		const struct host_clock *c = &v->clocks[k];
		pack_name(&mine, c->host);
		pack_u64(&mine, c->order);
		pack_i64(&mine, c->real_mono);
		pack_i64(&mine, c->offset);
		pack_u64(&mine, (uint64_t)c->corrected);
		pack_bytes(&mine, &c->corr, sizeof(c->corr));
	}
	size_t total;
	char *all = par_allgather_total(mine.v, mine.n, &total);
	pack_free(&mine);
	v->nclocks = 0;
	for (struct unpack u = unpack_of(all, total); unpack_more(&u);) {
		struct host_clock c = { 0 };
		c.host = unpack_name(&u);
		c.order = (uint32_t)unpack_u64(&u);
		c.real_mono = unpack_i64(&u);
		c.offset = unpack_i64(&u);
		c.corrected = unpack_u64(&u) != 0;
		unpack_bytes(&u, &c.corr, sizeof(c.corr));
		size_t k = 0;
		while (k < v->nclocks && v->clocks[k].host != c.host)
			k++;
		if (k < v->nclocks && v->clocks[k].order <= c.order)
			continue;
		if (k == v->nclocks) {
			v->clocks = util_grow(v->clocks, &v->capclocks, v->nclocks, sizeof(*v->clocks),
					      8);
			v->nclocks++;
		}
		v->clocks[k] = c;
	}
	free(all);
}

void job_view_make(const struct trace *tr, struct job_view *v)
{
	memset(v, 0, sizeof(*v));
	int64_t start = INT64_MAX;
	for (size_t i = 0; i < tr->nprocs; i++) {
		const struct proc *p = tr->procs[i];
		size_t c = 0;
		if (!p->imp && p->tb.n) {
			int64_t t = timebase_global(&p->tb, p->tb.pts[0].ticks, &c);
			if (t < start)
				start = t;
		}
	}
	if (par_size() > 1)
		par_min_i64(&start, 1);
	v->start = start == INT64_MAX ? 0 : start;
	local_clocks(tr, v);
	if (par_size() > 1)
		share_clocks(v);
	/* one host: every recorded process's (hosts without a clock count too) */
	uint32_t one = 0;
	int several = 0;
	for (size_t i = 0; i < tr->nprocs; i++) {
		const struct proc *p = tr->procs[i];
		if (!recorded(p))
			continue;
		several |= one && p->host != one;
		one = one ? one : p->host;
	}
	if (par_size() > 1) {
		/* the hosts every analysis process saw: one when each saw at most that one */
		struct pack mine = { 0 };
		pack_u64(&mine, (uint64_t)several);
		pack_name(&mine, one);
		size_t total;
		char *all = par_allgather_total(mine.v, mine.n, &total);
		pack_free(&mine);
		one = 0;
		for (struct unpack u = unpack_of(all, total); unpack_more(&u);) {
			several |= unpack_u64(&u) != 0;
			uint32_t h = unpack_name(&u);
			several |= h && one && h != one;
			one = one ? one : h;
		}
		free(all);
	}
	v->one_host = several ? 0 : one;
}

const struct host_clock *job_view_clock(const struct job_view *v, uint32_t host)
{
	for (size_t k = 0; host && k < v->nclocks; k++)
		if (v->clocks[k].host == host)
			return &v->clocks[k];
	return NULL;
}

void job_view_free(struct job_view *v)
{
	free(v->clocks);
	memset(v, 0, sizeof(*v));
}
