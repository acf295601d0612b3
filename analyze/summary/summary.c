/* summary.c — the --summary tables: for each kind of event, one row per name sorted by total
 * time (Total %, Time, Calls, Avg, Min, Max, Name), and a header saying what the numbers
 * cover: wall time, processes, threads, and what was dropped or skipped and why.  The
 * runtimes of the registry (model/runtime.h) add parts of their own: device work, MPI, NCCL,
 * the Neuron runtime (runtimes/<name>/summary.c), after the steps or in place of their
 * domain's API-call table. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "summary.h"
#include "../../common/domains.h"
#include "../../common/capture.h"
#include "../../common/job.h"
#include "../../common/xalloc.h"
#include "../import/fixes.h"
#include "../read/import-image.h"
#include "../model/runtime.h"
#include "../util/grow.h"
#include "spread.h"
#include "table.h"

#define NDOMAINS TPROF_NDOMAINS
/* The API-call tables by domain (common/domains.h): their titles and JSON keys (NULL: the
 * runtime writes a part of its own instead).  The first is for the calls of a domain that
 * no runtime here knows (a newer recorder's, one of a runtime added from outside), shown
 * only when there are some. */
#define TITLE(name, value, key, title, ...) [TPROF_DOM_##name] = title,
static const char *const domain_title[NDOMAINS] = { "API calls", TPROF_DOMAINS(TITLE) };
#undef TITLE
#define JSON_KEY(name, value, key, title, json, ...) [TPROF_DOM_##name] = json,
static const char *const domain_key[NDOMAINS] = { "api_calls", TPROF_DOMAINS(JSON_KEY) };
#undef JSON_KEY

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
	struct sumw w;
	char *dir;
	int top;
	struct agg *ranges;          /* by string id */
	struct agg *calls[NDOMAINS]; /* API calls, by domain and name id */
	const struct runtime_set *rts;
	void *part[RT_MAX];          /* each runtime's summary part, by index in rts */
	unsigned char want[EV_LAST + 1][RT_MAX];   /* per event kind but calls, who is handed it */
	unsigned nwant[EV_LAST + 1];
	int by_domain[256];          /* the index of the runtime of calls of each domain, or -1 */
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
	s->ranges = xreallocarray(s->ranges, n, sizeof(*s->ranges));
	s->marks = xreallocarray(s->marks, n, sizeof(*s->marks));
	s->counters = xreallocarray(s->counters, n, sizeof(*s->counters));
	for (int d = 0; d < NDOMAINS; d++) {
		if (!s->calls[d])
			continue;
		s->calls[d] = xreallocarray(s->calls[d], n, sizeof(*s->calls[d]));
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

static void on_event(void *priv, const struct event *ev)
{
	struct summary *s = priv;
	if (ev->flags & EVF_UNFINISHED)
		s->unfinished++;
	if (ev->flags & EVF_CLIPPED)
		s->clipped++;
	if (ev->kind != EV_CALL && ev->kind <= EV_LAST)
		for (unsigned i = 0; i < s->nwant[ev->kind]; i++) {
			unsigned k = s->want[ev->kind][i];
			s->rts->all[k]->sum_event(s->part[k], ev);
		}
	switch (ev->kind) {
	case EV_RANGE:
	case EV_ASYNC:
		if (ev->kind == EV_RANGE && ev->imp)
			break;   /* an imported slice: its runtime's "Framework ops" */
		ensure(s, ev->name);
		agg_add(&s->ranges[ev->name], ev->t1 - ev->t0);
		break;
	case EV_CALL: {
		int k = s->by_domain[ev->call->domain];
		if (k >= 0) {
			const struct runtime *rt = s->rts->all[k];
			rt->sum_event(s->part[k], ev);
			if (rt->sum_own_calls)
				break;
		}
		int d = ev->call->domain < NDOMAINS ? ev->call->domain : 0;
		if (!s->calls[d])
			s->calls[d] = xcalloc(s->cap, sizeof(*s->calls[d]));
		if (ev->call->poll) {
			polls_add(s, d, ev->call->poll);
			break;
		}
		ensure(s, ev->name);
		agg_add(&s->calls[d][ev->name], ev->t1 - ev->t0);
		break;
	}
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
		s->steps = util_grow(s->steps, &s->capsteps, s->nsteps, sizeof(*s->steps), 64);
		s->steps[s->nsteps++] = (struct step_row){ ev->proc->index, ev->step, ev->t1 - ev->t0 };
		break;
	default:
		break;
	}
}

/* The marks and counters tables cut by --top say "more rows" without counting them. */
static void more_rows(struct sumw *w, size_t more)
{
	sw_u64(w, NULL, "rows_omitted", more);
	sw_if(w, more > 0);
	sw_text(w, "  ... more rows (--top 0 shows all)\n");
	sw_endif(w);
}

static void mark_table(struct summary *s)
{
	struct sumw *w = &s->w;
	size_t n = 0, shown = 0;
	for (uint32_t id = 0; id < s->cap; id++)
		n += s->marks[id] != 0;
	sw_obj(w, "marks");
	sw_if(w, n > 0);
	sw_text(w, "\nMarks\n%10s  %s\n", "Count", "Name");
	sw_endif(w);
	sw_arr(w, "rows");
	for (uint32_t id = 0; id < s->cap && (s->top <= 0 || shown < (size_t)s->top); id++) {
		if (!s->marks[id])
			continue;
		shown++;
		sw_obj(w, NULL);
		sw_count(w, "%10s  ", "count", s->marks[id]);
		sw_name(w, "name", strings_get(id));
		sw_close(w);
	}
	sw_close(w);
	more_rows(w, n - shown);
	sw_close(w);
}

static void counter_table(struct summary *s)
{
	struct sumw *w = &s->w;
	size_t n = 0, shown = 0;
	for (uint32_t id = 0; id < s->cap; id++)
		n += s->counters[id].n != 0;
	sw_obj(w, "counters");
	sw_if(w, n > 0);
	sw_text(w, "\nCounters\n%10s %14s %14s %14s %14s  %s\n", "Samples", "Min", "Max", "Mean",
		"Last", "Name");
	sw_endif(w);
	sw_arr(w, "rows");
	for (uint32_t id = 0; id < s->cap && (s->top <= 0 || shown < (size_t)s->top); id++) {
		const struct counter_agg *c = &s->counters[id];
		if (!c->n)
			continue;
		shown++;
		sw_obj(w, NULL);
		sw_count(w, "%10s ", "samples", c->n);
		sw_value(w, "%14s ", "min", c->min);
		sw_value(w, "%14s ", "max", c->max);
		sw_value(w, "%14s ", "mean", c->sum / (double)c->n);
		sw_value(w, "%14s  ", "last", c->last);
		sw_name(w, "name", strings_get(id));
		sw_close(w);
	}
	sw_close(w);
	more_rows(w, n - shown);
	sw_close(w);
}

/* Shortest first; among steps of one length the later process, then the later step, first,
 * so that the slowest (listed from the end) name the first process and step among equals
 * whatever order they ended in. */
static int by_dur(const void *a, const void *b)
{
	const struct step_row *x = a, *y = b;
	if (x->dur != y->dur)
		return x->dur < y->dur ? -1 : 1;
	if (x->proc != y->proc)
		return x->proc > y->proc ? -1 : 1;
	return x->step > y->step ? -1 : x->step < y->step;
}

static void step_table(struct summary *s)
{
	struct sumw *w = &s->w;
	if (!s->nsteps) {
		sw_null(w, NULL, "steps", NULL);
		return;
	}
	struct step_row *v = xmallocarray(s->nsteps, sizeof(*v));
	memcpy(v, s->steps, s->nsteps * sizeof(*v));
	if (s->nsteps > 1)
		qsort(v, s->nsteps, sizeof(*v), by_dur);
	int64_t sum = 0;
	for (size_t i = 0; i < s->nsteps; i++)
		sum = sat_add(sum, v[i].dur);
	sw_obj(w, "steps");
	sw_text(w, "\nSteps\n%10s %12s %12s %12s %12s %12s\n", "Steps", "Total", "Avg", "Median",
		"Min", "Max");
	sw_count(w, "%10s ", "count", s->nsteps);
	sw_dur(w, "%12s ", "total_ns", sum);
	sw_dur(w, "%12s ", "avg_ns", sum / (int64_t)s->nsteps);
	sw_dur(w, "%12s ", "median_ns", v[s->nsteps / 2].dur);
	sw_dur(w, "%12s ", "min_ns", v[0].dur);
	sw_dur(w, "%12s\n", "max_ns", v[s->nsteps - 1].dur);
	size_t shown = s->nsteps < 10 ? s->nsteps : 5;
	sw_text(w, "  slowest:");
	sw_arr(w, "slowest");
	for (size_t i = 0; i < shown; i++) {
		const struct step_row *r = &v[s->nsteps - 1 - i];
		sw_obj(w, NULL);
		sw_text(w, "%s", i ? "," : "");
		sw_u64(w, " step %" PRIu64, "step", r->step);
		sw_i64(w, " (process %" PRId64 ")", "process", r->proc);
		sw_dur(w, " %s", "time_ns", r->dur);
		sw_close(w);
	}
	sw_close(w);
	sw_text(w, "\n");
	sw_close(w);
	free(v);
}

/* Device spans moved by more than the timing's resolution to keep their stream in order and
 * start after their launch (devorder.c): a line when there were any. */
static void adjusted(struct sumw *w, const struct devorder_totals *d)
{
	sw_obj(w, "adjusted");
	sw_if(w, d->after_prev || d->to_launch);
	sw_text(w, "  adjusted:    device spans moved later by more than 1 us, durations kept:");
	sw_if(w, d->after_prev != 0);
	sw_count(w, "  [overlapping the span before on their stream: %s", "after_previous",
		 d->after_prev);
	sw_dur(w, ", largest %s]", "after_previous_max_ns", d->after_prev_max);
	sw_endif(w);
	sw_if(w, d->to_launch != 0);
	sw_count(w, "  [starting before their launch: %s", "before_launch", d->to_launch);
	sw_dur(w, ", largest %s]", "before_launch_max_ns", d->to_launch_max);
	sw_endif(w);
	sw_text(w, "\n");
	sw_endif(w);
	sw_close(w);
}

/* JSON keys of the drop reasons (enum tprof_drop_reason); the total counts every reason. */
static const char *const drop_key[8] = { NULL, "max_events", "no_buffer", "stopped",
					 "device_untimed", "samples_lost", "reentered", "no_files" };

static uint64_t drop_total(const struct drop_count *d)
{
	uint64_t n = 0;
	for (int r = 1; r < 8; r++)
		n += d->count[r];
	return n;
}

/* What d counts, by reason: in JSON its total and a key per reason; in text "[reason: n]". */
static void drop_cells(struct sumw *w, const struct drop_count *d)
{
	sw_count(w, NULL, "total", drop_total(d));
	for (int r = 1; r < 8; r++) {
		sw_if(w, d->count[r] != 0);
		sw_text(w, " [%s: ", tprof_drop_reason_name((unsigned)r));
		sw_count(w, "%s]", drop_key[r], d->count[r]);
		sw_endif(w);
	}
}

/* A process's losses (JSON: its "dropped" object, with each thread's; text: one bracket). */
static void proc_drops(struct sumw *w, const struct proc *p)
{
	uint64_t total = drop_total(drops_of(p->drops));
	sw_obj(w, "dropped");
	sw_if(w, total != 0);
	sw_count(w, "      lost %s records:", NULL, total);
	drop_cells(w, drops_of(p->drops));
	sw_text(w, "\n");
	sw_endif(w);
	sw_if(w, 0);            /* the rest in JSON only; -v says it in text */
	sw_arr(w, "threads");
	for (size_t k = 1; k < p->nstreams; k++) {
		const struct thread *t = p->threads[k];
		if (!t || !drop_total(drops_of(t->drops)))
			continue;
		sw_obj(w, NULL);
		sw_u64(w, NULL, "stream", thread_stream_id(t));
		sw_i64(w, NULL, "tid", t->tid);
		sw_str(w, NULL, "name", t->name ? strings_get(t->name) : "");
		drop_cells(w, drops_of(t->drops));
		sw_close(w);
	}
	for (size_t k = 0; k < p->nunreg; k++) {
		sw_obj(w, NULL);
		sw_null(w, NULL, "stream", NULL);
		sw_i64(w, NULL, "tid", p->unreg[k].tid);
		sw_str(w, NULL, "name", "");
		drop_cells(w, &p->unreg[k].drops);
		sw_close(w);
	}
	sw_close(w);
	sw_obj(w, "process_stream");
	drop_cells(w, drops_of(p->stream0));
	sw_close(w);
	sw_obj(w, "unattributed");
	drop_cells(w, drops_of(p->unattributed));
	sw_close(w);
	sw_endif(w);
	sw_close(w);
}

/* Thread records read from a process's streams (what was kept; GAP records are not). */
static uint64_t proc_records(const struct proc *p)
{
	uint64_t n = 0;
	for (size_t k = 1; k < p->nstreams; k++)
		if (p->threads[k])
			n += p->threads[k]->events;
	return n;
}

/* Process images that left no data: their files could not be created. */
static void lost_list(struct sumw *w, const struct trace *tr)
{
	sw_arr(w, "lost_processes");
	for (size_t i = 0; i < tr->nlost; i++) {
		const struct lost_proc *l = &tr->lost[i];
		const char *host = l->host ? strings_get(l->host) : "?";
		sw_obj(w, NULL);
		sw_i64(w, "    -  pid %" PRId64, "pid", l->pid);
		sw_str(w, " (%s", "host", host);
		if (l->ppid >= 0)
			sw_i64(w, ", child of pid %" PRId64 ")", "ppid", l->ppid);
		else
			sw_null(w, NULL, "ppid", NULL);
		sw_text(w, "%s", l->ppid >= 0 ? "" : ")");
		sw_bool(w, "known", l->known);
		sw_str(w, NULL, "marker", l->marker ? l->marker : "");
		if (l->known)
			sw_count(w, "  [no files of its own: %s records lost]", "records_lost",
				 drop_total(&l->drops));
		else
			sw_null(w, "  [no files of its own: %s records lost, it did not exit]",
				"records_lost", "?");
		sw_text(w, "\n");
		sw_if(w, 0);    /* the rest in JSON only; -v says it in text */
		sw_obj(w, "dropped");
		drop_cells(w, &l->drops);
		sw_arr(w, "threads");
		for (size_t k = 0; k < l->nthreads; k++) {
			sw_obj(w, NULL);
			sw_i64(w, NULL, "tid", l->threads[k].tid);
			drop_cells(w, &l->threads[k].drops);
			sw_close(w);
		}
		sw_close(w);
		sw_close(w);
		sw_endif(w);
		sw_close(w);
	}
	sw_close(w);
}

/* A process made for a followed one that recorded no image is listed when it had events. */
static int listed(const struct proc *p)
{
	return (!p->made || p->events) && !(p->imp && p->imp->home);
}

/* The files imported into p (a file's process of p's pid is folded into it: its events are
 * p's): "  [with a.json, b.json imported]", and JSON "imported".  f: the folded imports by
 * the number of their homes, which *k walks along with the list. */
static void imported_into(struct sumw *w, const struct proc *p, const struct proc *const *f,
			  size_t nf, size_t *k)
{
	sw_arr(w, "imported");
	size_t shown = 0;
	for (; *k < nf && f[*k]->imp->home->index <= p->index; ++*k) {
		const struct proc *q = f[*k];
		if (q->imp->home != p)
			continue;
		const char *src = q->imp->source ? strings_get(q->imp->source) : "?";
		const char *base = strrchr(src, '/');
		sw_text(w, shown++ ? ", " : "  [with ");
		sw_obj(w, NULL);
		sw_str(w, "%s", "file", base ? base + 1 : src);
		sw_close(w);
	}
	sw_close(w);
	sw_text(w, shown ? " imported]" : "");
}

static int by_home(const void *a, const void *b)
{
	const struct proc *x = *(const struct proc *const *)a, *y = *(const struct proc *const *)b;
	if (x->imp->home->index != y->imp->home->index)
		return x->imp->home->index < y->imp->home->index ? -1 : 1;
	return x->index - y->index;
}

static int by_value(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

/* A process the header lists even when it lists only some (--ranks): one that did not end
 * with a final flush, lost records, or is not an ordinary recorded process. */
static int remarkable(const struct proc *p, const struct proc *const *f, size_t nf)
{
	if (!p->ended || p->made || p->sys || p->imp || drop_total(drops_of(p->drops)))
		return 1;
	for (size_t k = 0; k < nf; k++)
		if (f[k]->imp->home == p)
			return 1;
	return 0;
}

/* With more processes than --ranks lists: one line for them all (their ranks as runs, their
 * hosts), under which only the remarkable ones are listed, as many as --ranks allows. */
static void processes_line(struct sumw *w, const struct trace *tr, size_t listed_n, size_t odd)
{
	int64_t *ranks = xmallocarray(tr->nprocs + 1, sizeof(*ranks));
	int64_t *hosts = xmallocarray(tr->nprocs + 1, sizeof(*hosts));
	size_t nr = 0, nh = 0;
	for (size_t i = 0; i < tr->nprocs; i++) {
		const struct proc *p = tr->procs[i];
		if (!listed(p))
			continue;
		if (p->rank >= 0)
			ranks[nr++] = p->rank;
		hosts[nh++] = p->host;
	}
	qsort(ranks, nr, sizeof(*ranks), by_value);
	qsort(hosts, nh, sizeof(*hosts), by_value);
	size_t distinct = 0;
	for (size_t i = 0; i < nh; i++)
		distinct += !i || hosts[i] != hosts[i - 1];
	char runs[160], c[32];
	sw_text(w, "    %s processes", fmt_count(listed_n, c, sizeof(c)));
	if (nr)
		sw_text(w, ", ranks %s", fmt_runs(ranks, nr, runs, sizeof(runs)));
	if (nr && nr < listed_n)
		sw_text(w, " and %s without a rank", fmt_count(listed_n - nr, c, sizeof(c)));
	sw_text(w, ", on %s host%s (--ranks all lists each)\n", fmt_count(distinct, c, sizeof(c)),
		distinct == 1 ? "" : "s");
	if (odd)
		sw_text(w, "    %s without a final flush, with records lost or not recorded as usual%s:\n",
			fmt_count(odd, c, sizeof(c)), odd > w->rank_rows ? ", the first ones" : "");
	free(ranks);
	free(hosts);
}

static void process_list(struct sumw *w, const struct trace *tr)
{
	const struct proc **f = xmallocarray(tr->nprocs + 1, sizeof(*f));
	size_t nf = 0, k = 0, n = 0, shown = 0;
	for (size_t i = 0; i < tr->nprocs; i++) {
		if (tr->procs[i]->imp && tr->procs[i]->imp->home)
			f[nf++] = tr->procs[i];
		n += listed(tr->procs[i]);
	}
	qsort(f, nf, sizeof(*f), by_home);
	int all = !w->rank_rows || n <= w->rank_rows;
	if (!all) {
		size_t odd = 0;
		for (size_t i = 0; i < tr->nprocs; i++)
			odd += listed(tr->procs[i]) && remarkable(tr->procs[i], f, nf);
		processes_line(w, tr, n, odd);
	}
	sw_arr(w, "process_list");
	for (size_t i = 0; i < tr->nprocs; i++) {
		char label[512];
		const struct proc *p = tr->procs[i];
		if (!listed(p))
			continue;
		int show = all || (shown < w->rank_rows && remarkable(p, f, nf));
		shown += show;
		sw_if(w, show);
		sw_obj(w, NULL);
		sw_i64(w, "    %" PRId64 "  ", "index", p->index);
		sw_str(w, "%s", "label", proc_label(p, label, sizeof(label)));
		if (p->rank >= 0)
			sw_i64(w, NULL, "rank", p->rank);
		else
			sw_null(w, NULL, "rank", NULL);
		int live = !p->ended && p->writer == WRITER_LIVE;
		sw_bool(w, "final_flush", p->ended);
		sw_bool(w, "from_spool", !p->ended && p->from_spool);
		sw_bool(w, "live", live);
		sw_bool(w, "system", p->sys != NULL);
		sw_bool(w, "sampled_only", p->made);
		sw_i64(w, NULL, "pid", p->pid);
		sw_count(w, NULL, "records", proc_records(p));
		imported_into(w, p, f, nf, &k);
		sw_text(w, "%s\n", p->made ? "  [system profile only: it recorded no calls of "
						"its own]"
				   : p->ended  ? ""
				   : live ? "  [still running (live): read as far as it was written]"
				   : p->from_spool ? "  [no final flush (_exit, killed or crashed): "
						"read from its spool]"
					      : "  [no final flush (_exit, killed or crashed)]");
		proc_drops(w, p);
		sw_close(w);
		sw_endif(w);
	}
	sw_close(w);
	free(f);
}

/* Files that could not be read, or not to their end (read/diag.c): how many, and which (the
 * first few in the text, all in JSON). */
static void unreadable(struct sumw *w)
{
	enum { SHOWN = 4 };
	size_t n;
	const char *const *v = diag_unreadable_list(&n);
	sw_obj(w, "unreadable");
	sw_if(w, n != 0);
	sw_u64(w, "  unreadable:  %" PRIu64, "files", n);
	sw_text(w, " file%s not read, or not to the end:", n == 1 ? "" : "s");
	sw_arr(w, "list");
	for (size_t i = 0; i < n; i++) {
		sw_obj(w, NULL);
		sw_if(w, i < SHOWN);
		sw_str(w, " %s", "path", v[i]);
		sw_endif(w);
		sw_close(w);
	}
	sw_close(w);
	sw_if(w, n > SHOWN);
	sw_text(w, " and %zu more", n - SHOWN);
	sw_endif(w);
	sw_text(w, "\n");
	sw_endif(w);
	sw_close(w);
}

static void window_line(struct sumw *w, const struct window *win)
{
	if (!win->active) {
		sw_null(w, NULL, "window", NULL);
		return;
	}
	sw_obj(w, "window");
	sw_str(w, "  window:      %s: ", "spec", win->desc);
	sw_dur(w, "+%s", "start_ns", win->start);
	sw_dur(w, " to +%s", "end_ns", win->end);
	sw_dur(w, " (%s)\n", "length_ns", win->end - win->start);
	sw_close(w);
}

/* The reasons in a capture_sum's bits, comma-separated. */
static const char *capture_whys(char *buf, size_t len, uint32_t bits, const char *none)
{
	size_t at = 0;
	snprintf(buf, len, "%s", none);
	for (unsigned why = 1; why < 32 && at < len; why++)
		if (bits & (1u << why))
			at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? ", " : "",
					       tprof_capture_why_name(why));
	return buf;
}

/* How much of the run the capture windows left recorded, and why (read/capture.c). */
static void capture_line(struct sumw *w, const struct trace *tr, int64_t span)
{
	const struct capture_sum *c = &tr->capture;
	char opened[256], closed[256];
	if (!c->any) {
		sw_null(w, NULL, "capture", NULL);
		return;
	}
	const char *o = capture_whys(opened, sizeof(opened), c->opened_by, "the start");
	const char *cl = capture_whys(closed, sizeof(closed), c->closed_by, "the end");
	sw_obj(w, "capture");
	sw_if(w, c->windows == 0);
	sw_text(w, "  recorded:    nothing: paused from the start to the end (closed by %s)\n", cl);
	sw_endif(w);
	sw_if(w, c->windows != 0);
	sw_dur(w, "  recorded:    %s", "recorded_ns", c->recorded_ns);
	sw_dur(w, " of the %s", NULL, span);
	sw_u64(w, " in %" PRIu64, "windows", (uint64_t)c->windows);
	sw_text(w, " capture window%s", c->windows == 1 ? "" : "s");
	sw_str(w, " (opened by %s", "opened_by", o);
	sw_str(w, "; closed by %s)\n", "closed_by", cl);
	sw_endif(w);
	sw_close(w);
}

/* The jobs analyzed (jobs.c): id, start, processes, command; and how many the directory
 * holds beside them. */
static void job_lines(struct sumw *w, const struct trace *tr)
{
	size_t shown = 0;
	sw_arr(w, "jobs");
	for (size_t i = 0; i < tr->njobs; i++) {
		const struct job *j = &tr->jobs[i];
		char id[TPROF_JOB_HEX + 1], when[64] = "?";
		if (!j->selected)
			continue;
		shown++;
		time_t secs = (time_t)(j->start_ns / 1000000000);
		struct tm tm;
		if (j->start_ns > 0 && j->start_ns < INT64_MAX && gmtime_r(&secs, &tm))
			strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
		tprof_job_format(j->id, id);
		sw_obj(w, NULL);
		if (j->id)
			sw_str(w, "  job:         %s", "id", id);
		else
			sw_null(w, "  job:         %s", "id", "unknown (no job identity)");
		sw_i64(w, NULL, "start_unix_ns", j->start_ns < INT64_MAX ? j->start_ns : 0);
		sw_str(w, " (started %s", "start_utc", when);
		sw_u64(w, ", %" PRIu64 " process", "processes", j->procs);
		sw_text(w, "%s", j->procs == 1 ? "" : "es");
		if (j->command)
			sw_str(w, ": %s)\n", "command", j->command);
		else
			sw_null(w, ")\n", "command", NULL);
		sw_close(w);
	}
	sw_close(w);
	sw_u64(w, NULL, "jobs_in_dir", tr->njobs);
	sw_if(w, shown < tr->njobs);
	sw_u64(w, "  other jobs:  %" PRIu64 " in the directory, not analyzed (see --job)\n",
	       "jobs_not_analyzed", tr->njobs - shown);
	sw_endif(w);
}

/* What the import changed or left out: a line per cause met, under the total (nothing in the
 * text when nothing was imported, or nothing changed). */
static void import_fixes(struct sumw *w, const struct imp_fixes *x)
{
	if (!x) {
		sw_null(w, NULL, "import", NULL);
		return;
	}
	uint64_t total = imp_fixes_total(x);
	sw_obj(w, "import");
	sw_if(w, total != 0);
	sw_count(w, "  import:      %s events or values changed or left out (-v says where)\n",
		 "total", total);
	sw_u64(w, NULL, "skipped", imp_fixes_class(x, IMP_SKIP));
	sw_u64(w, NULL, "left_out", imp_fixes_class(x, IMP_PART));
	sw_u64(w, NULL, "changed", imp_fixes_class(x, IMP_CHANGE));
	sw_arr(w, "causes");
	for (int i = 0; i < IMP_FIX_N; i++) {
		if (!x->n[i])
			continue;
		sw_obj(w, NULL);
		sw_str(w, NULL, "cause", imp_fix_key((enum imp_fix)i));
		sw_count(w, "    %s ", "count", x->n[i]);
		sw_str(w, NULL, "file", x->file[i] ? strings_get(x->file[i]) : "?");
		sw_u64(w, NULL, "first_offset", x->offset[i]);
		sw_name(w, "text", imp_fix_text((enum imp_fix)i));
		sw_close(w);
	}
	sw_close(w);
	sw_endif(w);
	sw_close(w);
}

/* Whether p is folded into a process with a thread of that tid (the same thread, whose
 * imported events are drawn beside its own). */
static int home_has(const struct proc *p, int32_t tid)
{
	const struct proc *h = p->imp ? p->imp->home : NULL;
	for (size_t k = 1; h && k < h->nstreams; k++)
		if (h->threads[k] && h->threads[k]->tid == tid)
			return 1;
	return 0;
}

static void header(struct summary *s, const struct trace *tr, const struct window *win)
{
	struct sumw *w = &s->w;
	size_t threads = 0, procs = 0;
	struct drop_count drops = { { 0 } };
	for (size_t i = 0; i < tr->nprocs; i++) {
		const struct proc *p = tr->procs[i];
		procs += listed(p);
		/* a system image's streams are no threads; the threads its records belong to are
		 * counted where they were seen */
		for (size_t k = 1; k < p->nstreams; k++)
			threads += p->threads[k] && !p->sys && (p->threads[k]->events ||
								 p->threads[k]->seen) &&
				   !home_has(p, p->threads[k]->tid);
		for (int r = 0; r < 8; r++)
			drops.count[r] += drops_of(p->drops)->count[r];
	}
	sw_str(w, "tprof summary of %s\n", "dir", s->dir);
	sw_obj(w, "header");
	job_lines(w, tr);
	time_t secs = (time_t)(tr->start_ns / 1000000000);
	struct tm tm;
	char when[64] = "? (nothing recorded)";
	if (tr->end_ns >= tr->start_ns && gmtime_r(&secs, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	int64_t span = tr->end_ns > tr->start_ns ? tr->end_ns - tr->start_ns : 0;
	sw_dur(w, "  wall time:   %s", "wall_time_ns", span);
	sw_i64(w, NULL, "trace_start_unix_ns", tr->start_ns);
	sw_bool(w, "dated", !tr->undated);
	sw_if(w, !tr->undated);
	sw_str(w, " (trace starts %s)\n", "trace_start_utc", when);
	sw_endif(w);
	sw_if(w, tr->undated);
	sw_text(w, " (no date: its input gives times from its own start only)\n");
	sw_endif(w);
	window_line(w, win);
	capture_line(w, tr, span);
	sw_u64(w, "  processes:   %" PRIu64, "processes", procs);
	sw_u64(w, "   threads: %" PRIu64, "threads", threads);
	sw_count(w, "   events: %s\n", "events", tr->events);
	process_list(w, tr);
	lost_list(w, tr);
	for (size_t i = 0; i < tr->nlost; i++)
		for (int r = 0; r < 8; r++)
			drops.count[r] += tr->lost[i].drops.count[r];
	uint64_t dropped = 0;
	for (int r = 1; r < 8; r++)
		dropped += drops.count[r];
	sw_obj(w, "dropped");
	sw_count(w, "  dropped:     %s", "total", dropped);
	for (int r = 1; r < 8; r++) {
		sw_if(w, drops.count[r] != 0);
		sw_text(w, "  [%s: ", tprof_drop_reason_name((unsigned)r));
		sw_count(w, "%s]", drop_key[r], drops.count[r]);
		sw_endif(w);
	}
	sw_text(w, "\n");
	sw_close(w);
	uint64_t imp_skipped = tr->imp_fixes ? imp_fixes_class(tr->imp_fixes, IMP_SKIP) : 0;
	uint64_t skipped = diag_records_lost + tr->unmatched_pops + tr->unknown_kinds +
			   tr->over_limit + imp_skipped;
	sw_obj(w, "skipped");
	sw_count(w, "  skipped:     %s", "total", skipped);
	sw_if(w, diag_records_lost || tr->chunks_bad);
	sw_u64(w, "  [damaged input: %" PRIu64 " records", "damaged_records", diag_records_lost);
	sw_u64(w, " in %" PRIu64 " chunks]", "damaged_chunks", tr->chunks_bad);
	sw_endif(w);
	sw_if(w, tr->unmatched_pops != 0);
	sw_u64(w, "  [range pops without a push: %" PRIu64 "]", "unmatched_pops",
	       tr->unmatched_pops);
	sw_endif(w);
	sw_if(w, tr->unknown_kinds != 0);
	sw_u64(w, "  [records of unknown kind: %" PRIu64 "]", "unknown_kinds", tr->unknown_kinds);
	sw_endif(w);
	sw_if(w, tr->over_limit != 0);
	sw_u64(w, "  [past what is held open: %" PRIu64 "]", "over_limits", tr->over_limit);
	sw_endif(w);
	sw_if(w, imp_skipped != 0);
	sw_u64(w, "  [imported events: %" PRIu64 "]", "imported", imp_skipped);
	sw_endif(w);
	sw_text(w, "\n");
	sw_close(w);
	uint64_t cut = tr->cut_begin + tr->cut_end + tr->cut_steps;
	sw_obj(w, "cut");
	sw_if(w, cut != 0);
	sw_count(w, "  cut:         %s ranges and steps shown cut where records were dropped", "total",
		 cut);
	sw_if(w, tr->cut_begin != 0);
	sw_count(w, "  [begin dropped: %s]", "begin_dropped", tr->cut_begin);
	sw_endif(w);
	sw_if(w, tr->cut_end != 0);
	sw_count(w, "  [end dropped: %s]", "end_dropped", tr->cut_end);
	sw_endif(w);
	sw_if(w, tr->cut_steps != 0);
	sw_count(w, "  [steps ended where the next one's start was dropped: %s]", "steps",
		 tr->cut_steps);
	sw_endif(w);
	sw_text(w, "\n");
	sw_endif(w);
	sw_close(w);
	import_fixes(w, tr->imp_fixes);
	unreadable(w);
	adjusted(w, &tr->devorder);
	sw_if(w, s->unfinished != 0);
	sw_u64(w, "  unfinished:  %" PRIu64 " ranges or steps still open when their process "
	       "ended\n", "unfinished", s->unfinished);
	sw_endif(w);
	sw_close(w);
}

static const struct window *summary_window;
static const struct runtime_set *summary_runtimes;

/* Writes runtime k's tables, once. */
static void part_end(struct summary *s, unsigned k, const struct sum_span *span)
{
	const struct runtime *rt = s->rts->all[k];
	if (!s->part[k] || !rt->sum_end)
		return;
	rt->sum_end(s->part[k], &s->w, span, s->top);
	s->part[k] = NULL;
}

static int end(void *priv, const struct trace *tr)
{
	struct summary *s = priv;
	struct sumw *w = &s->w;
	static const struct window none;
	sw_obj(w, NULL);
	sw_str(w, NULL, "format", "tprof-summary");
	sw_i64(w, NULL, "version", SUMMARY_JSON_VERSION);
	header(s, tr, summary_window ? summary_window : &none);
	/* The time the numbers cover: the trace, or the part of it inside the window (none
	 * when nothing was recorded, only lost). */
	int64_t lo = 0, hi = tr->end_ns > tr->start_ns ? tr->end_ns - tr->start_ns : 0;
	if (summary_window && summary_window->active) {
		lo = summary_window->start > lo ? summary_window->start : lo;
		hi = summary_window->end < hi ? summary_window->end : hi;
	}
	int64_t covered = hi > lo ? hi - lo : 0;
	time_table_print(w, "ranges", "Ranges", s->ranges, s->cap, s->top);
	step_table(s);
	struct sum_span span = { tr, lo, hi, covered };
	for (unsigned k = 0; k < s->rts->n; k++)
		if (s->rts->all[k]->sum_at == SUM_AFTER_STEPS)
			part_end(s, k, &span);
	for (int d = 1; d < NDOMAINS; d++) {
		int k = s->by_domain[d];
		if (k >= 0 && s->rts->all[k]->sum_at == SUM_AT_DOMAIN)
			part_end(s, (unsigned)k, &span);
		else
			time_table_print(w, domain_key[d], domain_title[d], s->calls[d], s->cap,
					 s->top);
	}
	for (unsigned k = 0; k < s->rts->n; k++)   /* those of a domain that has no table */
		part_end(s, k, &span);
	if (s->calls[0])
		time_table_print(w, domain_key[0], domain_title[0], s->calls[0], s->cap, s->top);
	mark_table(s);
	counter_table(s);
	sw_close(w);
	sw_finish(w);
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

static const struct output_ops summary_ops = { "summary", begin, on_event, end };

static size_t summary_rank_rows = SPREAD_ROWS_DEFAULT;

void summary_set_rank_rows(size_t n)
{
	summary_rank_rows = n;
}

void summary_set_window(const struct window *w)
{
	summary_window = w;
}

void summary_set_runtimes(const struct runtime_set *rts)
{
	summary_runtimes = rts;
}

struct output output_summary(FILE *f, const char *dir, int top)
{
	return output_summary_as(f, dir, top, SUMMARY_TEXT);
}

struct output output_summary_as(FILE *f, const char *dir, int top, enum summary_format format)
{
	struct summary *s = xcalloc(1, sizeof(*s));
	s->f = f;
	sw_init(&s->w, f, format);
	s->w.rank_rows = summary_rank_rows;
	s->dir = xstrdup(dir);
	s->top = top;
	static const struct runtime_set none;
	s->rts = summary_runtimes ? summary_runtimes : &none;
	for (int d = 0; d < 256; d++)
		s->by_domain[d] = -1;
	for (unsigned k = 0; k < s->rts->n; k++) {
		const struct runtime *rt = s->rts->all[k];
		if (!rt->sum_new)
			continue;
		s->part[k] = rt->sum_new();
		if (rt->domain >= 0 && rt->domain < 256 && (rt->sum_events & RT_KIND(EV_CALL)))
			s->by_domain[rt->domain] = (int)k;
		for (unsigned e = 0; e <= EV_LAST; e++)
			if (e != EV_CALL && (rt->sum_events & RT_KIND(e)))
				s->want[e][s->nwant[e]++] = (unsigned char)k;
	}
	return (struct output){ &summary_ops, s };
}
