/* timebase.h — one process's clock: its samples and the piecewise-linear map from recorded
 * ticks to monotonic nanoseconds, plus the offset that puts its host on the global axis. */
#ifndef TPROF_ANALYZE_TIMEBASE_H
#define TPROF_ANALYZE_TIMEBASE_H

#include <stddef.h>
#include <stdint.h>

struct clock_point {
	uint64_t ticks;
	int64_t mono;
	int64_t real;
};

struct timebase {
	struct clock_point *pts;
	size_t n, cap;
	double *slope;                  /* ns per tick of segment i (pts[i] .. pts[i+1]) */
	int64_t *mul;                   /* the same in 32.32 fixed point, for the per-event path */
	int identity;                   /* ticks are CLOCK_MONOTONIC ns */
	int64_t offset;                 /* added to monotonic ns to reach the global axis */
};

void timebase_add(struct timebase *tb, uint64_t ticks, int64_t mono, int64_t real);
int timebase_finish(struct timebase *tb, int clock_source, const struct timebase *fallback);
int64_t timebase_mono(const struct timebase *tb, uint64_t ticks, size_t *cursor);
static inline int64_t timebase_global(const struct timebase *tb, uint64_t ticks, size_t *cursor)
{
	return timebase_mono(tb, ticks, cursor) + tb->offset;
}

#endif
