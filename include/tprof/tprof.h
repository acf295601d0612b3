/* tprof.h — the tprof annotation API.
 *
 * Link with `pkg-config --cflags --libs tprof`.  Without the profiler every call does nothing
 * and costs a few nanoseconds; run under tprof-inspect (or with TPROF_ENABLE=1 and
 * LD_PRELOAD=libtrace_preload.so) the same calls are recorded.  Names are copied when first
 * seen, so any string, including a reused buffer, may be passed.  All calls are thread-safe;
 * ranges nest per thread. */
#ifndef TPROF_TPROF_H
#define TPROF_TPROF_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TPROF_API_VERSION 3     /* 2: tprof_step_end; 3: tprof_start, tprof_stop */

/* Opens a range named `name` on the calling thread.  Returns the nesting level it opens at
 * (0 for an outermost range), or a negative value when nothing is being recorded. */
int tprof_range_push(const char *name);

/* Closes the innermost open range of the calling thread.  Returns the level of the closed
 * range, or a negative value when none was open or nothing is being recorded. */
int tprof_range_pop(void);

/* An instant event named `name`. */
void tprof_mark(const char *name);

/* Training step `step` starts now (it ends when the next step starts, when tprof_step_end is
 * called, or at exit). */
void tprof_step(uint64_t step);

/* The step this process is in ends now, and no other starts: after the last step of a loop,
 * so that what follows (evaluation, saving, the exit) is not counted in it. */
void tprof_step_end(void);

/* The counter `name` takes `value` from now on. */
void tprof_counter(const char *name, double value);

/* Recording of this process pauses (tprof_stop) and resumes (tprof_start): calls outside the
 * window cost what they cost without the profiler; device work launched and ranges opened
 * before a stop are kept whole.  Under `tprof-inspect --capture-range api` the process starts
 * paused, so that only what lies between tprof_start and tprof_stop is recorded.  The other
 * windows of tprof-inspect (--delay, --duration, --steps, its signal) still apply: a process
 * records while every one of them is open. */
void tprof_start(void);
void tprof_stop(void);

#ifdef __cplusplus
}
#endif

#endif
