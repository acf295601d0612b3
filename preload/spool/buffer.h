/* buffer.h — the hot path, the event API the hooks use: reserve units in this thread's
 * buffer and publish a record.  No lock, no system call, no allocation: a compare, a pointer
 * bump and stores (record.h); a full or missing buffer goes to thread.c's slow path. */
#ifndef TPROF_BUFFER_H
#define TPROF_BUFFER_H

#include "../core/core.h"
#include "record.h"

/* True when this thread should record now (recording, and not inside the profiler). */
static inline int tprof_should_record(const struct tprof_thread *t)
{
	return TPROF_LIKELY(__atomic_load_n(&tprof_recording, __ATOMIC_RELAXED)) && !t->guard;
}

static inline struct tprof_rec *tprof_reserve(struct tprof_thread *t, unsigned units)
{
	struct tprof_rec *r = t->pos;
	if (TPROF_UNLIKELY((size_t)(t->end - r) < units))
		return tprof_reserve_slow(t, units);
	t->pos = r + units;
	return r;
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

/* A one-unit record in one call: the common case. */
static inline void tprof_emit(struct tprof_thread *t, uint16_t kind, uint32_t name, uint64_t t0,
			      uint64_t t1, uint64_t arg)
{
	struct tprof_rec *r = tprof_reserve(t, 1);
	if (TPROF_LIKELY(r != NULL)) {
		r->t0 = t0;
		r->t1 = t1;
		r->arg = arg;
		tprof_commit(r, kind, 0, 0, name);
	}
}


#endif
