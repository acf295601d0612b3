/* diff/diff.h — --diff: what changed between two profiles.  Each profile is read by a
 * tprof-analyze of its own (--diff-data, data.c: per kernel, call, collective, part of the
 * step time and step length, its time in each step), and the two are compared (compare.c):
 * count, time and their change, against the noise of the per-step times. */
#ifndef TPROF_ANALYZE_DIFF_H
#define TPROF_ANALYZE_DIFF_H

#include <stddef.h>
#include <stdio.h>

#include "../model/output.h"
#include "../summary/write.h"

#define DIFF_DATA_FORMAT "tprof-diff-data"

/* The output of --diff-data: JSON on f.  starts: the trace's step starts (window_step_starts:
 * every step number with when its last process started it), n of them; kept by the output. */
struct output output_diff_data(FILE *f, const char *dir, struct step_start *starts, size_t n,
			       const struct runtime_set *rts);

/* Compares the data of A (the base) and of B, files written by --diff-data, and writes the
 * changes (B against A) on f as text or JSON, the first `top` rows of the text (0: all).
 * 0, or -1 when a file could not be read (said). */
int diff_compare(const char *a_path, const char *b_path, const char *a_name, const char *b_name,
		 FILE *f, enum summary_format format, int top);

/* --diff: runs this program (self) on A and on B with --diff-data and the options `pass`
 * (NULL-terminated), both at once, into files under a temporary directory, then compares
 * them.  The exit status for tprof-analyze. */
int diff_run(const char *self, const char *a, const char *b, const char *const *pass,
	     enum summary_format format, int top);

#endif
