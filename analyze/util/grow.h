/* grow.h — room for one more element in a growable array: the one helper the analyzer's
 * stages share for their arrays that double when full (and abort when memory is out). */
#ifndef TPROF_ANALYZE_GROW_H
#define TPROF_ANALYZE_GROW_H

#include <stdlib.h>

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

#endif
