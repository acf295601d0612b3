/* poll.h — calls that poll (MPI_Test, MPI_Testany, MPI_Iprobe...): a program waiting for
 * something calls them millions of times, almost always in vain.  Consecutive unsuccessful
 * polls of a thread are folded into one POLL record, written at the first and updated in
 * place while nothing else is recorded on the thread: per function the exact count, the time
 * spent in the calls, the shortest and the longest; the run's span from the first entry to
 * the last return.  A successful poll is an ordinary CALL, recorded after it returned.
 * TPROF_POLLS=each turns folding off (hook->poll is then 0). */
#ifndef TPROF_POLL_H
#define TPROF_POLL_H

#include "api.h"

/* Slow side of tprof_poll_missed: opens a run or adds a function to the open one. */
void tprof_poll_open(struct tprof_thread *t, struct tprof_hook *h, uint64_t t0, uint64_t t1);

static inline uint32_t tprof_poll_ticks32(uint64_t d)
{
	return d > UINT32_MAX ? UINT32_MAX : (uint32_t)d;
}

/* The open run's record, when it can still be updated: nothing was written after it (pos
 * unchanged, same buffer) and no flush took a copy of it since it began. */
static inline struct tprof_rec *tprof_poll_current(const struct tprof_thread *t)
{
	const struct tprof_pollrun *run = &t->poll;
	if (TPROF_LIKELY(t->pos == run->end && run->rec && t->seq == run->seq &&
			 __atomic_load_n(run->flushed, __ATOMIC_RELAXED) == run->flushed_then))
		return run->rec;
	return NULL;
}

/* An unsuccessful poll of h ran from t0 to t1 (ticks): counted in the thread's open run. */
static inline void tprof_poll_missed(struct tprof_thread *t, struct tprof_hook *h, uint64_t t0,
				     uint64_t t1)
{
	/* Busy while the record is updated in place: a signal handler recording meanwhile could
	 * otherwise hand its buffer to the flusher under the update. */
	tprof_busy_enter(t);
	struct tprof_rec *r = tprof_poll_current(t);
	if (TPROF_LIKELY(r != NULL)) {
		struct tprof_poll_fn *f = (struct tprof_poll_fn *)(r + 1);
		for (unsigned i = 0; i < t->poll.n; i++, f++) {
			if (t->poll.hooks[i] != h)
				continue;
			uint32_t d = tprof_poll_ticks32(t1 - t0);
			f->count++;
			f->busy += t1 - t0;
			if (d < f->min)
				f->min = d;
			if (d > f->max)
				f->max = d;
			__atomic_store_n(&r->t1, t1, __ATOMIC_RELEASE);
			tprof_busy_leave(t);
			return;
		}
	}
	tprof_busy_leave(t);
	tprof_poll_open(t, h, t0, t1);
}

#endif
