/* summary.c — the --summary tables: for each kind of event, one row per name sorted by total
 * time (Total %, Time, Calls, Avg, Min, Max, Name), and a header saying what the numbers
 * cover: wall time, processes, threads, and what was dropped or skipped and why.  Device
 * work, MPI, NCCL and the Neuron runtime have parts of their own (runtimes/device/summary.c,
 * runtimes/mpi/summary.c, runtimes/nccl/summary.c, runtimes/nrt/summary.c). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../runtimes/device/summary.h"
#include "../runtimes/mpi/summary.h"
#include "../runtimes/nrt/summary.h"
#include "../runtimes/nccl/summary.h"
#include "table.h"

#define NDOMAINS 6
static const char *const domain_title[NDOMAINS] = { "API calls", "HIP API", "MPI", "NCCL",
						     "NRT API", "CUDA" };

struct counter_agg {
	uint64_t n;
	double min, max, sum, last;
};

struct step_row {
	int proc;
	uint64_t step;
	int64_t dur;
};

struct summary {
	FILE *f;
	char *dir;
	int top;
	struct agg *ranges;          /* by string id */
	struct agg *calls[NDOMAINS]; /* API calls, by domain and name id */
	struct devsum *dev;
	struct mpisum *mpi;
	struct nrtsum *nrt;
	struct ncclsum *nccl;
	uint64_t *marks;
	struct counter_agg *counters;
	size_t cap;                  /* of the three arrays above */
	struct step_row *steps;
	size_t nsteps, capsteps;
	uint64_t unfinished, clipped;
};

static void ensure(struct summary *s, uint32_t id)
{
	if (id < s->cap)
		return;
	size_t n = s->cap ? s->cap : 1024;
	while (n <= id)
		n *= 2;
	s->ranges = realloc(s->ranges, n * sizeof(*s->ranges));
	s->marks = realloc(s->marks, n * sizeof(*s->marks));
	s->counters = realloc(s->counters, n * sizeof(*s->counters));
	if (!s->ranges || !s->marks || !s->counters)
		abort();
	for (int d = 0; d < NDOMAINS; d++) {
		if (!s->calls[d])
			continue;
		s->calls[d] = realloc(s->calls[d], n * sizeof(*s->calls[d]));
		if (!s->calls[d])
			abort();
		memset(s->calls[d] + s->cap, 0, (n - s->cap) * sizeof(*s->calls[d]));
	}
	memset(s->ranges + s->cap, 0, (n - s->cap) * sizeof(*s->ranges));
	memset(s->marks + s->cap, 0, (n - s->cap) * sizeof(*s->marks));
	memset(s->counters + s->cap, 0, (n - s->cap) * sizeof(*s->counters));
	s->cap = n;
}

/* A run of polls: each function's calls in its own row. */
static void polls_add(struct summary *s, int d, const struct poll_info *pi)
{
	for (unsigned i = 0; i < pi->n; i++) {
		const struct poll_fn_info *f = &pi->fn[i];
		ensure(s, f->name);
		agg_add_n(&s->calls[d][f->name], f->count, f->busy, f->min, f->max);
	}
}

static int begin(void *priv, const struct trace *tr)
{
	(void)priv;
	(void)tr;
	return 0;
}

static void event(void *priv, const struct event *ev)
{
	struct summary *s = priv;
	if (ev->flags & EVF_UNFINISHED)
		s->unfinished++;
	if (ev->flags & EVF_CLIPPED)
		s->clipped++;
	switch (ev->kind) {
	case EV_RANGE:
	case EV_ASYNC:
		ensure(s, ev->name);
		agg_add(&s->ranges[ev->name], ev->t1 - ev->t0);
		break;
	case EV_CALL: {
		int d = ev->call->domain < NDOMAINS ? ev->call->domain : 0;
		if (d == TPROF_DOM_MPI) {
			mpisum_event(s->mpi, ev);
			break;
		}
		if (d == TPROF_DOM_NCCL) {
			ncclsum_event(s->nccl, ev);
			break;
		}
		if (!s->calls[d] && !(s->calls[d] = calloc(s->cap, sizeof(*s->calls[d]))))
			abort();
		if (ev->call->poll) {
			polls_add(s, d, ev->call->poll);
			break;
		}
		ensure(s, ev->name);
		agg_add(&s->calls[d][ev->name], ev->t1 - ev->t0);
		if (d == TPROF_DOM_NRT)
			nrtsum_event(s->nrt, ev);
		break;
	}
	case EV_DEVICE:
		devsum_event(s->dev, ev);
		break;
	case EV_MPIREQ:
	case EV_MESSAGE:
	case EV_COLLECTIVE:
		mpisum_event(s->mpi, ev);
		break;
	case EV_NCCL:
		ncclsum_event(s->nccl, ev);
		break;
	case EV_MARK:
		ensure(s, ev->name);
		s->marks[ev->name]++;
		break;
	case EV_COUNTER: {
		ensure(s, ev->name);
		struct counter_agg *c = &s->counters[ev->name];
		if (!c->n || ev->value < c->min)
			c->min = ev->value;
		if (!c->n || ev->value > c->max)
			c->max = ev->value;
		c->n++;
		c->sum += ev->value;
		c->last = ev->value;
		break;
	}
	case EV_STEP:
		if (s->nsteps == s->capsteps) {
			s->capsteps = s->capsteps ? s->capsteps * 2 : 64;
			s->steps = realloc(s->steps, s->capsteps * sizeof(*s->steps));
			if (!s->steps)
				abort();
		}
		s->steps[s->nsteps++] = (struct step_row){ ev->proc->index, ev->step, ev->t1 - ev->t0 };
		break;
	default:
		break;
	}
}

