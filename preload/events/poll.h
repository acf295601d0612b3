/* poll.h — calls that poll (MPI_Test, MPI_Testany, MPI_Iprobe...): a program waiting for
 * something calls them millions of times, almost always in vain.  Consecutive unsuccessful
 * polls of a thread are folded into one POLL record, written at the first and updated in
 * place while nothing else is recorded on the thread: per function the exact count, the time
 * spent in the calls, the shortest and the longest; the run's span from the first entry to
 * the last return.  A successful poll is an ordinary CALL, recorded after it returned.
 * TPROF_POLLS=each turns folding off (hook->poll is then 0).
 *
 * Reading the clock twice is most of what a poll costs recorded (a program that polls in a
 * tight loop, as HPCC's RandomAccess does, runs that much slower), so past the first
 * TPROF_POLL_EXACT polls of a run only one in TPROF_POLL_EVERY is timed (a prime, so that
 * functions taking turns are each timed): the others are counted alone, without a clock
 * read.  One in 127: a clock read costs 16 to 17 ns in a virtual machine, and a loop such
 * as RandomAccess's polls about a thousand times between two messages, so that one in 17
 * (7 % of its polls timed, with the first 16) still cost it 2 to 3 ns a poll, on a call of
 * 10 to 30 ns.  A function's busy time and its min and max are those of its timed polls,
 * which its unit counts too (struct tprof_poll_fn's `timed`); a reader scales the busy time by count /
 * timed.  The count stays exact, and so does the run's span where a success ends it: the
 * successful poll (its CALL) begins at the run's end.
 *
 * An untimed poll is most of a polling loop's calls, and its wrapper's fast side
 * (hook-mpi-req.c, hook-mpi-p2p.c) does no more than the call and the count: whenever its
 * next poll goes untimed, the run is armed with a pointer to the count of each of its
 * functions that has a fast side (run->armed, a slot per such function, hook->arm), so that
 * functions taking turns in one loop (HPCC's MPI_Testany and MPI_Test) each keep theirs.  The
 * fast side then checks no more than what may have changed since: that nothing was written
 * on the thread (pos) and the thread records (recording on, not nested), and, after the call,
 * pos again and that no flush copied the buffer (flushed); it counts in the record itself, in
 * the spool, as every poll is counted, and takes one from the polls left untimed.  What else
 * a run needs to be counted in (a record, the same buffer, the function's unit, a poll
 * untimed) holds while it is armed: a new buffer, the next poll timed, a poll the run cannot
 * count and a new run disarm it. */
#ifndef TPROF_POLL_H
#define TPROF_POLL_H

#include "api.h"

/* Slow side of tprof_poll_missed: opens a run or adds a function to the open one. */
void tprof_poll_open(struct tprof_thread *t, struct tprof_hook *h, uint64_t t0, uint64_t t1);

#define TPROF_POLL_EXACT 16u
#define TPROF_POLL_EVERY 127u

/* The run is armed no more: its next poll is timed, or it is over. */
static inline void tprof_poll_disarm(struct tprof_pollrun *run)
{
	for (unsigned k = 0; k < TPROF_POLL_ARMS; k++)
		run->armed[k] = NULL;
}

/* The slots of `armed` that may be armed, a bit each: a runtime turns off those of fast sides
 * that its state rules out (MPI's under MPI_THREAD_MULTIPLE, mpi-runtime.c). */
extern unsigned tprof_poll_arms_on;

/* The run counted a poll (record r): armed, while its next poll goes untimed, with the count
 * of each of its functions that has a fast side. */
static inline void tprof_poll_arm(struct tprof_pollrun *run, struct tprof_rec *r)
{
	if (!run->untimed) {
		tprof_poll_disarm(run);
		return;
	}
	struct tprof_poll_fn *f = (struct tprof_poll_fn *)(r + 1);
	unsigned on = __atomic_load_n(&tprof_poll_arms_on, __ATOMIC_RELAXED);
	for (unsigned i = 0; i < run->n; i++) {
		unsigned k = run->hooks[i]->arm;
		if (k && (on >> (k - 1) & 1))
			run->armed[k - 1] = &f[i].count;
	}
}

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
		struct tprof_pollrun *run = &t->poll;
		for (unsigned i = 0; i < run->n; i++, f++) {
			if (run->hooks[i] != h)
				continue;
			uint32_t d = tprof_poll_ticks32(t1 - t0);
			f->count++;
			f->busy += t1 - t0;
			if (f->timed != UINT32_MAX)
				f->timed++;
			if (d < f->min)
				f->min = d;
			if (d > f->max)
				f->max = d;
			run->untimed = ++run->polls >= TPROF_POLL_EXACT ? TPROF_POLL_EVERY - 1 : 0;
			tprof_poll_arm(run, r);
			__atomic_store_n(&r->t1, t1, __ATOMIC_RELEASE);
			tprof_busy_leave(t);
			return;
		}
	}
	tprof_busy_leave(t);
	tprof_poll_open(t, h, t0, t1);
}

/* Whether the thread's next poll goes untimed: counted alone if it misses (see above).  Not
 * once anything else was written on the thread since the run's record: the run is over. */
static inline int tprof_poll_untimed(const struct tprof_thread *t)
{
	return t->poll.untimed != 0 && t->pos == t->poll.end;
}

/* Slow side of tprof_poll_count: the run's unit for h, looked for. */
int tprof_poll_count_unit(struct tprof_thread *t, struct tprof_hook *h);

/* An untimed poll missed, of the function with fast side k (its hook's arm - 1), the run
 * armed for it as the poll began: counted, 0 when the run can no longer count it.  Busy, so
 * that no signal handler hands the buffer to the flusher under the count.  Nothing else can
 * disarm the run meanwhile (a poll nested in the call passes through, guard) but a new
 * buffer, which also spoils flushed_then (tprof_pollrun_leave_buffer). */
static inline int tprof_poll_count_armed(struct tprof_thread *t, unsigned k)
{
	struct tprof_pollrun *run = &t->poll;
	tprof_busy_enter(t);
	uint64_t *count = run->armed[k];
	if (TPROF_LIKELY(count && t->pos == run->end &&
			 __atomic_load_n(run->flushed, __ATOMIC_RELAXED) == run->flushed_then)) {
		(*count)++;
		if (TPROF_UNLIKELY(--run->untimed == 0))
			tprof_poll_disarm(run);   /* the next poll is timed */
		tprof_busy_leave(t);
		return 1;
	}
	tprof_busy_leave(t);
	return 0;
}

/* An untimed poll of h missed: counted in the open run.  0 when the run is no longer open or
 * has no unit for h: the caller times it from its return, as a poll of its own. */
static inline int tprof_poll_count(struct tprof_thread *t, struct tprof_hook *h)
{
	return (h->arm && tprof_poll_count_armed(t, h->arm - 1u)) || tprof_poll_count_unit(t, h);
}

/* An untimed poll succeeded at `at` (ticks, its return): the open run, if it is still open,
 * ends there, and the next poll is timed. */
static inline void tprof_poll_close(struct tprof_thread *t, uint64_t at)
{
	tprof_busy_enter(t);
	struct tprof_rec *r = tprof_poll_current(t);
	if (r)
		__atomic_store_n(&r->t1, at, __ATOMIC_RELEASE);
	t->poll.untimed = 0;
	tprof_poll_disarm(&t->poll);
	tprof_busy_leave(t);
}

#endif
