/* summary/steps.c — the summary's Steps table (steps.h). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../parallel/par.h"
#include "../util/grow.h"
#include "../util/pack.h"
#include "../util/satarith.h"
#include "steps.h"

void steps_add(struct steps *s, int proc, uint64_t step, int64_t dur)
{
	s->v = util_grow(s->v, &s->cap, s->n, sizeof(*s->v), 64);
	s->v[s->n++] = (struct step_row){ proc, step, dur };
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

/* Steps of this analysis process no longer than d (v sorted by length). */
static uint64_t at_most(const struct steps *s, int64_t d)
{
	size_t lo = 0, hi = s->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->v[mid].dur <= d)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The length of the step at place count / 2 in order of length over every analysis process:
 * the least d that count / 2 + 1 steps are no longer than, found by halving [min, max]. */
static int64_t median_of_all(const struct steps *s, int64_t lo, int64_t hi)
{
	uint64_t want = s->count / 2 + 1;
	while (lo < hi) {
		int64_t mid = lo + (int64_t)(((uint64_t)hi - (uint64_t)lo) / 2);
		uint64_t n = at_most(s, mid);
		par_sum_u64(&n, 1);
		if (n >= want)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

void steps_settle(struct steps *s)
{
	if (s->n > 1)
		qsort(s->v, s->n, sizeof(*s->v), by_dur);
	s->sum = 0;
	for (size_t i = 0; i < s->n; i++)
		s->sum = sat_add(s->sum, s->v[i].dur);
	s->min = s->n ? s->v[0].dur : INT64_MAX;
	s->max = s->n ? s->v[s->n - 1].dur : INT64_MIN;
	s->nslow = s->n < STEPS_KEEP ? s->n : STEPS_KEEP;
	if (s->nslow)
		memcpy(s->slow, s->v + s->n - s->nslow, s->nslow * sizeof(*s->slow));
	uint64_t count = s->n;
	int64_t lo = s->min, hi = s->max;
	par_sum_u64(&count, 1);
	par_min_i64(&lo, 1);
	par_max_i64(&hi, 1);
	s->count = count;
	s->median = count ? median_of_all(s, lo, hi) : 0;
}

void steps_pack(const struct steps *s, struct pack *b)
{
	pack_i64(b, s->sum);
	pack_i64(b, s->min);
	pack_i64(b, s->max);
	pack_u64(b, s->nslow);
	for (size_t i = 0; i < s->nslow; i++) {
		pack_i64(b, s->slow[i].proc);
		pack_u64(b, s->slow[i].step);
		pack_i64(b, s->slow[i].dur);
	}
}

void steps_merge(struct steps *s, struct unpack *u)
{
	s->sum = sat_add(s->sum, unpack_i64(u));
	int64_t min = unpack_i64(u), max = unpack_i64(u);
	s->min = min < s->min ? min : s->min;
	s->max = max > s->max ? max : s->max;
	size_t n = unpack_count(u, 3 * sizeof(uint64_t));
	for (size_t i = 0; i < n; i++) {
		struct step_row r;
		r.proc = (int)unpack_i64(u);
		r.step = unpack_u64(u);
		r.dur = unpack_i64(u);
		if (s->nslow == STEPS_KEEP * 2) {   /* keep the slowest */
			qsort(s->slow, s->nslow, sizeof(*s->slow), by_dur);
			memmove(s->slow, s->slow + STEPS_KEEP, STEPS_KEEP * sizeof(*s->slow));
			s->nslow = STEPS_KEEP;
		}
		s->slow[s->nslow++] = r;
	}
	if (s->nslow > 1)
		qsort(s->slow, s->nslow, sizeof(*s->slow), by_dur);
}

void steps_table(struct sumw *w, const struct steps *s)
{
	if (!s->count) {
		sw_null(w, NULL, "steps", NULL);
		return;
	}
	sw_obj(w, "steps");
	sw_text(w, "\nSteps\n%10s %12s %12s %12s %12s %12s\n", "Steps", "Total", "Avg", "Median",
		"Min", "Max");
	sw_count(w, "%10s ", "count", s->count);
	sw_dur(w, "%12s ", "total_ns", s->sum);
	sw_dur(w, "%12s ", "avg_ns", s->sum / (int64_t)s->count);
	sw_dur(w, "%12s ", "median_ns", s->median);
	sw_dur(w, "%12s ", "min_ns", s->min);
	sw_dur(w, "%12s\n", "max_ns", s->max);
	size_t shown = s->count < 10 ? (size_t)s->count : STEPS_SLOWEST;
	if (shown > s->nslow)
		shown = s->nslow;
	sw_text(w, "  slowest:");
	sw_arr(w, "slowest");
	for (size_t i = 0; i < shown; i++) {
		const struct step_row *r = &s->slow[s->nslow - 1 - i];
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
}

void steps_free(struct steps *s)
{
	free(s->v);
	*s = (struct steps){ 0 };
}
