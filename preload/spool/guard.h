/* guard.h — whether this thread may record now, and its guard against a signal handler: a
 * thread is `busy` from a record's reservation to its publication (one add before, one
 * subtract after, each a single instruction so a handler sees it either way), as it is in
 * every slow path, and `inside` (guard and busy) in the recorder's own work, where runtime
 * calls are not recorded.
 *
 * An annotation made while busy is counted as lost (TPROF_DROP_REENTERED) and noted for a GAP
 * record, written as soon as the interrupted record is published: right after it where the
 * buffer has room, else first in the thread's next buffer (guard.c).  The records lost for
 * any reason are counted and noted here too. */
#ifndef TPROF_GUARD_H
#define TPROF_GUARD_H

#include "../core/core.h"
#include "../../common/record.h"

#define TPROF_BUSY_GAP 0x40000000u   /* t->busy: a record was lost while busy */

/* guard.c: records lost, the GAP record that marks their place */
void tprof_busy_after(struct tprof_thread *t);  /* busy fell to 0 with a GAP record due */
int tprof_busy_after_ret(struct tprof_thread *t, int ret);   /* the same, returning ret */
/* `n` records of the thread were lost for `reason`: counted, and noted for its next GAP. */
void tprof_lost(struct tprof_thread *t, unsigned reason, uint64_t n);
/* What a lost record did (kind PUSH, POP, ABEGIN, AEND or STEP; level of a PUSH/POP, 0-based),
 * for the next GAP record. */
void tprof_lost_what(struct tprof_thread *t, uint16_t kind, int level);
/* The GAP record of what was lost since the last one, into the two units at r. */
void tprof_gap_write(struct tprof_thread *t, struct tprof_rec *r);
/* The same at the end of the thread's buffer when it has room; 1 when written there. */
int tprof_gap_here(struct tprof_thread *t);

/* True when this thread should record a runtime call now (recording, and neither inside a
 * wrapped call nor busy in the profiler).  guard and busy are read as the 4-byte words they
 * are written as: one 8-byte load of both right after a 4-byte store to either (the last
 * call's guard--, as a polling loop makes one call after another) cannot take its value from
 * the store and waits for it to reach the cache, some 5 ns a call. */
static inline int tprof_should_record(const struct tprof_thread *t)
{
	return TPROF_LIKELY(__atomic_load_n(&tprof_recording, __ATOMIC_RELAXED)) &&
	       !(t->guard | (int)t->busy);
}

/* t->busy + 1, in one instruction, before anything that follows. */
static inline void tprof_busy_enter(struct tprof_thread *t)
{
#if defined(__x86_64__) || defined(__i386__)
	__asm__ volatile("addl $1, %0" : "+m"(t->busy) : : "cc", "memory");
#else
	__atomic_add_fetch(&t->busy, 1, __ATOMIC_RELAXED);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
#endif
}

/* t->busy - 1, in one instruction, after everything before; a GAP record due (or an outer
 * level still busy) takes the slow path. */
static inline void tprof_busy_leave(struct tprof_thread *t)
{
#if defined(__x86_64__) || defined(__i386__)
	__asm__ goto("subl $1, %0\n\tjnz %l[more]" : : "m"(t->busy) : "cc", "memory" : more);
	return;
more:
	tprof_busy_after(t);
#else
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (__atomic_sub_fetch(&t->busy, 1, __ATOMIC_RELAXED))
		tprof_busy_after(t);
#endif
}

/* Inside the recorder's own work on this thread: runtime calls are not recorded (guard), nor
 * annotations of a signal handler that interrupts it (busy). */
static inline void tprof_inside_enter(struct tprof_thread *t)
{
	t->guard++;
	tprof_busy_enter(t);
}

static inline void tprof_inside_leave(struct tprof_thread *t)
{
	tprof_busy_leave(t);
	t->guard--;
}

/* The same, returning ret: a tail call when a GAP record is due, so that the caller keeps
 * nothing across it. */
static inline int tprof_busy_leave_ret(struct tprof_thread *t, int ret)
{
#if defined(__x86_64__) || defined(__i386__)
	__asm__ goto("subl $1, %0\n\tjnz %l[more]" : : "m"(t->busy) : "cc", "memory" : more);
	return ret;
more:
	return tprof_busy_after_ret(t, ret);
#else
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (__atomic_sub_fetch(&t->busy, 1, __ATOMIC_RELAXED))
		return tprof_busy_after_ret(t, ret);
	return ret;
#endif
}

/* Whether a record of `kind` may be made now on this thread: not while it is busy (a signal
 * handler interrupted the recorder), where it is counted as lost instead. */
static inline int tprof_not_busy(struct tprof_thread *t, uint16_t kind)
{
	if (TPROF_UNLIKELY(t->busy != 0)) {
		tprof_lost(t, TPROF_DROP_REENTERED, 1);
		tprof_lost_what(t, kind, -1);
		return 0;
	}
	return 1;
}

/* True when an annotation (the tprof API, roctx) of `kind` is to be recorded now.  Unlike
 * runtime calls it is recorded inside a wrapped call too; made while the thread is busy (a
 * signal handler that interrupted the recorder), it is counted as lost instead.  (The levels
 * of a handler's own ranges are not noted: they open and close within it.) */
static inline int tprof_annotating(struct tprof_thread *t, uint16_t kind)
{
	if (TPROF_UNLIKELY(!__atomic_load_n(&tprof_recording, __ATOMIC_RELAXED)))
		return 0;
	return tprof_not_busy(t, kind);
}

#endif
