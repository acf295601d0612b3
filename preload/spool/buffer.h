/* buffer.h — the hot path, the event API the hooks use: reserve units in this thread's
 * buffer and publish a record.  No lock, no system call, no allocation: a compare, a pointer
 * bump and stores (record.h); a full or missing buffer goes to thread.c's slow path.
 *
 * A signal handler may record on the thread it interrupted.  From the reservation to the
 * record's publication the thread is `busy` (one add before, one subtract after, each a single
 * instruction so a handler sees it either way), as it is in every slow path; an annotation
 * made while busy is counted as lost (TPROF_DROP_REENTERED) and leaves a GAP record behind,
 * written as soon as the interrupted record is published. */
#ifndef TPROF_BUFFER_H
#define TPROF_BUFFER_H

#include "../core/core.h"
#include "spool.h"
#include "../../common/record.h"

#define TPROF_BUSY_GAP 0x40000000u   /* t->busy: a record was lost while busy */

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

/* Range levels pushed outside the capture window (events/capture.c): counted, not recorded,
 * and their pops neither; a range pushed inside has its pop recorded outside too.  One bit a
 * level, the deepest sharing the last. */
static inline uint32_t tprof_level_bit(int level)
{
	return 1u << (level < 31 ? level : 31);
}

/* A push outside the window: its level is noted as unrecorded. */
static inline int tprof_push_unrecorded(struct tprof_thread *t)
{
	t->unrec |= tprof_level_bit(t->depth);
	return t->depth++;
}

/* Was `level`, being popped, pushed outside the window?  Its bit goes. */
static inline int tprof_pop_unrecorded(struct tprof_thread *t, int level)
{
	uint32_t b = tprof_level_bit(level);
	if (!(t->unrec & b))
		return 0;
	if (level <= 31)
		t->unrec &= ~b;
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

/* tprof_reserve for a caller that raised t->busy itself (and did what must not be seen
 * half-done by a signal handler, such as changing the thread's range level, after it). */
static inline struct tprof_rec *tprof_reserve_busy(struct tprof_thread *t, unsigned units)
{
	struct tprof_rec *r = t->pos;
	if (TPROF_UNLIKELY((size_t)(t->end - r) < units))
		return tprof_reserve_slow(t, units);
	t->pos = r + units;
	return r;
}

/* Reserves `units` units for one record, which the caller fills and publishes with
 * tprof_commit; NULL when it is lost (counted). */
static inline struct tprof_rec *tprof_reserve(struct tprof_thread *t, unsigned units)
{
	tprof_busy_enter(t);
	return tprof_reserve_busy(t, units);
}

/* Publishes a record tprof_reserve gave: its header word last. */
static inline void tprof_commit(struct tprof_thread *t, struct tprof_rec *r, uint16_t kind,
				uint8_t ext, uint8_t flags, uint32_t name)
{
	tprof_publish(r, kind, ext, flags, name);
	tprof_busy_leave(t);
}

/* Room for the next `units` units in this thread's current buffer, or a fresh buffer now
 * (the rest of this one stays empty).  For a record finished after further records are
 * written (a call's end after what it completed): were the buffer handed to the flusher in
 * between, the flush would take the record unfinished.  At most TPROF_ROOM_MAX units. */
#define TPROF_ROOM_MAX (1u + TPROF_MAX_EXT)
static inline void tprof_room(struct tprof_thread *t, size_t units)
{
	if (TPROF_UNLIKELY((size_t)(t->end - t->pos) < units))
		tprof_room_slow(t, units < TPROF_ROOM_MAX ? (unsigned)units : TPROF_ROOM_MAX);
}

/* A one-unit record in one call: the common case.  Returns 0 when it was lost. */
static inline int tprof_emit(struct tprof_thread *t, uint16_t kind, uint32_t name, uint64_t t0,
			     uint64_t t1, uint64_t arg)
{
	struct tprof_rec *r = tprof_reserve(t, 1);
	if (TPROF_LIKELY(r != NULL)) {
		r->t0 = t0;
		r->t1 = t1;
		r->arg = arg;
		tprof_commit(t, r, kind, 0, 0, name);
		return 1;
	}
	return 0;
}


#endif
