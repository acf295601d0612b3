/* capture.c — when the processes recorded: each process's capture window changes (CAPTURE
 * records: tprof-inspect's --delay, --duration, --steps, its signal, the program's
 * tprof_stop/tprof_start...) placed on the global axis, and the stretches of time in which
 * some process recorded, for the summary to say how much of the run the profile covers and
 * why the rest is missing.  A process whose first change opens its window, or says it was
 * closed from the start, was paused from its start; one with no change recorded from its
 * start to its end. */
#include <stdlib.h>

#include "../../common/xalloc.h"
#include "share.h"
#include "trace.h"

struct span {
	int64_t t0, t1;
};

static int by_start(const void *a, const void *b)
{
	const struct span *x = a, *y = b;
	return x->t0 < y->t0 ? -1 : x->t0 > y->t0;
}

void capture_place(struct trace *tr)
{
	struct capture_sum *c = &tr->capture;
	size_t n = 0;
	for (size_t i = 0; i < tr->nprocs; i++) {
		c->any |= tr->procs[i]->ncaptures != 0;
		n += tr->procs[i]->ncaptures / 2 + 1;
	}
	uint32_t any = c->any;
	share_or(&any, 1);          /* the parallel analyzer's processes decide alike */
	c->any = any != 0;
	if (!c->any)
		return;
	struct span *s = xmallocarray(n, sizeof(*s));
	size_t k = 0;
	uint32_t start_closed = 0;   /* why processes were closed from their start */
	for (size_t i = 0; i < tr->nprocs; i++) {
		struct proc *p = tr->procs[i];
		if (p->sys || p->imp || p->made)
			continue;
		size_t cur = 0;
		int on = !p->ncaptures || (!p->captures[0].on && !p->captures[0].at_start);
		int64_t from = p->start_ns;
		for (size_t m = 0; m < p->ncaptures; m++) {
			struct capture_mark *x = &p->captures[m];
			x->ns = timebase_global(&p->tb, x->ticks, &cur);
			if (x->ns < p->start_ns)
				x->ns = p->start_ns;
			if (x->ns > p->end_ns)
				x->ns = p->end_ns;
			if (x->on)
				c->opened_by |= 1u << (x->why & 31);
			else if (x->at_start)
				start_closed |= 1u << (x->why & 31);
			else
				c->closed_by |= 1u << (x->why & 31);
			if (x->on && !on)
				from = x->ns;
			else if (!x->on && on && k < n)
				s[k++] = (struct span){ from, x->ns };
			on = x->on;
		}
		if (on && k < n)
			s[k++] = (struct span){ from, p->end_ns };
	}
	/* every analysis process's stretches and reasons (read/share.h) */
	uint32_t bits[3] = { c->opened_by, c->closed_by, start_closed };
	share_or(bits, 3);
	c->opened_by = bits[0];
	c->closed_by = bits[1];
	start_closed = bits[2];
	struct span *all = share_all(s, k, sizeof(*s), &k);
	free(s);
	s = all;
	qsort(s, k, sizeof(*s), by_start);
	for (size_t i = 0; i < k;) {
		int64_t t0 = s[i].t0, t1 = s[i].t1;
		for (i++; i < k && s[i].t0 <= t1; i++)
			if (s[i].t1 > t1)
				t1 = s[i].t1;
		c->windows++;
		c->recorded_ns += t1 - t0;
	}
	/* Nothing recorded: what kept it closed from the start is what closed it. */
	if (!c->windows)
		c->closed_by |= start_closed;
	free(s);
}
