/* sys.h — the system profile as a runtime of the registry (runtimes/sys/): the records of the
 * system images (SAMPLE, SCHED, SYSCTR) attached to the threads and processes they describe
 * and turned into events (pipe.c), drawn as samples, thread state tracks and counters
 * (scene.c), and summed into the CPU, off-CPU and memory tables (summary.c). */
#ifndef TPROF_ANALYZE_SYS_H
#define TPROF_ANALYZE_SYS_H

#include "../../model/runtime.h"
#include "../../read/system.h"

struct runtime;
extern const struct runtime runtime_sys;   /* runtime.c */

/* The names of the scheduling states (enum tprof_sched_state), "Running"...; NULL for none. */
const char *sys_state_name(unsigned state);

/* pipe.c */
void sys_pipe_record(struct pipeline *pl, struct thread *t, const struct tprof_rec *r, int64_t ns);
void sys_pipe_finish(struct pipeline *pl);

/* scene.c */
int sys_scene_event(struct scene *s, const struct event *ev, unsigned self);

/* summary.c */
void *sys_sum_new(void);
void sys_sum_event(void *priv, const struct event *ev);
void sys_sum_end(void *priv, struct sumw *w, const struct sum_span *span, int top);
void sys_sum_pack(void *priv, const struct sum_span *span, struct pack *b);
void sys_sum_merge(void *priv, const struct sum_span *span, struct unpack *u);

#endif
