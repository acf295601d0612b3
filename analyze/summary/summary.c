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
#include "../parallel/par.h"
#include "../util/pack.h"
#include "procs.h"
#include "spread.h"
#include "steps.h"
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

/* Where an event is in the order the pipeline hands events over: its time, then its
 * process's number, then its stream (model/merge.c). */
struct order_key {
	int64_t t;
	int64_t proc;
	uint64_t stream;
};

struct counter_agg {
	uint64_t n;
	double min, max, sum, last;
	struct order_key last_at;      /* when the last sample was taken */
};

/* What the header counts of the trace (the parallel analyzer adds every process's). */
struct totals {
	uint64_t events, unmatched_pops, unknown_kinds, over_limit, chunks_bad;
	uint64_t cut_begin, cut_end, cut_steps, records_lost, unfinished;
	struct devorder_totals devorder;
	int64_t end_ns;               /* the trace's end: where the last process's data ends */
	char **unreadable;            /* files not read, or not to the end */
	size_t nunreadable;
	struct imp_fixes imp;         /* what the import changed or left out, when imported */
	int imported;
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
	struct steps steps;
	uint64_t handed[RT_MAX];     /* events handed to each runtime's part */
	struct totals tot;
	struct sum_procs procs;
	const struct summary_part *extra;   /* written after the header (summary_set_part) */
	void *extra_priv;
	int tables;                  /* the tables are written (not with a part alone) */
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

static int by_string(const void *a, const void *b)
{
	return strcmp(strings_get(*(const uint32_t *)a), strings_get(*(const uint32_t *)b));
}

static int key_before(const struct order_key *a, const struct order_key *b)
{
	if (a->t != b->t)
		return a->t < b->t;
	if (a->proc != b->proc)
		return a->proc < b->proc;
	return a->stream < b->stream;
}

/* n samples (min, max, sum), the latest of them `last`, taken at `at`. */
static void counter_add(struct counter_agg *c, uint64_t n, double min, double max, double sum,
			double last, struct order_key at)
{
	if (!n)
		return;
	if (!c->n || min < c->min)
		c->min = min;
	if (!c->n || max > c->max)
		c->max = max;
	if (!c->n || !key_before(&at, &c->last_at)) {
		c->last = last;
		c->last_at = at;
	}
	c->n += n;
	c->sum += sum;
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
		s->tot.unfinished++;
	if (ev->kind != EV_CALL && ev->kind <= EV_LAST)
		for (unsigned i = 0; i < s->nwant[ev->kind]; i++) {
			unsigned k = s->want[ev->kind][i];
			s->rts->all[k]->sum_event(s->part[k], ev);
			s->handed[k]++;
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
			s->handed[k]++;
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
		struct order_key at = { ev->t0, ev->proc->index,
					ev->thread ? thread_stream_id(ev->thread) : 0 };
		counter_add(c, 1, ev->value, ev->value, ev->value, ev->value, at);
		break;
	}
	case EV_STEP:
		steps_add(&s->steps, ev->proc->index, ev->step, ev->t1 - ev->t0);
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

/* The ids with a nonzero entry (in a table of s->cap, `size` bytes each, the first field
 * a uint64_t count), in order of their names. */
static uint32_t *by_name(const struct summary *s, const void *table, size_t size, size_t *n)
{
	uint32_t *ids = xmallocarray(s->cap + 1, sizeof(*ids));
	*n = 0;
	for (uint32_t id = 0; id < s->cap; id++) {
		uint64_t count;
		memcpy(&count, (const char *)table + (size_t)id * size, sizeof(count));
		if (count)
			ids[(*n)++] = id;
	}
	if (*n > 1)
		qsort(ids, *n, sizeof(*ids), by_string);
	return ids;
}

static void mark_table(struct summary *s)
{
	struct sumw *w = &s->w;
	size_t n, shown = 0;
	uint32_t *ids = by_name(s, s->marks, sizeof(*s->marks), &n);
	sw_obj(w, "marks");
	sw_if(w, n > 0);
	sw_text(w, "\nMarks\n%10s  %s\n", "Count", "Name");
	sw_endif(w);
	sw_arr(w, "rows");
	for (size_t i = 0; i < n && (s->top <= 0 || shown < (size_t)s->top); i++) {
		uint32_t id = ids[i];
		shown++;
		sw_obj(w, NULL);
		sw_count(w, "%10s  ", "count", s->marks[id]);
		sw_name(w, "name", strings_get(id));
		sw_close(w);
	}
	sw_close(w);
	more_rows(w, n - shown);
	sw_close(w);
	free(ids);
}

static void counter_table(struct summary *s)
{
	struct sumw *w = &s->w;
	size_t n, shown = 0;
	uint32_t *ids = by_name(s, s->counters, sizeof(*s->counters), &n);
	sw_obj(w, "counters");
	sw_if(w, n > 0);
	sw_text(w, "\nCounters\n%10s %14s %14s %14s %14s  %s\n", "Samples", "Min", "Max", "Mean",
		"Last", "Name");
	sw_endif(w);
	sw_arr(w, "rows");
	for (size_t i = 0; i < n && (s->top <= 0 || shown < (size_t)s->top); i++) {
		uint32_t id = ids[i];
		const struct counter_agg *c = &s->counters[id];
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
	free(ids);
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
static void proc_drops(struct sumw *w, const struct sum_proc *p)
{
	uint64_t total = drop_total(&p->drops);
	sw_obj(w, "dropped");
	sw_if(w, total != 0);
	sw_count(w, "      lost %s records:", NULL, total);
	drop_cells(w, &p->drops);
	sw_text(w, "\n");
	sw_endif(w);
	sw_if(w, 0);            /* the rest in JSON only; -v says it in text */
	sw_arr(w, "threads");
	for (size_t k = 0; k < p->nlosses; k++) {
		const struct sum_loss *l = &p->losses[k];
		sw_obj(w, NULL);
		if (l->has_stream)
			sw_u64(w, NULL, "stream", l->stream);
		else
			sw_null(w, NULL, "stream", NULL);
		sw_i64(w, NULL, "tid", l->tid);
		sw_str(w, NULL, "name", l->name);
		drop_cells(w, &l->d);
		sw_close(w);
	}
	sw_close(w);
	sw_obj(w, "process_stream");
	drop_cells(w, &p->stream0);
	sw_close(w);
	sw_obj(w, "unattributed");
	drop_cells(w, &p->unattributed);
	sw_close(w);
	sw_endif(w);
	sw_close(w);
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

/* The files imported into p: "  [with a.json, b.json imported]", and JSON "imported". */
static void imported_into(struct sumw *w, const struct sum_proc *p)
{
	sw_arr(w, "imported");
	for (size_t k = 0; k < p->nimported; k++) {
		sw_text(w, k ? ", " : "  [with ");
		sw_obj(w, NULL);
		sw_str(w, "%s", "file", p->imported[k]);
		sw_close(w);
	}
	sw_close(w);
	sw_text(w, p->nimported ? " imported]" : "");
}

static int by_value(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

static int by_text(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* A process the header lists even when it lists only some (--ranks): one that did not end
 * with a final flush, lost records, or is not an ordinary recorded process. */
static int remarkable(const struct sum_proc *p)
{
	return !(p->flags & SP_ENDED) || (p->flags & (SP_MADE | SP_SYSTEM | SP_IMPORTED)) ||
	       drop_total(&p->drops) || p->nimported;
}

/* With more processes than --ranks lists: one line for them all (their ranks as runs, their
 * hosts), under which only the remarkable ones are listed, as many as --ranks allows. */
static void processes_line(struct sumw *w, const struct sum_procs *ps, size_t listed_n,
			   size_t odd)
{
	int64_t *ranks = xmallocarray(ps->n + 1, sizeof(*ranks));
	const char **hosts = xmallocarray(ps->n + 1, sizeof(*hosts));
	size_t nr = 0, nh = 0;
	for (size_t i = 0; i < ps->n; i++) {
		const struct sum_proc *p = &ps->v[i];
		if (!(p->flags & SP_LISTED))
			continue;
		if (p->rank >= 0)
			ranks[nr++] = p->rank;
		hosts[nh++] = p->host;
	}
	qsort(ranks, nr, sizeof(*ranks), by_value);
	qsort(hosts, nh, sizeof(*hosts), by_text);
	size_t distinct = 0;
	for (size_t i = 0; i < nh; i++)
		distinct += !i || strcmp(hosts[i], hosts[i - 1]);
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

static void process_list(struct sumw *w, const struct sum_procs *ps)
{
	size_t n = 0, shown = 0;
	for (size_t i = 0; i < ps->n; i++)
		n += (ps->v[i].flags & SP_LISTED) != 0;
	int all = !w->rank_rows || n <= w->rank_rows;
	if (!all) {
		size_t odd = 0;
		for (size_t i = 0; i < ps->n; i++)
			odd += (ps->v[i].flags & SP_LISTED) && remarkable(&ps->v[i]);
		processes_line(w, ps, n, odd);
	}
	sw_arr(w, "process_list");
	for (size_t i = 0; i < ps->n; i++) {
		const struct sum_proc *p = &ps->v[i];
		unsigned f = p->flags;
		if (!(f & SP_LISTED))
			continue;
		int show = all || (shown < w->rank_rows && remarkable(p));
		shown += show;
		sw_if(w, show);
		sw_obj(w, NULL);
		sw_i64(w, "    %" PRId64 "  ", "index", p->index);
		sw_str(w, "%s", "label", p->label);
		if (p->rank >= 0)
			sw_i64(w, NULL, "rank", p->rank);
		else
			sw_null(w, NULL, "rank", NULL);
		sw_bool(w, "final_flush", !!(f & SP_ENDED));
		sw_bool(w, "from_spool", !!(f & SP_FROM_SPOOL));
		sw_bool(w, "live", !!(f & SP_LIVE));
		sw_bool(w, "system", !!(f & SP_SYSTEM));
		sw_bool(w, "sampled_only", !!(f & SP_MADE));
		sw_i64(w, NULL, "pid", p->pid);
		sw_count(w, NULL, "records", p->records);
		imported_into(w, p);
		sw_text(w, "%s\n", f & SP_MADE ? "  [system profile only: it recorded no calls of "
						 "its own]"
				   : f & SP_ENDED ? ""
				   : f & SP_LIVE ? "  [still running (live): read as far as it was written]"
				   : f & SP_FROM_SPOOL ? "  [no final flush (_exit, killed or crashed): "
							 "read from its spool]"
						       : "  [no final flush (_exit, killed or crashed)]");
		proc_drops(w, p);
		sw_close(w);
		sw_endif(w);
	}
	sw_close(w);
}

/* Files that could not be read, or not to their end (read/diag.c): how many, and which (the
 * first few in the text, all in JSON). */
static void unreadable(struct sumw *w, const struct totals *t)
{
	enum { SHOWN = 4 };
	size_t n = t->nunreadable;
	const char *const *v = (const char *const *)t->unreadable;
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

static void header(struct summary *s, const struct trace *tr, const struct window *win)
{
	struct sumw *w = &s->w;
	const struct sum_procs *ps = &s->procs;
	uint64_t threads = 0, procs = 0;
	struct drop_count drops = { { 0 } };
	for (size_t i = 0; i < ps->n; i++) {
		const struct sum_proc *p = &ps->v[i];
		procs += (p->flags & SP_LISTED) != 0;
		threads += p->threads;
		for (int r = 0; r < 8; r++)
			drops.count[r] += p->drops.count[r];
	}
	sw_str(w, "tprof summary of %s\n", "dir", s->dir);
	sw_obj(w, "header");
	job_lines(w, tr);
	time_t secs = (time_t)(tr->start_ns / 1000000000);
	struct tm tm;
	char when[64] = "? (nothing recorded)";
	if (s->tot.end_ns >= tr->start_ns && gmtime_r(&secs, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	int64_t span = s->tot.end_ns > tr->start_ns ? s->tot.end_ns - tr->start_ns : 0;
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
	sw_count(w, "   events: %s\n", "events", s->tot.events);
	process_list(w, ps);
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
	const struct imp_fixes *imp = s->tot.imported ? &s->tot.imp : NULL;
	uint64_t imp_skipped = imp ? imp_fixes_class(imp, IMP_SKIP) : 0;
	uint64_t skipped = s->tot.records_lost + s->tot.unmatched_pops + s->tot.unknown_kinds +
			   s->tot.over_limit + imp_skipped;
	sw_obj(w, "skipped");
	sw_count(w, "  skipped:     %s", "total", skipped);
	sw_if(w, s->tot.records_lost || s->tot.chunks_bad);
	sw_u64(w, "  [damaged input: %" PRIu64 " records", "damaged_records", s->tot.records_lost);
	sw_u64(w, " in %" PRIu64 " chunks]", "damaged_chunks", s->tot.chunks_bad);
	sw_endif(w);
	sw_if(w, s->tot.unmatched_pops != 0);
	sw_u64(w, "  [range pops without a push: %" PRIu64 "]", "unmatched_pops",
	       s->tot.unmatched_pops);
	sw_endif(w);
	sw_if(w, s->tot.unknown_kinds != 0);
	sw_u64(w, "  [records of unknown kind: %" PRIu64 "]", "unknown_kinds", s->tot.unknown_kinds);
	sw_endif(w);
	sw_if(w, s->tot.over_limit != 0);
	sw_u64(w, "  [past what is held open: %" PRIu64 "]", "over_limits", s->tot.over_limit);
	sw_endif(w);
	sw_if(w, imp_skipped != 0);
	sw_u64(w, "  [imported events: %" PRIu64 "]", "imported", imp_skipped);
	sw_endif(w);
	sw_text(w, "\n");
	sw_close(w);
	uint64_t cut = s->tot.cut_begin + s->tot.cut_end + s->tot.cut_steps;
	sw_obj(w, "cut");
	sw_if(w, cut != 0);
	sw_count(w, "  cut:         %s ranges and steps shown cut where records were dropped", "total",
		 cut);
	sw_if(w, s->tot.cut_begin != 0);
	sw_count(w, "  [begin dropped: %s]", "begin_dropped", s->tot.cut_begin);
	sw_endif(w);
	sw_if(w, s->tot.cut_end != 0);
	sw_count(w, "  [end dropped: %s]", "end_dropped", s->tot.cut_end);
	sw_endif(w);
	sw_if(w, s->tot.cut_steps != 0);
	sw_count(w, "  [steps ended where the next one's start was dropped: %s]", "steps",
		 s->tot.cut_steps);
	sw_endif(w);
	sw_text(w, "\n");
	sw_endif(w);
	sw_close(w);
	import_fixes(w, imp);
	unreadable(w, &s->tot);
	adjusted(w, &s->tot.devorder);
	sw_if(w, s->tot.unfinished != 0);
	sw_u64(w, "  unfinished:  %" PRIu64 " ranges or steps still open when their process "
	       "ended\n", "unfinished", s->tot.unfinished);
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

/* ---- the parallel analyzer: every analysis process's counts, merged by the first ------- */

static void totals_of(struct totals *t, const struct trace *tr)
{
	t->events = tr->events;
	t->unmatched_pops = tr->unmatched_pops;
	t->unknown_kinds = tr->unknown_kinds;
	t->over_limit = tr->over_limit;
	t->chunks_bad = tr->chunks_bad;
	t->cut_begin = tr->cut_begin;
	t->cut_end = tr->cut_end;
	t->cut_steps = tr->cut_steps;
	t->records_lost = diag_records_lost;
	t->devorder = tr->devorder;
	t->end_ns = tr->end_ns;
	t->imported = tr->imp_fixes != NULL;
	if (tr->imp_fixes)
		t->imp = *tr->imp_fixes;
	size_t n;
	const char *const *v = diag_unreadable_list(&n);
	t->unreadable = xmallocarray(n + 1, sizeof(*t->unreadable));
	for (size_t i = 0; i < n; i++)
		t->unreadable[i] = xstrdup(v[i]);
	t->nunreadable = n;
}

#define TOTALS_U64 10   /* the counts of struct totals, from events to unfinished */

static uint64_t *totals_count(struct totals *t, int i)
{
	uint64_t *v[TOTALS_U64] = { &t->events, &t->unmatched_pops, &t->unknown_kinds,
				    &t->over_limit, &t->chunks_bad, &t->cut_begin, &t->cut_end,
				    &t->cut_steps, &t->records_lost, &t->unfinished };
	return v[i];
}

static void totals_pack(struct totals *t, struct pack *b)
{
	for (int i = 0; i < TOTALS_U64; i++)
		pack_u64(b, *totals_count(t, i));
	pack_u64(b, t->devorder.to_launch);
	pack_u64(b, t->devorder.after_prev);
	pack_i64(b, t->devorder.to_launch_max);
	pack_i64(b, t->devorder.after_prev_max);
	pack_i64(b, t->end_ns);
	pack_u64(b, t->nunreadable);
	for (size_t i = 0; i < t->nunreadable; i++)
		pack_str(b, t->unreadable[i]);
	pack_u64(b, (uint64_t)t->imported);
	for (int i = 0; i < IMP_FIX_N; i++) {
		pack_u64(b, t->imp.n[i]);
		pack_u64(b, t->imp.offset[i]);
		pack_name(b, t->imp.file[i]);
	}
}

static void totals_merge(struct totals *t, struct unpack *u)
{
	for (int i = 0; i < TOTALS_U64; i++)
		*totals_count(t, i) += unpack_u64(u);
	struct devorder_totals *d = &t->devorder;
	d->to_launch += unpack_u64(u);
	d->after_prev += unpack_u64(u);
	int64_t m = unpack_i64(u);
	d->to_launch_max = m > d->to_launch_max ? m : d->to_launch_max;
	m = unpack_i64(u);
	d->after_prev_max = m > d->after_prev_max ? m : d->after_prev_max;
	m = unpack_i64(u);
	t->end_ns = m > t->end_ns ? m : t->end_ns;
	size_t n = unpack_count(u, sizeof(uint64_t));
	t->unreadable = xreallocarray(t->unreadable, t->nunreadable + n + 1, sizeof(*t->unreadable));
	for (size_t i = 0; i < n; i++)
		t->unreadable[t->nunreadable++] = unpack_strdup(u);
	struct imp_fixes x = { 0 };
	int imported = unpack_u64(u) != 0;
	for (int i = 0; i < IMP_FIX_N; i++) {
		x.n[i] = unpack_u64(u);
		x.offset[i] = unpack_u64(u);
		x.file[i] = unpack_name(u);
	}
	if (imported) {
		if (!t->imported)
			memset(&t->imp, 0, sizeof(t->imp));
		imp_fixes_add(&t->imp, &x);
		t->imported = 1;
	}
}

static int by_path(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void totals_free(struct totals *t)
{
	for (size_t i = 0; i < t->nunreadable; i++)
		free(t->unreadable[i]);
	free(t->unreadable);
}

/* What this analysis process counted, but the steps' median and its runtimes' parts. */
static void core_pack(struct summary *s, struct pack *b)
{
	totals_pack(&s->tot, b);
	sum_procs_pack(&s->procs, b);
	steps_pack(&s->steps, b);
	aggs_pack(b, s->ranges, s->cap);
	for (int d = 0; d < NDOMAINS; d++)
		aggs_pack(b, s->calls[d], s->cap);
	size_t n;
	uint32_t *ids = by_name(s, s->marks, sizeof(*s->marks), &n);
	pack_u64(b, n);
	for (size_t i = 0; i < n; i++) {
		pack_name(b, ids[i]);
		pack_u64(b, s->marks[ids[i]]);
	}
	free(ids);
	ids = by_name(s, s->counters, sizeof(*s->counters), &n);
	pack_u64(b, n);
	for (size_t i = 0; i < n; i++) {
		const struct counter_agg *c = &s->counters[ids[i]];
		pack_name(b, ids[i]);
		pack_u64(b, c->n);
		pack_f64(b, c->min);
		pack_f64(b, c->max);
		pack_f64(b, c->sum);
		pack_f64(b, c->last);
		pack_i64(b, c->last_at.t);
		pack_i64(b, c->last_at.proc);
		pack_u64(b, c->last_at.stream);
	}
	free(ids);
}

static void core_merge(struct summary *s, struct unpack *u)
{
	totals_merge(&s->tot, u);
	sum_procs_unpack(&s->procs, u);
	steps_merge(&s->steps, u);
	struct agg a;
	for (size_t i = 0, n = aggs_unpack_count(u); i < n; i++) {
		uint32_t id = agg_unpack(u, &a);
		ensure(s, id);
		agg_merge(&s->ranges[id], &a);
	}
	for (int d = 0; d < NDOMAINS; d++)
		for (size_t i = 0, n = aggs_unpack_count(u); i < n; i++) {
			uint32_t id = agg_unpack(u, &a);
			ensure(s, id);
			if (!s->calls[d])
				s->calls[d] = xcalloc(s->cap, sizeof(*s->calls[d]));
			agg_merge(&s->calls[d][id], &a);
		}
	for (size_t i = 0, n = unpack_count(u, 2 * sizeof(uint64_t)); i < n; i++) {
		uint32_t id = unpack_name(u);
		ensure(s, id);
		s->marks[id] += unpack_u64(u);
	}
	for (size_t i = 0, n = unpack_count(u, 9 * sizeof(uint64_t)); i < n; i++) {
		uint32_t id = unpack_name(u);
		ensure(s, id);
		uint64_t count = unpack_u64(u);
		double min = unpack_f64(u), max = unpack_f64(u), sum = unpack_f64(u);
		double last = unpack_f64(u);
		struct order_key at;
		at.t = unpack_i64(u);
		at.proc = unpack_i64(u);
		at.stream = unpack_u64(u);
		counter_add(&s->counters[id], count, min, max, sum, last, at);
	}
}

/* The runtimes whose events some analysis process saw and that cannot merge their part:
 * their names (comma-separated), or NULL.  Collective. */
static char *unmergeable(struct summary *s)
{
	uint64_t handed[RT_MAX];
	for (unsigned k = 0; k < s->rts->n; k++) {
		const struct runtime *rt = s->rts->all[k];
		handed[k] = rt->sum_pack && rt->sum_merge ? 0 : s->handed[k];
	}
	par_sum_u64(handed, s->rts->n);
	char *names = NULL;
	for (unsigned k = 0; k < s->rts->n; k++) {
		const struct runtime *rt = s->rts->all[k];
		if (!handed[k])
			continue;
		const char *what = rt->name;
		char *more = xasprintf("%s%s%s", names ? names : "", names ? ", " : "", what);
		free(names);
		names = more;
	}
	return names;
}

/* The first analysis process gets every other's counts, added into its own; the others
 * write nothing.  1 on the first (or alone), 0 on the others, -2 when the profile cannot be
 * summarized in parallel yet, -1 when a pack could not be read (both said once). */
static int gather(struct summary *s, const struct trace *tr)
{
	steps_settle(&s->steps);       /* collective, also alone */
	if (par_size() < 2)
		return 1;
	char *names = unmergeable(s);
	if (names) {
		if (par_rank() == 0)
			fprintf(stderr, "tprof-analyze: --parallel: the summary of %s is not "
					"computed in parallel yet; run tprof-analyze as one process "
					"(without mpirun) for it\n", names);
		free(names);
		return -2;
	}
	struct pack b = { 0 };
	struct sum_span span = { tr, 0, 0, 0, &s->procs };
	core_pack(s, &b);
	for (unsigned k = 0; k < s->rts->n; k++)
		if (s->part[k] && s->rts->all[k]->sum_pack)
			s->rts->all[k]->sum_pack(s->part[k], &span, &b);
	size_t *len_of;
	char *all = par_gather(b.v, b.n, 0, &len_of);
	pack_free(&b);
	if (par_rank() != 0)
		return 0;
	size_t off = len_of[0];
	for (int a = 1; a < par_size(); a++) {
		struct unpack u = unpack_of(all + off, len_of[a]);
		off += len_of[a];
		core_merge(s, &u);
		for (unsigned k = 0; k < s->rts->n; k++)
			if (s->part[k] && s->rts->all[k]->sum_merge)
				s->rts->all[k]->sum_merge(s->part[k], &span, &u);
		if (u.short_read || u.at != u.end) {
			diag_error("--parallel: analysis process %d's summary could not be read", a);
			free(all);
			free(len_of);
			return -1;
		}
	}
	free(all);
	free(len_of);
	sum_procs_sort(&s->procs);
	return 1;
}

/* The parts of an analysis process that writes nothing: written where no one reads them,
 * which frees them. */
static void parts_discard(struct summary *s, const struct trace *tr)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return;         /* out of memory: said by the allocation that fails next */
	struct sum_span span = { tr, 0, 0, 0, &s->procs };
	for (unsigned k = 0; k < s->rts->n; k++) {
		if (!s->part[k] || !s->rts->all[k]->sum_end)
			continue;
		struct sumw quiet;
		sw_init(&quiet, f, SUMMARY_JSON);
		s->rts->all[k]->sum_end(s->part[k], &quiet, &span, s->top);
		s->part[k] = NULL;
	}
	fclose(f);
	free(text);
}

static void summary_free(struct summary *s)
{
	free(s->ranges);
	for (int d = 0; d < NDOMAINS; d++)
		free(s->calls[d]);
	free(s->marks);
	free(s->counters);
	steps_free(&s->steps);
	totals_free(&s->tot);
	sum_procs_free(&s->procs);
	free(s->dir);
	free(s);
}

/* The document closed and flushed, s freed: 0, or -1 when writing failed. */
static int written(struct summary *s)
{
	sw_close(&s->w);
	sw_finish(&s->w);
	fflush(s->f);
	int rc = ferror(s->f) ? -1 : 0;
	summary_free(s);
	return rc;
}

static int end(void *priv, const struct trace *tr)
{
	struct summary *s = priv;
	struct sumw *w = &s->w;
	static const struct window none;
	totals_of(&s->tot, tr);
	sum_procs_of(&s->procs, tr);
	int writes = gather(s, tr);
	if (writes <= 0) {
		parts_discard(s, tr);
		summary_free(s);
		return writes;
	}
	if (s->tot.nunreadable > 1)
		qsort(s->tot.unreadable, s->tot.nunreadable, sizeof(*s->tot.unreadable), by_path);
	sw_obj(w, NULL);
	sw_str(w, NULL, "format", "tprof-summary");
	sw_i64(w, NULL, "version", SUMMARY_JSON_VERSION);
	header(s, tr, summary_window ? summary_window : &none);
	if (s->extra) {
		s->extra->end(s->extra_priv, w, s->dir, s->top);
		s->extra = NULL;
	}
	if (!s->tables) {
		parts_discard(s, tr);
		return written(s);
	}
	/* The time the numbers cover: the trace, or the part of it inside the window (none
	 * when nothing was recorded, only lost). */
	int64_t lo = 0, hi = s->tot.end_ns > tr->start_ns ? s->tot.end_ns - tr->start_ns : 0;
	if (summary_window && summary_window->active) {
		lo = summary_window->start > lo ? summary_window->start : lo;
		hi = summary_window->end < hi ? summary_window->end : hi;
	}
	int64_t covered = hi > lo ? hi - lo : 0;
	time_table_print(w, "ranges", "Ranges", s->ranges, s->cap, s->top);
	steps_table(w, &s->steps);
	struct sum_span span = { tr, lo, hi, covered, &s->procs };
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
	return written(s);
}

static const struct output_ops summary_ops = { "summary", begin, on_event, end };

static size_t summary_rank_rows = SPREAD_ROWS_DEFAULT;
static const struct summary_part *summary_part;
static void *summary_part_priv;
static int summary_part_alone;

void summary_set_part(const struct summary_part *part, void *priv, int alone)
{
	summary_part = part;
	summary_part_priv = priv;
	summary_part_alone = alone;
}

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
	s->tables = !(summary_part && summary_part_alone);
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
	if (summary_part) {
		s->extra = summary_part;
		s->extra_priv = summary_part_priv;
	}
	return (struct output){ &summary_ops, s };
}
