/* record.h — publishing a record and looking at one: the header word is stored last, with
 * release order, so a reader of a mapped buffer (after any kind of process death, or while
 * its thread still writes) sees a record whole or not at all.  No calls, no state. */
#ifndef TPROF_RECORD_H
#define TPROF_RECORD_H

#include "format.h"

static inline void tprof_publish(struct tprof_rec *r, uint16_t kind, uint8_t ext, uint8_t flags,
				 uint32_t name)
{
	uint64_t w = (uint64_t)kind | (uint64_t)ext << 16 | (uint64_t)flags << 24 |
		     (uint64_t)name << 32;
	__atomic_store_n((tprof_word *)r, w, __ATOMIC_RELEASE);
}

/* Reads the header word of a record that another thread may be publishing. */
static inline uint16_t tprof_peek_kind(const struct tprof_rec *r)
{
	return (uint16_t)__atomic_load_n((const tprof_word *)r, __ATOMIC_ACQUIRE);
}

#endif
