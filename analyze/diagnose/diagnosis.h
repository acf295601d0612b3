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

#include "../model/output.h"

#define DIAG_PARTS 8     /* the parts a step's time is split into (compute, copies...) */

struct diagnosis *diagnosis_new(const struct runtime_set *rts);
/* Before the events: the profile's processes known in their order (process 1, 2...), so
 * that what is told apart by process comes out in that order whatever came first. */
struct trace;
void diagnosis_begin(struct diagnosis *dx, const struct trace *tr);
void diagnosis_event(struct diagnosis *dx, const struct event *ev);
/* The diagnosis as an output of the pipeline (model/output.h): it hands dx every event and
 * settles it at the end, writing nothing and leaving dx to its caller; in the pipeline's list
 * before the outputs that write it (the summary's part, the SQLite tables). */
struct output output_diagnosis(struct diagnosis *dx);
/* Diagnoses what is left (diagnosis_settle) and writes the diagnosis (text or JSON through w;
 * dir: the profile, for the commands it suggests). */
void diagnosis_write(struct diagnosis *dx, struct sumw *w, const char *dir, int top);
void diagnosis_free(struct diagnosis *dx);
/* Keeps each process's split of each of its steps, for the rows of rows.h (before the
 * events). */
void diagnosis_keep_splits(struct diagnosis *dx);

/* The diagnosis as a part of the summary (summary/summary.h's summary_set_part; its priv: a
 * struct diagnosis). */
extern const struct summary_part diagnosis_summary_part;

/* For another output (diff/data.c, rows.h): diagnoses what is left and ranks the findings
 * (once), and says how many step numbers there are, in order from then on; step i's longest rank and its parts summed over the ranks. */
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
