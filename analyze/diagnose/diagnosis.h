/* diagnose/diagnosis.h — --diagnose: where each step's time went on each rank, who made whom
 * wait, what the launches show, and the findings ranked by the time they cost.  It is a part
 * of the summary (diagnosis_summary_part: the summary hands it every event and has it write
 * after the header), and what diff/data.c reads the parts of each step from. */
#ifndef TPROF_ANALYZE_DIAGNOSIS_H
#define TPROF_ANALYZE_DIAGNOSIS_H

struct diagnosis;
struct event;
struct runtime_set;
struct sumw;

#include <stddef.h>
#include <stdint.h>

#define DIAG_PARTS 8     /* the parts a step's time is split into (compute, copies...) */

struct diagnosis *diagnosis_new(const struct runtime_set *rts);
void diagnosis_event(struct diagnosis *dx, const struct event *ev);
/* Diagnoses what is left, writes the diagnosis (text or JSON through w; dir: the profile, for
 * the commands it suggests) and frees dx. */
void diagnosis_end(struct diagnosis *dx, struct sumw *w, const char *dir, int top);
void diagnosis_free(struct diagnosis *dx);   /* without writing it */

/* The diagnosis as a part of the summary (summary/summary.h's summary_set_part). */
extern const struct summary_part diagnosis_summary_part;

/* For another output (diff/data.c): diagnoses what is left (once), and says how many step
 * numbers there are; step i's longest rank and its parts summed over the ranks. */
struct diagnosis_step {
	uint64_t step;
	int64_t longest;
	int64_t ns[DIAG_PARTS];
};
size_t diagnosis_settle(struct diagnosis *dx);
void diagnosis_step(const struct diagnosis *dx, size_t i, struct diagnosis_step *out);
const char *diagnosis_part_words(unsigned part);
/* The parts over every process (their steps, or their runs without steps). */
void diagnosis_total(const struct diagnosis *dx, int64_t ns[DIAG_PARTS]);   /* its JSON key without _ns: "compute" */

#endif
