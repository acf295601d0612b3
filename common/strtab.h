/* strtab.h — an image writer's string table (strtab.c, for imgwrite.c): each distinct byte
 * string gets an id, 1, 2, 3 ... in the order first seen; the writer writes a STRING record
 * for a new one. */
#ifndef TPROF_COMMON_STRTAB_H
#define TPROF_COMMON_STRTAB_H

#include <stddef.h>
#include <stdint.h>

struct tprof_strtab {
	struct tprof_strent *slots;
	size_t cap, count;
};

/* The id of s (len bytes); *added = 1 when it is new.  0 when out of memory. */
uint32_t tprof_strtab_id(struct tprof_strtab *t, const char *s, size_t len, int *added);
void tprof_strtab_free(struct tprof_strtab *t);

#endif
