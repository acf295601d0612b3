/* diagnose/diagnosis.h — --diagnose: where each step's time went on each rank, who made whom
 * wait, what the launches show, and the findings ranked by the time they cost.  The summary
 * hands it every event (summary/summary.c) and has it write its part first. */
#ifndef TPROF_ANALYZE_DIAGNOSIS_H
#define TPROF_ANALYZE_DIAGNOSIS_H

struct diagnosis;
struct event;
struct runtime_set;
struct sumw;

struct diagnosis *diagnosis_new(const struct runtime_set *rts);
void diagnosis_event(struct diagnosis *dx, const struct event *ev);
/* Diagnoses what is left, writes the diagnosis (text or JSON through w; dir: the profile, for
 * the commands it suggests) and frees dx. */
void diagnosis_end(struct diagnosis *dx, struct sumw *w, const char *dir, int top);
void diagnosis_free(struct diagnosis *dx);   /* without writing it */

#endif
