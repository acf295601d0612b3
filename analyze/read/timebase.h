/* timebase.h — one process's clock: its samples and the piecewise-linear map from recorded
 * ticks to monotonic nanoseconds, the offset that puts its host on the global axis, and the
 * correction measured against MPI rank 0 (clocksync.c) that refines it. */
#ifndef TPROF_ANALYZE_TIMEBASE_H
#define TPROF_ANALYZE_TIMEBASE_H

#include <stddef.h>
#include <stdint.h>

#include "../util/satarith.h"

struct clock_point {
	uint64_t ticks;
	int64_t mono;
	int64_t real;
};

/* A correction of the global axis, d(g) subtracted from each time g: d0 up to g0, d1 from g1
 * on, linear in between (clock drift between two measurements). */
struct clock_corr {
	int64_t g0, g1;
	int64_t d0, d1;
	double slope;                   /* (d1 - d0) / (g1 - g0) */
};

struct timebase {
	struct clock_point *pts;
	size_t n, cap;
	double *slope;                  /* ns per tick of segment i (pts[i] .. pts[i+1]) */
	int64_t *mul;                   /* the same in 32.32 fixed point, for the per-event path */
	int identity;                   /* ticks are CLOCK_MONOTONIC ns */
	int64_t mono_shift;             /* identity: what the CLOCK samples add to the ticks
					 * (their monotonic reading minus the ticks), 0 when
					 * they agree; added to every CLOCK_MONOTONIC time */
	int64_t offset;                 /* added to monotonic ns to reach the global axis */
	int corrected;                  /* corr applies */
	struct clock_corr corr;
};

void timebase_add(struct timebase *tb, uint64_t ticks, int64_t mono, int64_t real);
int timebase_finish(struct timebase *tb, int clock_source, const struct timebase *fallback);
int64_t timebase_mono(const struct timebase *tb, uint64_t ticks, size_t *cursor);
int64_t timebase_corr_at(const struct clock_corr *c, int64_t g);

/* Monotonic ns of this process's host (as its CLOCK samples tell them) on the global axis:
 * the host's offset, then the measured correction, if any.  Every time goes through here,
 * and comes out within the axis's range (util/satarith.h), whatever the file said. */
static inline int64_t timebase_axis(const struct timebase *tb, int64_t mono)
{
	int64_t g = sat_add(mono, tb->offset);
	if (__builtin_expect(tb->corrected, 0))
		g = sat_sub(g, timebase_corr_at(&tb->corr, g));
	return time_axis(g);
}

/* Recorded ticks on the global axis. */
static inline int64_t timebase_global(const struct timebase *tb, uint64_t ticks, size_t *cursor)
{
	return timebase_axis(tb, timebase_mono(tb, ticks, cursor));
}

/* A CLOCK_MONOTONIC reading the recorder took itself (device operation times) on the global
 * axis. */
static inline int64_t timebase_global_mono(const struct timebase *tb, int64_t mono)
{
	return timebase_axis(tb, sat_add(mono, tb->mono_shift));
}

#endif
