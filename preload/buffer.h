/* buffer.h — the hot path: reserve units in this thread's buffer and publish a record.
 * No lock, no system call, no allocation: a compare, a pointer bump and stores.  The header
 * word is stored last with release order, so a record is either wholly visible to a reader
 * of the mapped buffer (after any kind of process death) or not there at all. */
#ifndef TPROF_BUFFER_H
#define TPROF_BUFFER_H

#include "core.h"

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

static inline void tprof_commit(struct tprof_rec *r, uint16_t kind, uint8_t ext, uint8_t flags,
				uint32_t name)
{
	uint64_t w = (uint64_t)kind | (uint64_t)ext << 16 | (uint64_t)flags << 24 |
		     (uint64_t)name << 32;
	__atomic_store_n((tprof_word *)r, w, __ATOMIC_RELEASE);
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

/* Reads the header word of a record that another thread may be publishing. */
static inline uint16_t tprof_peek_kind(const struct tprof_rec *r)
{
	return (uint16_t)__atomic_load_n((const tprof_word *)r, __ATOMIC_ACQUIRE);
}

#endif
