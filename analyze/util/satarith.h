/* satarith.h — arithmetic on 64-bit values that come from files (times, offsets, pids): a
 * damaged or made-up profile may hold any tick, clock sample or device time, and C's signed
 * overflow is undefined, so sums and differences are held at the ends of the range instead of
 * overflowing, and doubles are brought into the range before they become integers (a cast of
 * a double out of range is undefined); sat_add_held says whether it held a value at an end,
 * for the callers that count it.  Times on the analyzer's axis are kept within
 * +-(2^62 - 1) ns (146 years either side of 1970): the difference of two of them fits. */
#ifndef TPROF_ANALYZE_SATARITH_H
#define TPROF_ANALYZE_SATARITH_H

#include <stdint.h>

/* a + b, held at INT64_MIN or INT64_MAX. */
static inline int64_t sat_add(int64_t a, int64_t b)
{
	int64_t r;
	if (__builtin_add_overflow(a, b, &r))
		return b > 0 ? INT64_MAX : INT64_MIN;
	return r;
}

/* a - b, held likewise. */
static inline int64_t sat_sub(int64_t a, int64_t b)
{
	int64_t r;
	if (__builtin_sub_overflow(a, b, &r))
		return b < 0 ? INT64_MAX : INT64_MIN;
	return r;
}

/* a + b of unsigned counts, held at UINT64_MAX. */
static inline uint64_t sat_add_u64(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

/* The same, setting *held (when not NULL) when the result was held at an end. */
static inline int64_t sat_add_held(int64_t a, int64_t b, int *held)
{
	int64_t r;
	if (!__builtin_add_overflow(a, b, &r))
		return r;
	if (held)
		*held = 1;
	return b > 0 ? INT64_MAX : INT64_MIN;
}

/* A double as an int64_t, the fraction dropped: NaN is 0, and what lies beyond the range is
 * its end. */
static inline int64_t sat_from_double(double d)
{
	if (d != d)
		return 0;
	if (d >= 9223372036854775808.0)
		return INT64_MAX;
	if (d < -9223372036854775808.0)
		return INT64_MIN;
	return (int64_t)d;
}

#define TIME_AXIS_MAX (((int64_t)1 << 62) - 1)
#define TIME_AXIS_MIN (-TIME_AXIS_MAX)

/* A time put on the axis's range. */
static inline int64_t time_axis(int64_t t)
{
	return t < TIME_AXIS_MIN ? TIME_AXIS_MIN : t > TIME_AXIS_MAX ? TIME_AXIS_MAX : t;
}

/* An unsigned count of ns (a tick, a reading) as a time, held at INT64_MAX. */
static inline int64_t time_from_u64(uint64_t v)
{
	return v > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)v;
}

/* A double (ns) as a time: rounded to nearest, held at the ends, NaN as 0. */
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
