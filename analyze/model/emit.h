/* emit.h — what hands events to every output (emit.c): the pipeline (pipeline.c) and the
 * MPI stages it drives (runtimes/mpi/match.c, runtimes/mpi/coll.c) call these. */
#ifndef TPROF_ANALYZE_EMIT_H
#define TPROF_ANALYZE_EMIT_H

#include "output.h"

/* Ranges, calls, device work, marks...: kept when they belong to the window, clipped to it,
 * counted on their process and thread. */
void emit_event(struct pipeline *pl, struct event *ev);
/* Whether window w keeps ev (emit_event's rule), for a stage that must know what an output
 * was handed: NCCL's, of the device spans it lines up. */
int emit_kept(const struct window *w, const struct event *ev);
/* Derived events (EV_MESSAGE, EV_COLLECTIVE): kept when they belong to the window; neither
 * clipped nor counted as events. */
void emit_derived(struct pipeline *pl, struct event *ev);
/* Announcements (EV_BEGIN): to every output as they are, neither windowed nor counted. */
void emit_aside(struct pipeline *pl, const struct event *ev);

#endif
