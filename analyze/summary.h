/* summary.h — what the summary's files share: per-name time aggregates, number and
 * duration formatting, the sorted time table, and the device part (summary-device.c). */
#ifndef TPROF_ANALYZE_SUMMARY_H
#define TPROF_ANALYZE_SUMMARY_H

#include <stdio.h>

#include "output.h"

struct agg {
	uint64_t calls;
	int64_t total, min, max;
};

static inline void agg_add(struct agg *a, int64_t d)
{
	if (!a->calls || d < a->min)
		a->min = d;
	if (!a->calls || d > a->max)
		a->max = d;
	a->calls++;
	a->total += d;
}

const char *fmt_count(uint64_t n, char *buf, size_t len);
/* Rows with calls, sorted by total time: Total(%), Time, Calls, Avg, Min, Max, Name. */
void time_table_print(FILE *f, const char *title, const struct agg *rows, size_t n, int top);

struct devsum;
struct devsum *devsum_new(void);
void devsum_event(struct devsum *d, const struct event *ev);
/* Prints the device tables and frees d. */
void devsum_end(struct devsum *d, FILE *f, const struct trace *tr, int64_t covered, int top);

#endif
