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
/* --diagnose (diagnose/diagnosis.h): the diagnosis after the header, before the tables
 * (DIAGNOSE_WITH_TABLES) or in their place (DIAGNOSE_ONLY); 0: none. */
enum { DIAGNOSE_NONE, DIAGNOSE_WITH_TABLES, DIAGNOSE_ONLY };
void summary_set_diagnose(int mode);
/* The runtimes whose summary parts are written (model/runtime.h); none until set. */
struct runtime_set;
void summary_set_runtimes(const struct runtime_set *rts);

#endif
