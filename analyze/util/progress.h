/* progress.h — the progress line tprof-analyze keeps on stderr while a long phase runs
 * (reading the files, a pass over the records).  A caller counts and compares with a mark;
 * only past the mark is the clock read, so a record costs one compare. */
#ifndef TPROF_ANALYZE_PROGRESS_H
#define TPROF_ANALYZE_PROGRESS_H

#include <stdint.h>

enum progress_mode {
	PROGRESS_AUTO = 0,      /* shown when stderr is a terminal (and we are in its foreground) */
	PROGRESS_ON,            /* --progress: shown wherever stderr goes */
	PROGRESS_OFF,           /* --no-progress */
};

enum progress_unit { PROGRESS_RECORDS, PROGRESS_BYTES };

/* Decides whether progress is shown at all; the delay before the first line counts from here.
 * Without it (the unit tests) nothing is ever shown. */
void progress_init(int mode);

/* Starts a phase of `total` units; returns the count at which to call progress_at (UINT64_MAX
 * when nothing is shown). */
uint64_t progress_begin(const char *what, uint64_t total, int unit);
/* `done` units so far (records, or bytes); returns the next mark. */
uint64_t progress_at(uint64_t done);
/* Adds units and records to the phase (a phase counted in bytes also shows records). */
void progress_add(uint64_t units, uint64_t records);
/* Ends the phase and erases the line. */
void progress_end(void);
/* Erases the line, if one is shown, so that a message can go to stderr; the next update
 * draws it again. */
void progress_clear(void);

#endif
