/* satarith.h — arithmetic on 64-bit values that come from files (times, offsets, pids): sums
 * and differences held at the ends of the range instead of overflowing, and doubles brought
 * into the range before they become integers (a cast of a double out of range is undefined).
 * Each says whether it held a value at an end, for the callers that count it. */
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

#endif
