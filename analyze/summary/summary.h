/* summary/summary.h — the --summary output (summary.c): every table, as text or JSON. */
#ifndef TPROF_ANALYZE_SUMMARY_H
#define TPROF_ANALYZE_SUMMARY_H

#include <stdio.h>

#include "../model/output.h"
#include "write.h"

struct output output_summary(FILE *f, const char *dir, int top);   /* as text */
struct output output_summary_as(FILE *f, const char *dir, int top, enum summary_format format);
void summary_set_window(const struct window *w);
/* --ranks: the rows of a per-rank table shown in text before its spread is shown instead
 * (summary/spread.h); 0: every row.  SPREAD_ROWS_DEFAULT until set. */
void summary_set_rank_rows(size_t n);
/* A part the summary writes after its header (--diagnose: the diagnosis, diagnose/
 * diagnosis.h), computed by an output of its own that comes before the summary in the
 * pipeline's list: end writes what priv holds, which the caller frees. */
struct runtime_set;
struct summary_part {
	void (*end)(void *priv, struct sumw *w, const char *dir, int top);
};
/* The part (NULL: none) and what it writes, before the tables or, with alone, in their
 * place. */
void summary_set_part(const struct summary_part *part, void *priv, int alone);
/* The runtimes whose summary parts are written (model/runtime.h); none until set. */
void summary_set_runtimes(const struct runtime_set *rts);

#endif
