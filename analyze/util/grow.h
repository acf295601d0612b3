/* grow.h — room in a growable array: the helpers the analyzer's stages share for their
 * arrays that double when full, appended to or indexed by id.  Out of memory, the program says
 * so, naming the caller, and exits (common/xalloc.h). */
#ifndef TPROF_ANALYZE_GROW_H
#define TPROF_ANALYZE_GROW_H

#include <stdlib.h>
#include <string.h>

#include "../../common/xalloc.h"

/* p (of *cap elements of size bytes, n used) with room for element n: doubled from first
 * (or first elements) when full. */
#define util_grow(p, cap, n, size, first) util_grow_at((p), (cap), (n), (size), (first), XALLOC_AT)

/* p (of *cap elements of size bytes) with room for element i, an index (a string id, say):
 * doubled from first (or first elements) until it does, each byte of the new elements set to
 * fill (0: zeros, 0xff: -1 in every integer). */
#define util_grow_index(p, cap, i, size, first, fill) \
	util_grow_index_at((p), (cap), (i), (size), (first), (fill), XALLOC_AT)

static inline void *util_grow_at(void *p, size_t *cap, size_t n, size_t size, size_t first,
				 XALLOC_WHERE)
{
	if (n < *cap)
		return p;
	size_t nc = *cap ? *cap * 2 : first;
	void *np = xreallocarray_at(p, nc, size, func, file, line);
	*cap = nc;
	return np;
}

static inline void *util_grow_index_at(void *p, size_t *cap, size_t i, size_t size,
				       size_t first, int fill, XALLOC_WHERE)
{
	if (i < *cap)
		return p;
	size_t nc = *cap ? *cap : first;
	while (nc <= i)
		nc *= 2;
	unsigned char *np = xreallocarray_at(p, nc, size, func, file, line);
	memset(np + *cap * size, fill, (nc - *cap) * size);
	*cap = nc;
	return np;
}

#endif
