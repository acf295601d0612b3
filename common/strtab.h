/* strtab.h — the recorder's string table (strtab.c): each distinct byte string gets an id,
 * 1, 2, 3 ... in the order first seen, and a copy kept until the table is freed; whoever
 * asks writes a STRING record for a new one (spool/intern.c for the program's strings,
 * imgwrite.c for an image writer's).  Open addressing with linear probing, kept at most half
 * full, on the hash its caller gives; a string found costs no call.  Out of memory it answers
 * 0 and never aborts. */
#ifndef TPROF_COMMON_STRTAB_H
#define TPROF_COMMON_STRTAB_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct tprof_strtab {
	struct tprof_strent {
		uint64_t hash;
		char *str;               /* NULL: a free slot */
		size_t len;
		uint32_t id;
	} *slots;
	size_t cap, count;
};

/* Adds s (not in the table) as the next id: strtab_id's other half. */
uint32_t tprof_strtab_add(struct tprof_strtab *t, const char *s, size_t len, uint64_t h,
			  const char **stored);
void tprof_strtab_free(struct tprof_strtab *t);

/* The id of s (len bytes, of hash h: a 64-bit hash of its bytes whose low bits vary, the
 * caller's own, common/hash.h); *added = 1 when it is new, and *stored (when stored is not
 * NULL) the table's copy of it, which lives as long as the table.  0 when out of memory. */
static inline uint32_t tprof_strtab_id(struct tprof_strtab *t, const char *s, size_t len,
				       uint64_t h, int *added, const char **stored)
{
	for (size_t j = h & (t->cap - 1); t->cap && t->slots[j].str; j = (j + 1) & (t->cap - 1))
		if (t->slots[j].hash == h && t->slots[j].len == len &&
		    !memcmp(t->slots[j].str, s, len)) {
			*added = 0;
			if (stored)
				*stored = t->slots[j].str;
			return t->slots[j].id;
		}
	uint32_t id = tprof_strtab_add(t, s, len, h, stored);
	*added = id != 0;
	return id;
}

#endif
