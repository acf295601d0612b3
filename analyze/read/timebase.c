/* timebase.c — from recorded ticks to one time axis.  Within a process, the CLOCK samples
 * (ticks, monotonic ns) define a piecewise-linear map; processes of one host share the
 * monotonic clock; hosts are put side by side through CLOCK_REALTIME, and MPI ranks are
 * then refined by the offsets measured against rank 0 (clocksync.c), a correction applied
 * here to every time. */
#include <stdlib.h>
#include <string.h>

#include "../../common/events.h"
#include "../../common/xalloc.h"
#include "../util/grow.h"
#include "timebase.h"

void timebase_add(struct timebase *tb, uint64_t ticks, int64_t mono, int64_t real)
{
	/* from two: an imported image has two */
	tb->pts = util_grow(tb->pts, &tb->cap, tb->n, sizeof(*tb->pts), 2);
	tb->pts[tb->n++] = (struct clock_point){ ticks, mono, real };
}

static int point_cmp(const void *a, const void *b)
{
	const struct clock_point *x = a, *y = b;
	return x->ticks < y->ticks ? -1 : x->ticks > y->ticks;
}

static double mean_slope(const struct timebase *tb)
{
	if (tb->identity)
		return 1.0;
	if (tb->n < 2)
		return 0;
	const struct clock_point *a = &tb->pts[0], *b = &tb->pts[tb->n - 1];
	return (double)sat_sub(b->mono, a->mono) / (double)(b->ticks - a->ticks);
}

/* Returns 0 when calibrated from its own samples, 1 when it had to borrow the rate, -1 when
 * nothing is known (ticks are then taken as nanoseconds). */
static void fixed_point(struct timebase *tb, size_t nseg)
{
	free(tb->mul);
	tb->mul = xcalloc(nseg, sizeof(*tb->mul));
	for (size_t i = 0; i < nseg; i++)
		tb->mul[i] = time_from_double(tb->slope[i] * 4294967296.0);
}

static int i64_cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

/* Ticks that are CLOCK_MONOTONIC ns need no map, but the CLOCK samples may still say that
 * this process's monotonic clock reads differently from its ticks (a host whose clock is off,
 * or TPROF_TEST_CLOCK_SKEW_NS): the median difference, when it is more than the few tens of
 * ns between two readings of one clock, shifts every time of the process. */
#define SHIFT_NOISE_NS 1000
static void identity_shift(struct timebase *tb)
{
	tb->mono_shift = 0;
	if (!tb->n)
		return;
	int64_t *d = xmallocarray(tb->n, sizeof(*d));
	for (size_t i = 0; i < tb->n; i++)
		d[i] = sat_sub(tb->pts[i].mono, (int64_t)tb->pts[i].ticks);
	qsort(d, tb->n, sizeof(*d), i64_cmp);
	int64_t m = d[tb->n / 2];
	free(d);
	if (m > SHIFT_NOISE_NS || m < -SHIFT_NOISE_NS)
		tb->mono_shift = m;
}

int timebase_finish(struct timebase *tb, int clock_source, const struct timebase *fallback)
{
	if (clock_source == TPROF_CLOCKSRC_MONOTONIC) {
		tb->identity = 1;
		identity_shift(tb);
		return 0;
	}
	if (tb->n > 1)
		qsort(tb->pts, tb->n, sizeof(*tb->pts), point_cmp);
	/* Samples with equal ticks add nothing. */
	size_t w = 0;
	for (size_t i = 0; i < tb->n; i++)
		if (!w || tb->pts[i].ticks != tb->pts[w - 1].ticks)
			tb->pts[w++] = tb->pts[i];
	tb->n = w;
	int rc = 0;
	double dflt = 0;
	if (tb->n < 2) {
		dflt = fallback ? mean_slope(fallback) : 0;
		rc = dflt > 0 ? 1 : -1;
		if (dflt <= 0)
			dflt = 1.0;
	}
	size_t nseg = tb->n > 1 ? tb->n - 1 : 1;
	tb->slope = xcalloc(nseg, sizeof(double));
	if (tb->n < 2) {
		tb->slope[0] = dflt;
		fixed_point(tb, 1);
		if (tb->n == 0 && fallback && fallback->n) {
			/* No sample of its own: same host, same TSC; borrow the whole map. */
			tb->pts = xreallocarray(tb->pts, fallback->n, sizeof(*tb->pts));
			memcpy(tb->pts, fallback->pts, fallback->n * sizeof(*tb->pts));
			tb->n = tb->cap = fallback->n;
			free(tb->slope);
			return timebase_finish(tb, clock_source, NULL) == 0 ? 1 : -1;
		}
		return rc;
	}
	for (size_t i = 0; i + 1 < tb->n; i++)
		tb->slope[i] = (double)sat_sub(tb->pts[i + 1].mono, tb->pts[i].mono) /
			       (double)(tb->pts[i + 1].ticks - tb->pts[i].ticks);
	fixed_point(tb, nseg);
	return 0;
}

/* Ticks past a sample, scaled by a 32.32 fixed-point slope: one multiply per event (its
 * product fits in 128 bits; the ns, saturated, in 64). */
static inline int64_t scale(uint64_t ticks, uint64_t base, int64_t mul)
{
	__int128 d = ((__int128)(int64_t)(ticks - base) * mul + ((__int128)1 << 31)) >> 32;
	return d > INT64_MAX ? INT64_MAX : d < INT64_MIN ? INT64_MIN : (int64_t)d;
}

int64_t timebase_mono(const struct timebase *tb, uint64_t ticks, size_t *cursor)
{
	if (tb->identity || tb->n == 0)
		return sat_add((int64_t)ticks, tb->mono_shift);
	if (tb->n == 1)
		return sat_add(tb->pts[0].mono, scale(ticks, tb->pts[0].ticks, tb->mul[0]));
	size_t i = *cursor, last = tb->n - 2;
	if (i > last)
		i = last;
	while (i < last && ticks >= tb->pts[i + 1].ticks)
		i++;
	while (i > 0 && ticks < tb->pts[i].ticks)
		i--;
	*cursor = i;
	return sat_add(tb->pts[i].mono, scale(ticks, tb->pts[i].ticks, tb->mul[i]));
}

/* The correction at global time g (before correction). */
int64_t timebase_corr_at(const struct clock_corr *c, int64_t g)
{
	if (g <= c->g0 || c->g1 <= c->g0)
		return c->d0;
	if (g >= c->g1)
		return c->d1;
	double d = c->slope * (double)sat_sub(g, c->g0);
	return sat_add(c->d0, time_from_double(d));
}
