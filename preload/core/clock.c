/* clock.c — picks the recording clock and takes (ticks, monotonic, realtime) samples. */
#include "clock.h"

#include "../../common/events.h"
#include "../../common/tsc.h"
#include "core.h"

int tprof_clock_tsc TPROF_START_DATA;

TPROF_START_CODE int tprof_clock_init(int want)
{
	if (want == TPROF_CLOCKSRC_MONOTONIC)
		tprof_clock_tsc = 0;
	else
		tprof_clock_tsc = tprof_invariant_tsc();
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
