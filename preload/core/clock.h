/* clock.h — the recording clock: the invariant TSC where the CPU has one (a ~10 ns read, no
 * system call), CLOCK_MONOTONIC otherwise.  CLOCK records in the process stream map ticks to
 * nanoseconds; the reader does the conversion, so the hot path only reads. */
#ifndef TPROF_CLOCK_H
#define TPROF_CLOCK_H

#include <stdint.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

extern int tprof_clock_tsc;  /* 1 when t0/t1 are TSC ticks */

static inline uint64_t tprof_mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline uint64_t tprof_real_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline uint64_t tprof_now(void)
{
#if defined(__x86_64__) || defined(__i386__)
	if (__builtin_expect(tprof_clock_tsc, 1))
		return __rdtsc();
#endif
	return tprof_mono_ns();
}

/* Chooses the clock (TPROF_CLOCK: 0 auto, else TPROF_CLOCKSRC_*); returns the source used. */
int tprof_clock_init(int want);

/* A (ticks, monotonic, realtime) triple taken as close together as the machine allows. */
struct tprof_clock_sample {
	uint64_t ticks, mono, real;
};
void tprof_clock_sample(struct tprof_clock_sample *s);

#endif
