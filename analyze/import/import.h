/* import.h — framework traces brought into the analysis (import.c): the files given with
 * --import and those found in the profile directory rewritten as imported images
 * (transcode.c) in a scratch directory, read with the recorded ones, and put on the profile's
 * time axis (placement.c): by absolute time, else by matching steps, else by a given offset. */
#ifndef TPROF_ANALYZE_IMPORT_H
#define TPROF_ANALYZE_IMPORT_H

#include <stddef.h>
#include <stdint.h>

#include "../read/trace.h"
#include "transcode.h"

struct import_req {
	const char **files;             /* --import, in order */
	size_t nfiles;
	const char *step_pattern;       /* --import-steps, NULL: ProfilerStep#N */
	int has_offset;                 /* --import-offset given */
	int64_t offset_ns;
	size_t run_bytes;               /* 0: the default */
};

/* How a file was put on the axis. */
enum import_how {
	IMPORT_BY_TIME = 1,             /* its absolute time, through its host's clock */
	IMPORT_BY_STEPS,                /* its steps matched to the profile's */
	IMPORT_BY_OFFSET,               /* --import-offset */
	IMPORT_BY_HINT,                 /* the realtime its writer gave: tprof.base_us */
	IMPORT_AT_START,                /* nothing to go by: its first event at the start */
};

struct import_done {
	struct imp_file file;
	struct cfile *images;           /* file.pack as its images read it, or NULL */
	int how;                        /* enum import_how */
	int64_t shift_ns;               /* what was added to its ns (BY_STEPS, BY_OFFSET...) */
	size_t steps_matched;
	double residual_rms_ns, residual_max_ns;
	struct proc *home;              /* the recorded process its main process is, or NULL */
	int moved;                      /* its times were moved onto the analyzer's axis (said) */
	size_t order;                   /* its place in the files to import (--import's, then
					 * those found): under --parallel, read by one analysis
					 * process and sent to the one that reads its home */
};

struct import_set {
	const struct import_req *req;
	char *scratch;                  /* the scratch directory, removed by import_end */
	struct outname *scratch_out;    /* it, as a temporary (util/outname.h) */
	struct import_done *done;
	size_t ndone;
	struct imp_fixes fixes;         /* every file's, and the pairing's (the trace's imp_fixes
					 * points here once something is imported) */
	char *home_elsewhere;           /* --parallel: the first file to import whose home process
					 * another analysis process reads than the one it went to
					 * (files renamed), else NULL */
};

/* The hooks of trace_load_with for this set (set->req set by the caller). */
struct load_hooks import_hooks(struct import_set *set);
/* Says with -v what each file became and how it was placed. */
void import_report(const struct import_set *set, const struct trace *tr);
/* Says with -v what the import changed or left out, one line per cause (once the events went
 * through the pipeline, whose pairing adds its own). */
void import_report_fixes(const struct import_set *set);
/* Removes the scratch directory and frees the set, once the analysis is over: the reader
 * keeps only so many files open and opens the others again by name when it reads them. */
void import_end(struct import_set *set);

/* placement.c: the import_hooks' align */
void import_align(struct trace *tr, void *ctx);

#endif
