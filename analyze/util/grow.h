/* grow.h — room in a growable array: the helpers the analyzer's stages share for their
 * arrays that double when full (and abort when memory is out), appended to or indexed by id. */
#ifndef TPROF_ANALYZE_GROW_H
#define TPROF_ANALYZE_GROW_H

#include <stdlib.h>
#include <string.h>

/* p (of *cap elements of size bytes, n used) with room for element n: doubled from first
 * (or first elements) when full. */
static inline void *util_grow(void *p, size_t *cap, size_t n, size_t size, size_t first)
{
	if (n < *cap)
		return p;
	size_t nc = *cap ? *cap * 2 : first;
	void *np = realloc(p, nc * size);
	if (!np)
		abort();
	*cap = nc;
	return np;
}

/* p (of *cap elements of size bytes) with room for element i, an index (a string id, say):
 * doubled from first (or first elements) until it does, each byte of the new elements set to
 * fill (0: zeros, 0xff: -1 in every integer). */
static inline void *util_grow_index(void *p, size_t *cap, size_t i, size_t size, size_t first,
				    int fill)
{
	if (i < *cap)
		return p;
	size_t nc = *cap ? *cap : first;
	while (nc <= i)
		nc *= 2;
	unsigned char *np = realloc(p, nc * size);
	if (!np)
		abort();
	memset(np + *cap * size, fill, (nc - *cap) * size);
	*cap = nc;
	return np;
}

#endif
