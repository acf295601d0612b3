/* capture.h — the capture window: when this process records (capture.c). */
#ifndef TPROF_CAPTURE_H
#define TPROF_CAPTURE_H

#include <stdint.h>

/* The gates; the window is open while every one is. */
#define TPROF_GATE_JOB 1u      /* tprof-inspect's: --delay, --duration, signal, --start-paused */
#define TPROF_GATE_PROGRAM 2u  /* tprof_stop/tprof_start; with TPROF_CAPTURE_RANGE=api the
				* runtimes' profiler calls, closed at start */
#define TPROF_GATE_STEPS 4u    /* TPROF_STEPS: closed outside steps A..B */

/* At load, before the image begins: the gates as the configuration sets them, and the
 * watcher of the job's gate when there is one. */
void tprof_capture_init(void);
/* Fork child: its own watcher (the parent's did not come along). */
void tprof_capture_fork_child(void);

/* Opens or closes `gate` (why: enum tprof_capture_why); a CAPTURE record when the window
 * changes. */
void tprof_capture_gate(unsigned gate, int open, unsigned why);

/* A runtime's profiler start or stop (hipProfilerStart, roctxProfilerPause...): acts only
 * under TPROF_CAPTURE_RANGE=api. */
void tprof_capture_runtime(int start, unsigned why);

/* Non-zero under TPROF_STEPS: tprof_step and tprof_step_end tell the step window. */
extern int tprof_capture_by_steps;
/* Step `step` begins: 1 when it is outside the step window and the window is open, so that
 * the caller ends the step before (its record) and then closes it (tprof_capture_gate);
 * opens it for a step inside. */
int tprof_capture_step(uint64_t step);
/* The step that began last ended: 1 when it was the window's last, so that the caller closes
 * the window after the end's record. */
int tprof_capture_step_end(void);

#endif