static int over_top(const struct summary *s, int *shown)
{
	if (s->top > 0 && *shown == s->top) {
		fprintf(s->f, "  ... more rows (--top 0 shows all)\n");
		(*shown)++;
	}
	return s->top > 0 && *shown > s->top;
}

static void mark_table(struct summary *s)
{
	int any = 0;
	for (uint32_t id = 0; id < s->cap; id++) {
		if (!s->marks[id] || over_top(s, &any))
			continue;
		if (!any++)
			fprintf(s->f, "\nMarks\n%10s  %s\n", "Count", "Name");
		char c[32];
		fprintf(s->f, "%10s  ", fmt_count(s->marks[id], c, 32));
		put_name(s->f, strings_get(id));
	}
}

static void counter_table(struct summary *s)
{
	int any = 0;
	for (uint32_t id = 0; id < s->cap; id++) {
		const struct counter_agg *c = &s->counters[id];
		if (!c->n || over_top(s, &any))
			continue;
		if (!any++)
			fprintf(s->f, "\nCounters\n%10s %14s %14s %14s %14s  %s\n", "Samples", "Min", "Max",
				"Mean", "Last", "Name");
		char n[32];
		fprintf(s->f, "%10s %14.6g %14.6g %14.6g %14.6g  ", fmt_count(c->n, n, 32), c->min, c->max,
			c->sum / (double)c->n, c->last);
		put_name(s->f, strings_get(id));
	}
}

static int by_dur(const void *a, const void *b)
{
	const struct step_row *x = a, *y = b;
	return x->dur < y->dur ? -1 : x->dur > y->dur;
}

static void step_table(struct summary *s)
{
	if (!s->nsteps)
		return;
	struct step_row *v = malloc(s->nsteps * sizeof(*v));
	memcpy(v, s->steps, s->nsteps * sizeof(*v));
	if (s->nsteps > 1)
		qsort(v, s->nsteps, sizeof(*v), by_dur);
	int64_t sum = 0;
	for (size_t i = 0; i < s->nsteps; i++)
		sum += v[i].dur;
	char a[32], b[32], c[32], d[32], e[32];
	fprintf(s->f, "\nSteps\n%10s %12s %12s %12s %12s %12s\n", "Steps", "Total", "Avg", "Median",
		"Min", "Max");
	fprintf(s->f, "%10zu %12s %12s %12s %12s %12s\n", s->nsteps, fmt_dur(sum, a, 32),
		fmt_dur(sum / (int64_t)s->nsteps, b, 32), fmt_dur(v[s->nsteps / 2].dur, c, 32),
		fmt_dur(v[0].dur, d, 32), fmt_dur(v[s->nsteps - 1].dur, e, 32));
	size_t shown = s->nsteps < 10 ? s->nsteps : 5;
	fprintf(s->f, "  slowest:");
	for (size_t i = 0; i < shown; i++) {
		const struct step_row *r = &v[s->nsteps - 1 - i];
		fprintf(s->f, "%s step %" PRIu64 " (process %d) %s", i ? "," : "", r->step, r->proc,
			fmt_dur(r->dur, a, 32));
	}
	fputc('\n', s->f);
	free(v);
}

/* Device spans moved by more than the timing's resolution to keep their stream in order and
 * start after their launch (devorder.c): a line when there were any. */
static void adjusted(FILE *f, const struct devorder_totals *d)
{
	char a[32], b[32];
	if (!d->after_prev && !d->to_launch)
		return;
	fprintf(f, "  adjusted:    device spans moved later by more than 1 us, durations kept:");
	if (d->after_prev)
		fprintf(f, "  [overlapping the span before on their stream: %s, largest %s]",
			fmt_count(d->after_prev, a, 32), fmt_dur(d->after_prev_max, b, 32));
	if (d->to_launch)
		fprintf(f, "  [starting before their launch: %s, largest %s]",
			fmt_count(d->to_launch, a, 32), fmt_dur(d->to_launch_max, b, 32));
	fputc('\n', f);
}

