/* summary/steps.h — the summary's Steps table: how many steps, their total, average, median,
 * shortest and longest, and the slowest few with their process.  Every step's length is kept
 * by the analysis process that read it; in the parallel analyzer the median is found by a
 * selection over all of them (steps_settle), and the first process merges the rest. */
#ifndef TPROF_ANALYZE_SUMMARY_STEPS_H
#define TPROF_ANALYZE_SUMMARY_STEPS_H

#include <stddef.h>
#include <stdint.h>

#include "write.h"

struct pack;
struct unpack;

#define STEPS_SLOWEST 5   /* listed when there are 10 steps or more; all under 10 */
#define STEPS_KEEP 9

struct step_row {
	int proc;
	uint64_t step;
	int64_t dur;
};

struct steps {
	struct step_row *v;              /* this analysis process's steps */
	size_t n, cap;
	/* what steps_settle found, over every analysis process for count and median */
	uint64_t count;
	int64_t sum, min, max, median;
	struct step_row slow[STEPS_KEEP * 2];   /* the slowest, slowest last */
	size_t nslow;
};

void steps_add(struct steps *s, int proc, uint64_t step, int64_t dur);
/* Collective (every analysis process calls it): sorts, sums, and finds the median of all. */
void steps_settle(struct steps *s);
/* What another analysis process settled, for the first to merge (after steps_settle). */
void steps_pack(const struct steps *s, struct pack *b);
void steps_merge(struct steps *s, struct unpack *u);
void steps_table(struct sumw *w, const struct steps *s);
void steps_free(struct steps *s);

#endif
