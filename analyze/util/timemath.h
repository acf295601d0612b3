/* timemath.h — arithmetic on times and durations (int64 ns) that come from files: a damaged
 * or made-up profile may hold any tick, clock sample or device time, and C's signed overflow
 * is undefined, so every sum and difference of such values saturates instead, and a double
 * becomes an integer only within range.  Times on the analyzer's axis are kept within
 * +-(2^62 - 1) ns (146 years either side of 1970): the difference of two of them fits. */
#ifndef TPROF_ANALYZE_TIMEMATH_H
#define TPROF_ANALYZE_TIMEMATH_H

#include <stdint.h>

#define TIME_AXIS_MAX (((int64_t)1 << 62) - 1)
#define TIME_AXIS_MIN (-TIME_AXIS_MAX)

static inline int64_t time_add(int64_t a, int64_t b)
{
	int64_t r;
	if (__builtin_add_overflow(a, b, &r))
		return b > 0 ? INT64_MAX : INT64_MIN;
	return r;
}

static inline int64_t time_sub(int64_t a, int64_t b)
{
	int64_t r;
	if (__builtin_sub_overflow(a, b, &r))
		return b < 0 ? INT64_MAX : INT64_MIN;
	return r;
}

/* A time put on the axis's range. */
static inline int64_t time_axis(int64_t t)
{
	return t < TIME_AXIS_MIN ? TIME_AXIS_MIN : t > TIME_AXIS_MAX ? TIME_AXIS_MAX : t;
}

/* An unsigned count of ns (a tick, a reading) as a time, saturated. */
static inline int64_t time_from_u64(uint64_t v)
{
	return v > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)v;
}

/* A double (ns) as a time: rounded to nearest, saturated, NaN as 0. */
static inline int64_t time_from_double(double d)
{
	if (!(d == d))
		return 0;
	if (d >= 9.2233720368547748e18)
		return INT64_MAX;
	if (d <= -9.2233720368547758e18)
		return INT64_MIN;
	return (int64_t)(d < 0 ? d - 0.5 : d + 0.5);
}

#endif