static void header(struct summary *s, const struct trace *tr, const struct window *w)
{
	FILE *f = s->f;
	char a[32], b[32], c[32];
	size_t threads = 0;
	struct drop_count drops = { { 0 } };
	for (size_t i = 0; i < tr->nprocs; i++) {
		const struct proc *p = tr->procs[i];
		for (size_t k = 1; k < p->nstreams; k++)
			threads += p->threads[k] && p->threads[k]->events;
		for (int r = 0; r < 8; r++)
			drops.count[r] += p->drops.count[r];
	}
	fprintf(f, "tprof summary of %s\n", s->dir);
	time_t secs = (time_t)(tr->start_ns / 1000000000);
	struct tm tm;
	char when[64] = "?";
	if (gmtime_r(&secs, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	int64_t span = tr->end_ns > tr->start_ns ? tr->end_ns - tr->start_ns : 0;
	fprintf(f, "  wall time:   %s (trace starts %s)\n", fmt_dur(span, a, 32), when);
	if (w->active)
		fprintf(f, "  window:      %s: +%s to +%s (%s)\n", w->desc, fmt_dur(w->start, a, 32),
			fmt_dur(w->end, b, 32), fmt_dur(w->end - w->start, c, 32));
	fprintf(f, "  processes:   %zu   threads: %zu   events: %s\n", tr->nprocs, threads,
		fmt_count(tr->events, a, 32));
	for (size_t i = 0; i < tr->nprocs; i++) {
		char label[512];
		const struct proc *p = tr->procs[i];
		fprintf(f, "    %d  %s%s\n", p->index, proc_label(p, label, sizeof(label)),
			p->ended ? "" : p->spool ? "  [no final flush (killed or crashed): read from its spool]"
					       : "  [no final flush (killed or crashed)]");
	}
	uint64_t dropped = 0;
	for (int r = 1; r < 8; r++)
		dropped += drops.count[r];
	fprintf(f, "  dropped:     %s", fmt_count(dropped, a, 32));
	for (int r = 1; r < 8; r++)
		if (drops.count[r])
			fprintf(f, "  [%s: %s]", tprof_drop_reason_name((unsigned)r), fmt_count(drops.count[r], b, 32));
	fputc('\n', f);
	uint64_t skipped = diag_records_lost + tr->unmatched_pops + tr->unknown_kinds;
	fprintf(f, "  skipped:     %s", fmt_count(skipped, a, 32));
	if (diag_records_lost || tr->chunks_bad)
		fprintf(f, "  [damaged input: %" PRIu64 " records in %" PRIu64 " chunks]", diag_records_lost,
			tr->chunks_bad);
	if (tr->unmatched_pops)
		fprintf(f, "  [range pops without a push: %" PRIu64 "]", tr->unmatched_pops);
	if (tr->unknown_kinds)
		fprintf(f, "  [records of unknown kind: %" PRIu64 "]", tr->unknown_kinds);
	fputc('\n', f);
	adjusted(f, &tr->devorder);
	if (s->unfinished)
		fprintf(f, "  unfinished:  %" PRIu64 " ranges or steps still open when their process ended\n",
			s->unfinished);
}

static const struct window *summary_window;

static int end(void *priv, const struct trace *tr)
{
	struct summary *s = priv;
	static const struct window none;
	header(s, tr, summary_window ? summary_window : &none);
	/* The time the numbers cover: the trace, or the part of it inside the window. */
	int64_t lo = 0, hi = tr->end_ns - tr->start_ns;
	if (summary_window && summary_window->active) {
		lo = summary_window->start > lo ? summary_window->start : lo;
		hi = summary_window->end < hi ? summary_window->end : hi;
	}
	int64_t covered = hi > lo ? hi - lo : 0;
	time_table_print(s->f, "Ranges", s->ranges, s->cap, s->top);
	step_table(s);
	devsum_end(s->dev, s->f, tr, covered, s->top);
	nrtsum_end(s->nrt, s->f, tr, covered, s->top);
	for (int d = 1; d < NDOMAINS; d++) {
		if (d == TPROF_DOM_MPI)
			mpisum_end(s->mpi, s->f, tr, lo, hi, s->top);
		else if (d == TPROF_DOM_NCCL)
			ncclsum_end(s->nccl, s->f, s->top);
		else if (s->calls[d])
			time_table_print(s->f, domain_title[d], s->calls[d], s->cap, s->top);
	}
	mark_table(s);
	counter_table(s);
	fflush(s->f);
	int rc = ferror(s->f) ? -1 : 0;
	free(s->ranges);
	for (int d = 0; d < NDOMAINS; d++)
		free(s->calls[d]);
	free(s->marks);
	free(s->counters);
	free(s->steps);
	free(s->dir);
	free(s);
	return rc;
}

static const struct output_ops summary_ops = { "summary", begin, event, end };

void summary_set_window(const struct window *w)
{
	summary_window = w;
}

struct output output_summary(FILE *f, const char *dir, int top)
{
	struct summary *s = calloc(1, sizeof(*s));
	if (!s)
		abort();
	s->f = f;
	s->dir = strdup(dir);
	s->top = top;
	s->dev = devsum_new();
	s->mpi = mpisum_new();
	s->nrt = nrtsum_new();
	s->nccl = ncclsum_new();
	return (struct output){ &summary_ops, s };
}
