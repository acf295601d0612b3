/* render/perfetto/hold.h — packets held back so that each track's go out in time order
 * (hold.c).  The scene draws a range when it closes, after everything that happened inside it
 * (its nested ranges, its marks, the calls it made): written as they come, the range's begin
 * would be earlier than the packet before it on its sequence, so it would take a full
 * timestamp and a clock id instead of a short delta, and the deltas around it would grow.  So
 * while ranges are open on a thread, its packets wait, each range taking in those it encloses
 * as it comes; when the outermost closes they are written in time order: a range's begin, what
 * it encloses, its end. */
#ifndef TPROF_ANALYZE_PERFETTO_HOLD_H
#define TPROF_ANALYZE_PERFETTO_HOLD_H

#include "writer.h"

/* Whether an item on s waits: while ranges are open around it (ranges_open), or while s holds
 * packets already. */
static inline int pf_holding(const struct pf_seq *s, uint32_t ranges_open)
{
	return ranges_open || s->nnodes;
}

/* Starts a held packet: its fields (after the sequence id, without a timestamp) go to s->b,
 * which is s's hold buffer until pf_hold_end; returns where they start. */
size_t pf_hold_begin(struct perfetto_writer *w, struct pf_seq *s, size_t room);
/* Ends it: a slice [t0, t1] (slice) or an event at t0 (t1 = t0), taking in the held packets
 * it encloses.  The names it interned go out at once, in a packet of their own. */
void pf_hold_end(struct perfetto_writer *w, struct pf_seq *s, size_t off, int64_t t0, int64_t t1,
		 int slice);
/* Writes what s holds, in time order as far as the nesting goes. */
void pf_hold_release(struct perfetto_writer *w, struct pf_seq *s);
void pf_hold_release_all(struct perfetto_writer *w);
/* Frees what every sequence holds back (before pf_seqs_free). */
void pf_hold_free_all(struct perfetto_writer *w);

#endif
