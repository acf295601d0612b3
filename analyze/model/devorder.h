/* devorder.h — device spans put in order before any output sees them (devorder.c): on each
 * (process, device, stream) they are ordered and disjoint, and none starts before the call
 * that launched it.  Every output (Chrome, OTF2, the summary) gets them from here. */
#ifndef TPROF_ANALYZE_DEVORDER_H
#define TPROF_ANALYZE_DEVORDER_H

#include "output.h"

/* Moves up to this are the timing's own resolution (hipEventElapsedTime: about 1 us; float
 * milliseconds: 61 ns at the anchor's age limit of 1 s) and pass silently; larger ones are
 * counted (struct devorder_totals) and reported with -v and in the summary. */
#define DEVORDER_RESOLUTION_NS 1000

/* A device span (EV_DEVICE) as read, in the order its device's DEVICE records were written:
 * moved to start no earlier than its launch and the span before it on its stream, then
 * handed to every output (and to NCCL matching). */
void devorder_add(struct pipeline *pl, struct event *ev);
/* Frees the stage (at the end of the data). */
void devorder_finish(struct pipeline *pl);
/* Says, with -v, how many spans moved by more than the resolution, and the largest move. */
void devorder_report(const struct trace *tr);

#endif
