/* hang/hang.h — --live: what every process of a job is doing now (or was doing where its data
 * ends: a killed job's profile), and why the job does not get on.  Per process and thread the
 * call it is in and for how long, its progress and its step; per communicator the newest
 * collective each rank entered and left; the receives and sends waiting for their other end;
 * device work launched and not finished; then the findings: who never entered the collective
 * the others wait in and what it is doing instead, cycles of processes waiting for each other,
 * members of one collective that asked differently, processes that are gone.  It is an output
 * of the pipeline (it hears every event, and the runtimes' hang sink at their end) and writes
 * its report, text or JSON, through the summary's writer. */
#ifndef TPROF_ANALYZE_HANG_H
#define TPROF_ANALYZE_HANG_H

#include <stdint.h>

#include "../model/output.h"

struct hang;
struct runtime_set;
struct sumw;

/* now: the moment looked at, in ns since 1970 (CLOCK_REALTIME), or 0 for where the data
 * ends; live: the processes may still run (it asks whether they do, on this host). */
struct hang *hang_new(const struct runtime_set *rts, int64_t now, int live);
/* What the runtimes hand at their end (struct pipeline's hangs). */
const struct hang_sink *hang_sink(struct hang *h);
/* The hang analysis as an output of the pipeline: gathers while the events flow and finds
 * the causes at the end, writing nothing and leaving h to its caller. */
struct output output_hang(struct hang *h);
/* The report, text or JSON through w; dir: the profile, for the commands it suggests. */
void hang_write(struct hang *h, struct sumw *w, const char *dir);
/* Whether some process of the job may still run (after the pipeline ended). */
int hang_running(const struct hang *h);
void hang_free(struct hang *h);

/* findings.c: what was found, worst first */
enum hfinding_kind {
	HF_NOT_ENTERED = 1,              /* members waited in a collective others never entered */
	HF_NONE_LEFT,                    /* every member entered, none left */
	HF_CYCLE,                        /* processes wait for each other, around a cycle */
	HF_WAITS_PEER,                   /* a process waits for a message of another */
	HF_MISMATCH,                     /* members of one collective asked differently */
	HF_GONE,                         /* a process others wait for ended */
	HF_DEVICE,                       /* a process waits for device work that does not end */
};

#endif
