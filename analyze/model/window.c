/* window.c — the time window every output is restricted to: given in microseconds from the
 * trace start (--start/--end), or as a range of training steps (--steps A:B), which needs
 * one quick pass over the step marks before the real one; the same pass gives --split
 * steps:N the start of every step.  Steps are the recorder's STEP records, and the step
 * slices of imported framework traces (ProfilerStep#N) of processes the profile did not
 * record — or of every imported process when the profile has no step of its own. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/import-records.h"
#include "../../common/xalloc.h"
#include "../read/import-image.h"
#include "../parallel/par.h"
#include "../util/grow.h"
#include "output.h"
#include "../util/progress.h"

/* Microseconds, possibly fractional, to nanoseconds; -1 when s is not a number >= 0. */
int window_parse_time(const char *s, int64_t *ns)
{
	char *end;
	errno = 0;
	double us = strtod(s, &end);
	if (errno || end == s || *end || !(us >= 0) || us > 9.2e12)
		return -1;
	*ns = (int64_t)llround(us * 1000.0);
	return 0;
}

static int parse_steps(const char *spec, uint64_t *a, uint64_t *b)
{
	char *end;
	errno = 0;
	if (spec[0] == '-')
		return -1;
	unsigned long long x = strtoull(spec, &end, 10);
	if (errno || end == spec)
		return -1;
	if (*end == 0) {
		*a = *b = x;
		return 0;
	}
	if (*end != ':' || end[1] == '-')
		return -1;
	const char *q = end + 1;
	unsigned long long y = strtoull(q, &end, 10);
	if (errno || end == q || *end || y < x)
		return -1;
	*a = x;
	*b = y;
	return 0;
}

struct step_mark {
	int64_t ns;
	uint64_t step;
	int64_t end;                    /* an imported step slice's end; INT64_MIN: the next's start */
	int only_ends;                  /* tprof_step_end: it ends the step before, none starts */
};

static int mark_cmp(const void *x, const void *y)
{
	const struct step_mark *a = x, *b = y;
	return a->ns < b->ns ? -1 : a->ns > b->ns;
}

/* Records of every thread stream, what the pass over them reads. */
static uint64_t thread_records(const struct trace *tr)
{
	uint64_t n = 0;
	for (size_t i = 0; i < tr->nprocs; i++)
		for (size_t id = 1; id < tr->procs[i]->nstreams; id++) {
			const struct stream *s = tr->procs[i]->streams[id];
			if (s && s->thread)
				n += stream_records(s);
		}
	return n;
}

static void add_mark(struct step_mark **v, size_t *n, size_t *cap, struct step_mark m)
{
	*v = util_grow(*v, cap, *n, sizeof(**v), 64);
	(*v)[(*n)++] = m;
}

/* Which processes' marks are read: the recorded ones' STEP records, and the imported step
 * slices of imported processes without a recorded home (IMPORTED_ALL: of every imported
 * process, when nothing else had steps). */
enum marks { RECORDED, IMPORTED_ALL };

static int imported_steps(const struct proc *p, enum marks which)
{
	return p->imp && (which == IMPORTED_ALL || !p->imp->home);
}

/* Every step mark of one process, in time order; *seen counts the records read, for the
 * progress line, whose next mark is *mark. */
