/* import.h — imported traces as a runtime of the registry (runtimes/import/): the records of the
 * imported images (common/import-records.h) turned into ranges, instants, counters, async ranges
 * and flows (pipe.c), drawn with their category and arguments (scene.c), and summed into the
 * "Framework ops" table (summary.c). */
#ifndef TPROF_ANALYZE_IMPORT_RT_H
#define TPROF_ANALYZE_IMPORT_RT_H

#include "../../model/runtime.h"

struct runtime;
extern const struct runtime runtime_import;   /* runtime.c */

/* What an imported event carries beside the model's fields (struct event's imp). */
struct imp_info {
	uint32_t cat;                    /* trace-wide string id, 0: none */
	const uint8_t *args;             /* the args bytes (import-records.h), args_len of them */
	uint32_t args_len;
	uint8_t phase;                   /* the Chrome phase letter */
	uint8_t clipped;                 /* its end was moved earlier to nest */
	uint8_t args_cut;                /* its args were too long to keep */
	uint8_t is_step;                 /* a step slice (ProfilerStep#N): step = N */
	uint64_t step;
	uint32_t id;                     /* trace-wide string id of its id's text, 0: none */
	uint64_t offset;                 /* its byte offset in the file */
	const struct thread *from;       /* EV_FLOW: the thread it leaves */
	uint64_t flow_id;                /* EV_FLOW: unique within the trace */
};

/* pipe.c */
void imp_pipe_record(struct pipeline *pl, struct thread *t, const struct tprof_rec *r, int64_t ns);
void imp_pipe_finish(struct pipeline *pl);

/* scene.c */
int imp_scene_event(struct scene *s, const struct event *ev, unsigned self);
void imp_scene_end(struct scene *s, unsigned self);

/* summary.c */
void *imp_sum_new(void);
void imp_sum_event(void *priv, const struct event *ev);
void imp_sum_end(void *priv, struct sumw *w, const struct sum_span *span, int top);
void imp_sum_pack(void *priv, const struct sum_span *span, struct pack *b);
void imp_sum_merge(void *priv, const struct sum_span *span, struct unpack *u);

#endif
