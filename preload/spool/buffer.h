/* buffer.h — the hot path, the event API the hooks use: reserve units in this thread's
 * buffer and publish a record.  No lock, no system call, no allocation: a compare, a pointer
 * bump and stores (record.h); a full or missing buffer goes to thread.c's slow path.  The
 * thread is busy from the reservation to the publication (guard.h). */
#ifndef TPROF_BUFFER_H
#define TPROF_BUFFER_H

#include "../core/core.h"
#include "../../common/record.h"
#include "guard.h"
#include "spool.h"

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
