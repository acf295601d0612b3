/* tsc.h — whether this CPU's time-stamp counter is invariant (runs at one rate in every
 * power state, on every core), so that two reads of it measure time: the recorder's clock
 * choice (preload/core/clock.c) and the benchmark's floor (bench/floor.c) ask the same. */
#ifndef TPROF_COMMON_TSC_H
#define TPROF_COMMON_TSC_H

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

static inline int tprof_invariant_tsc(void)
{
#if defined(__x86_64__) || defined(__i386__)
	/* Two cpuid instructions, not the four two __get_cpuid calls make: in a virtual machine
	 * each one leaves the guest and can cost microseconds of every process start. */
	unsigned a, b, c, d;
	if (__get_cpuid_max(0x80000000u, NULL) < 0x80000007u)
		return 0;
	__cpuid(0x80000007u, a, b, c, d);
	(void)a, (void)b, (void)c;
	return (d >> 8) & 1;
#else
	return 0;
#endif
}

#endif
