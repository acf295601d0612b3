/* capture.h — what the recorder, tprof-inspect and the reader share about the capture window
 * (when a process records): why it opened or closed, as CAPTURE records carry it; the job's
 * gate, the word tprof-inspect keeps in a file its processes map (TPROF_CAPTURE_GATE) and
 * change together, for --delay, --duration, --start-paused and its capture signal; and the
 * step window of TPROF_STEPS / --steps A:B. */
#ifndef TPROF_COMMON_CAPTURE_H
#define TPROF_COMMON_CAPTURE_H

#include <stdint.h>

#define TPROF_CAPTURE_GATE_VAR "TPROF_CAPTURE_GATE"   /* the gate file's path */
#define TPROF_CAPTURE_RANGE_VAR "TPROF_CAPTURE_RANGE" /* "api": start paused, runtime calls act */
#define TPROF_STEPS_VAR "TPROF_STEPS"                 /* "A:B", "A:" or ":B" */

/* Why the window opened or closed (CAPTURE records' arg); names in tprof_capture_why_name. */
#define TPROF_CAPTURE_WHYS(X)                                          \
	X(DELAY, 1, "--delay")                                          \
	X(DURATION, 2, "--duration")                                    \
	X(SIGNAL, 3, "the capture signal")                              \
	X(PAUSED, 4, "--start-paused")                                  \
	X(API, 5, "tprof_start/tprof_stop")                             \
	X(HIP, 6, "hipProfilerStart/hipProfilerStop")                   \
	X(ROCTX, 7, "roctxProfilerResume/roctxProfilerPause")           \
	X(STEPS, 8, "--steps")                                          \
	X(RANGE, 9, "--capture-range api")

enum tprof_capture_why {
#define TPROF_CAPTURE_WHY_ENUM(sym, num, str) TPROF_CAPTURE_##sym = num,
	TPROF_CAPTURE_WHYS(TPROF_CAPTURE_WHY_ENUM)
#undef TPROF_CAPTURE_WHY_ENUM
};

/* CAPTURE flags: bit 0 open (else closed); TPROF_CAPTURE_AT_START: the state the image
 * started in (closed), written as its files are made. */
#define TPROF_CAPTURE_OPEN 1u
#define TPROF_CAPTURE_AT_START 2u

/* "--delay", ...; "?" for a number no writer gives. */
const char *tprof_capture_why_name(uint64_t why);

/* The job's gate: the first word of the file, written by tprof-inspect alone, waited on by
 * each process's watcher (a futex on the shared mapping).  Bit 0: open; bits 1-7: why it
 * last changed (enum tprof_capture_why); bits 8-31: a count of changes. */
#define TPROF_GATE_OPEN 1u
#define TPROF_GATE_SIZE 4096u
static inline uint32_t tprof_gate_word(uint32_t old, int open, unsigned why)
{
	return (((old >> 8) + 1) << 8) | ((why & 0x7fu) << 1) | (open ? TPROF_GATE_OPEN : 0);
}
static inline unsigned tprof_gate_why(uint32_t w)
{
	return (w >> 1) & 0x7fu;
}

/* Parses "A:B" (steps A to B, both included), "A:" (from A on) or ":B" (up to B); "N" is
 * "N:N".  0 on success; -1 for anything else or B < A. */
int tprof_steps_parse(const char *s, uint64_t *first, uint64_t *last);

#endif
