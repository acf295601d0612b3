/* clock.c — picks the recording clock and takes (ticks, monotonic, realtime) samples. */
#include "clock.h"

#include <dlfcn.h>
#if defined(__x86_64__) && defined(__has_include)
#if __has_include(<sys/platform/x86.h>)
#include <sys/platform/x86.h>
#define HAVE_LOADER_CPUID 1
#endif
#endif

#include "../../common/events.h"
#include "../../common/real-libc.h"
#include "../../common/tsc.h"
#include "core.h"

int tprof_clock_tsc TPROF_START_DATA;

/* Whether the TSC is invariant, as glibc's loader found it: it ran cpuid for itself as the
 * process started and keeps the answers (sys/platform/x86.h), so that asking costs a dlsym,
 * where each cpuid instruction leaves a virtual machine's guest (3 µs or more of every start).
 * -1: no answer (another libc, or an older glibc), and then cpuid is asked. */
TPROF_START_CODE static int loader_invariant_tsc(void)
{
#ifdef HAVE_LOADER_CPUID
	typedef const struct cpuid_feature *(*leaf_fn)(unsigned int);
	leaf_fn leaf = (leaf_fn)tprof_real_dlsym(RTLD_DEFAULT, "__x86_get_cpuid_feature_leaf");
	if (!leaf)
		return -1;
	/* as x86_cpu_present does it, through the pointer found */
	const unsigned bits = 8 * sizeof(unsigned int);
	unsigned reg = x86_cpu_INVARIANT_TSC & (bits * 4 - 1);
	const struct cpuid_feature *f = leaf(x86_cpu_INVARIANT_TSC / (bits * 4));
	return f && (f->cpuid_array[reg / bits] >> (reg % bits) & 1) ? 1 : -1;
#else
	return -1;
#endif
}

TPROF_START_CODE int tprof_clock_init(int want)
{
	if (want == TPROF_CLOCKSRC_MONOTONIC)
		tprof_clock_tsc = 0;
	else
		tprof_clock_tsc = loader_invariant_tsc() == 1 || tprof_invariant_tsc();
	if (want == TPROF_CLOCKSRC_TSC && !tprof_clock_tsc)
		tprof_log_warn("TPROF_CLOCK=tsc: this CPU has no invariant TSC; using CLOCK_MONOTONIC");
	return tprof_clock_tsc ? TPROF_CLOCKSRC_TSC : TPROF_CLOCKSRC_MONOTONIC;
}

/* Brackets the two clock_gettime calls with tick reads and keeps the tightest of a few tries,
 * so that the pair is known to within a few tens of nanoseconds.  TPROF_TEST_CLOCK_SKEW_NS
 * shifts both clocks, as if the process ran on a host whose clocks are that far off: only the
 * samples carry it, so the hot path does not change. */
TPROF_START_CODE void tprof_clock_sample(struct tprof_clock_sample *s)
{
	uint64_t best = UINT64_MAX;
	for (int i = 0; i < 5; i++) {
		uint64_t a = tprof_now();
		uint64_t mono = tprof_mono_ns();
		uint64_t real = tprof_real_ns();
		uint64_t b = tprof_now();
		if (b - a < best) {
			best = b - a;
			s->ticks = a + (b - a) / 2;
			s->mono = mono;
			s->real = real;
		}
	}
	s->mono += (uint64_t)tprof_g.cfg.clock_skew_ns;
	s->real += (uint64_t)tprof_g.cfg.clock_skew_ns;
}
