/* intern.h — string ids on the hot path: a per-thread cache keyed by pointer for strings in
 * read-only memory (string literals), by content for everything else. */
#ifndef TPROF_INTERN_H
#define TPROF_INTERN_H

#include "spool.h"

#define TPROF_STRCACHE_BITS 7u
#define TPROF_STRCACHE_SIZE (1u << TPROF_STRCACHE_BITS)

/* Slot of a pointer: multiplicative hashing, so neighbouring literals do not collide. */
static inline unsigned tprof_strcache_slot(const void *p)
{
	return (unsigned)(((uintptr_t)p * 0x9e3779b97f4a7c15ull) >> (64 - TPROF_STRCACHE_BITS));
}

struct tprof_strcache {
	struct {
		const char *ptr;
		uint32_t id;
		uint32_t gen;
	} byptr[TPROF_STRCACHE_SIZE];
	struct {
		uint64_t hash;
		const char *stored;
		uint32_t len;
		uint32_t id;
		uint32_t gen;
	} byval[TPROF_STRCACHE_SIZE];
};

extern uint32_t tprof_intern_gen;

/* The id of s from the thread's cache of string literals, or 0. */
static inline uint32_t tprof_string_id_cached(const struct tprof_thread *t, const char *s)
{
	const struct tprof_strcache *c = t->cache;
	if (TPROF_LIKELY(c != NULL)) {
		unsigned i = tprof_strcache_slot(s);
		if (TPROF_LIKELY(c->byptr[i].ptr == s &&
				 c->byptr[i].gen == __atomic_load_n(&tprof_intern_gen, __ATOMIC_RELAXED)))
			return c->byptr[i].id;
	}
	return 0;
}

static inline uint32_t tprof_string_id(struct tprof_thread *t, const char *s)
{
	uint32_t id = tprof_string_id_cached(t, s);
	return TPROF_LIKELY(id != 0) ? id : tprof_intern_slow(t, s);
}

#endif
