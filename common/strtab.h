/* strtab.h — the recorder's string table (strtab.c): each distinct byte string gets an id,
 * 1, 2, 3 ... in the order first seen, and a copy kept until the table is freed; whoever
 * asks writes a STRING record for a new one (spool/intern.c for the program's strings,
 * imgwrite.c for an image writer's).  Out of memory it answers 0 and never aborts. */
#ifndef TPROF_COMMON_STRTAB_H
#define TPROF_COMMON_STRTAB_H

#include <stddef.h>
#include <stdint.h>

struct tprof_strtab {
	struct tprof_strent *slots;
	size_t cap, count;
};

/* The id of s (len bytes); *added = 1 when it is new, and *stored (when stored is not NULL)
 * the table's copy of it, which lives as long as the table.  0 when out of memory. */
uint32_t tprof_strtab_id(struct tprof_strtab *t, const char *s, size_t len, int *added,
			 const char **stored);
void tprof_strtab_free(struct tprof_strtab *t);

#endif
