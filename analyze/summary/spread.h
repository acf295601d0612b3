/* summary/spread.h — per-rank tables at scale.  A table with a row per process, device or
 * rank shows every row in text up to a limit (--ranks, 16 by default); past it, the text shows
 * three rows: those with the least, the median and the greatest value of the table's main
 * column, each labeled so, under a line saying how many rows there are.  JSON always holds
 * every row, and "spread" names those three by their index in "rows". */
#ifndef TPROF_ANALYZE_SPREAD_H
#define TPROF_ANALYZE_SPREAD_H

#include <stddef.h>

#include "write.h"

/* Rows a per-rank table shows in text before it shows its spread; 0: every row. */
#define SPREAD_ROWS_DEFAULT 16

struct spread {
	int collapsed;       /* the text shows the three rows below, not every row */
	size_t row[3];       /* the least, median and greatest value's rows */
};

/* Picks the rows of a table of n rows whose main column holds v[0..n-1].  Among equal values
 * the first row is the least and the greatest; the median is the ((n - 1) / 2)-th row in
 * order of value, then of row. */
void spread_pick(const struct sumw *w, struct spread *s, const double *v, size_t n);
/* In text, collapsed: "  (N `rows`: the least, median and most `by` shown; --ranks all shows
 * each)" and a newline.  Nothing otherwise. */
void spread_note(struct sumw *w, const struct spread *s, size_t n, const char *rows,
		 const char *by);
/* In text, collapsed: the label column's width of blanks (before a header line). */
void spread_pad(struct sumw *w, const struct spread *s);
/* A table's rows written by row(w, ctx, i): every one in JSON, and in text every one or, when
 * collapsed, the three picked, each after its label; then JSON's "spread" (by: the main
 * column's key). */
void spread_rows(struct sumw *w, const struct spread *s, size_t n, const char *by,
		 void (*row)(struct sumw *w, void *ctx, size_t i), void *ctx);

#endif
