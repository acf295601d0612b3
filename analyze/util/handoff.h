/* handoff.h — a ring of slots between two threads: one fills the slot after the full ones,
 * the other takes the oldest full one and hands it back when done with it.  What a slot holds
 * is the caller's (an array indexed by the slot number); the ring only counts, under a lock,
 * and wakes whichever side waits.  The merge's records (model/merge.c), the import's items
 * (import/items.c) and its parsed events (import/chrome-batch.c) go from their reading
 * thread to the caller's this way. */
#ifndef TPROF_ANALYZE_HANDOFF_H
#define TPROF_ANALYZE_HANDOFF_H

#include <pthread.h>

struct handoff {
	unsigned n;                     /* slots */
	unsigned full;                  /* under lock */
	unsigned fill_at, take_at;      /* the filler's and the taker's own */
	int cancelled;                  /* under lock: the taker stopped early */
	pthread_mutex_t lock;
	pthread_cond_t filled, emptied;
};

void handoff_init(struct handoff *h, unsigned n);
void handoff_destroy(struct handoff *h);
/* The filler: the slot to fill, once it is free (-1 once the taker has cancelled); then
 * handoff_filled when it is. */
int handoff_free_slot(struct handoff *h);
void handoff_filled(struct handoff *h);
/* The taker stops before the filler is done: the filler's next free slot is -1. */
void handoff_cancel(struct handoff *h);
int handoff_cancelled(struct handoff *h);
/* The taker: the oldest full slot, once there is one; then handoff_taken when done with it. */
int handoff_full_slot(struct handoff *h);
void handoff_taken(struct handoff *h);

/* Threads that keep a processor busy beside the caller's (an output's compressor) say so when
 * they start (+1) and end (-1); a stage that could start a thread of its own to read ahead
 * asks how many processors are left beyond the caller's and theirs. */
void handoff_busy(int delta);
int handoff_cores_left(void);

#endif