static struct step_mark *collect(struct proc *p, enum marks which, size_t *n, uint64_t *seen,
				 uint64_t *mark)
{
	enum { OPEN_MAX = 16 };
	struct step_mark *v = NULL;
	size_t cap = 0;
	uint64_t k = *seen, m = *mark;
	int imported = imported_steps(p, which);
	*n = 0;
	if ((p->imp && !imported) || (!p->imp && which == IMPORTED_ALL))
		return NULL;
	for (size_t id = 1; id < p->nstreams; id++) {
		struct stream *s = p->streams[id];
		size_t open[OPEN_MAX];          /* an imported step open at each depth: its mark + 1 */
		size_t depth = 0;
		if (!s || !s->thread)
			continue;
		stream_rewind(s);
		while (stream_next(s)) {
			const struct tprof_rec *r = s->rec;
			if (++k >= m)
				m = progress_at(k);
			if (!imported) {
				if (r->kind == TPROF_K_STEP)
					add_mark(&v, n, &cap, (struct step_mark){
						timebase_global(&p->tb, r->t0, &s->tb_cursor), r->arg,
						INT64_MIN, (r->flags & TPROF_STEP_END) != 0 });
				continue;
			}
			if (r->kind == TPROF_K_IEND && depth) {
				depth--;
				if (depth < OPEN_MAX && open[depth])
					v[open[depth] - 1].end =
						timebase_global(&p->tb, r->t0, &s->tb_cursor);
				continue;
			}
			if (r->kind != TPROF_K_IBEGIN)
				continue;
			struct tprof_imp_head h = { 0 };
			if (r->ext >= 1)
				memcpy(&h, r + 1, sizeof(h));
			if (depth < OPEN_MAX)
				open[depth] = 0;
			if (h.flags & TPROF_IMP_STEP) {
				int64_t t = timebase_global(&p->tb, r->t0, &s->tb_cursor);
				add_mark(&v, n, &cap, (struct step_mark){ t, r->arg, t, 0 });
				if (depth < OPEN_MAX)
					open[depth] = *n;
			}
			depth++;
		}
	}
	if (*n > 1)
		qsort(v, *n, sizeof(*v), mark_cmp);
	*seen = k;
	*mark = m;
	return v;
}

/* What the steps of a trace (or of an analysis process's share of it) say of --steps A:B: the
 * least and greatest step seen (UINT64_MAX, 0: none), the start of A, the end of B. */
struct steps_seen {
	uint64_t min, max;
	int64_t lo, hi;
};

static void seen_add(struct steps_seen *to, const struct steps_seen *f)
{
	if (f->min < to->min)
		to->min = f->min;
	if (f->max > to->max)
		to->max = f->max;
	if (f->lo < to->lo)
		to->lo = f->lo;
	if (f->hi > to->hi)
		to->hi = f->hi;
}

/* The parallel analyzer: every analysis process's, combined (each gets the same). */
static void seen_share(struct steps_seen *s)
{
	if (par_size() < 2)
		return;
	size_t *len_of;
	struct steps_seen *all = par_allgather(s, sizeof(*s), &len_of);
	for (int k = 0; k < par_size(); k++)
		if (len_of[k] == sizeof(*s))
			seen_add(s, &all[k]);
	free(len_of);
	free(all);
}

/* Whether any analysis process has imported processes placed in recorded ones. */
static int any_imported_home(const struct trace *tr)
{
	int64_t has = 0;
	for (size_t i = 0; i < tr->nprocs && !has; i++)
		has = tr->procs[i]->imp && tr->procs[i]->imp->home;
	if (par_size() > 1)
		par_max_i64(&has, 1);
	return has != 0;
}

/* Whether the marks of imported processes with a home are read too: when nothing else had
 * steps and there are such processes. */
static int fall_back(const struct trace *tr, enum marks which, size_t found)
{
	return which == RECORDED && !found && any_imported_home(tr);
}

static int steps_window(struct trace *tr, const char *spec, struct window *w)
{
	uint64_t a, b;
	if (parse_steps(spec, &a, &b) < 0) {
		diag_error("--steps: '%s' is not A:B (two step numbers, A <= B) or a single step", spec);
		return -1;
	}
	struct steps_seen f = { UINT64_MAX, 0, INT64_MAX, INT64_MIN };
	uint64_t seen = 0;
	enum marks which = RECORDED;
	uint64_t mark = progress_begin("finding steps", thread_records(tr), PROGRESS_RECORDS);
again:
	for (size_t i = 0; i < tr->nprocs; i++) {
		struct proc *p = tr->procs[i];
		size_t n;
		struct step_mark *v = collect(p, which, &n, &seen, &mark);
		for (size_t k = 0; k < n; k++) {
			if (v[k].only_ends)
				continue;
			if (v[k].step < f.min)
				f.min = v[k].step;
			if (v[k].step > f.max)
				f.max = v[k].step;
			if (v[k].step == a && v[k].ns < f.lo)
				f.lo = v[k].ns;
			if (v[k].step == b) {
				int64_t end = v[k].end != INT64_MIN ? v[k].end
					      : k + 1 < n ? v[k + 1].ns : p->end_ns;
				if (end > f.hi)
					f.hi = end;
			}
		}
		free(v);
	}
	seen_share(&f);
	if (fall_back(tr, which, f.min != UINT64_MAX)) {
		which = IMPORTED_ALL;
		goto again;
	}
	progress_end();
	if (f.min == UINT64_MAX) {
		diag_error("--steps: the trace has no steps (record them with tprof_step, or import "
			   "a framework trace with ProfilerStep#N slices or --import-steps)");
		return -1;
	}
	if (f.lo == INT64_MAX || f.hi == INT64_MIN || f.hi < f.lo) {
		diag_error("--steps %s: not found (steps recorded: %" PRIu64 " to %" PRIu64 ")", spec,
			   f.min, f.max);
		return -1;
	}
	int64_t lo = f.lo, hi = f.hi;
	w->start = lo - tr->start_ns;
	w->end = hi - tr->start_ns;
	w->active = 1;
	snprintf(w->desc, sizeof(w->desc), "steps %" PRIu64 " to %" PRIu64, a, b);
	return 0;
}

int window_from_steps(struct trace *tr, const char *spec, struct window *w)
{
	/* under --parallel, every analysis process decides alike; the first says why */
	int muted = par_rank() != 0;
	diag_muted += muted;
	int rc = steps_window(tr, spec, w);
	diag_muted -= muted;
	return rc;
}

static int start_cmp(const void *x, const void *y)
{
	const struct step_start *a = x, *b = y;
	if (a->step != b->step)
		return a->step < b->step ? -1 : 1;
	return a->ns < b->ns ? -1 : a->ns > b->ns;
}

/* v sorted by (step, ns), one entry per step kept: the first (keep_last 0) or the last. */
static size_t unique_steps(struct step_start *v, size_t n, int keep_last)
{
	if (n > 1)
		qsort(v, n, sizeof(*v), start_cmp);
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (k && v[k - 1].step == v[i].step) {
			if (keep_last)
				v[k - 1] = v[i];
			continue;
		}
		v[k++] = v[i];
	}
	return k;
}

/* The parallel analyzer: every analysis process's step starts, the latest of each step kept
 * (each gets the same). */
static struct step_start *starts_share(struct step_start *v, size_t *n)
{
	if (par_size() < 2)
		return v;
	size_t *len_of;
	struct step_start *all = par_allgather(v, *n * sizeof(*v), &len_of);
	size_t total = 0;
	for (int k = 0; k < par_size(); k++)
		total += len_of[k] / sizeof(*v);
	free(len_of);
	free(v);
	*n = unique_steps(all, total, 1);
	return all;
}

struct step_start *window_step_starts(struct trace *tr, size_t *n)
{
	struct step_start *all = NULL;
	size_t nall = 0, cap = 0;
	uint64_t seen = 0;
	enum marks which = RECORDED;
	uint64_t mark = progress_begin("finding steps", thread_records(tr), PROGRESS_RECORDS);
again:
	for (size_t i = 0; i < tr->nprocs; i++) {
		size_t k;
		struct step_mark *v = collect(tr->procs[i], which, &k, &seen, &mark);
		struct step_start *s = xmallocarray(k ? k : 1, sizeof(*s));
		for (size_t j = 0; j < k; j++)
			s[j] = (struct step_start){ v[j].step, v[j].ns - tr->start_ns };
		free(v);
		k = unique_steps(s, k, 0);   /* the process's first start of each step */
		if (!k) {
			free(s);
			continue;
		}
		if (nall + k > cap) {
			cap = (nall + k) * 2;
			all = xreallocarray(all, cap, sizeof(*all));
		}
		memcpy(all + nall, s, k * sizeof(*s));
		nall += k;
		free(s);
	}
	nall = unique_steps(all, nall, 1);   /* the latest of the processes' starts */
	all = starts_share(all, &nall);
	if (fall_back(tr, which, nall)) {
		which = IMPORTED_ALL;
		goto again;
	}
	progress_end();
	*n = nall;
	return all;
}
