/* chrome-arena.h — a bump arena for the tree of the event being parsed, emptied before the next
 * event: a tree of a dozen nodes costs no malloc. */
#ifndef TPROF_ANALYZE_CHROME_ARENA_H
#define TPROF_ANALYZE_CHROME_ARENA_H

#include <stddef.h>

struct chrome_arena {
	char *at, *end;                 /* the free part of the current block */
	struct block *first, *extra;    /* extra: further blocks of this event, newest first */
	size_t total;                   /* bytes in all blocks */
};

struct chrome_arena *chrome_arena_new(void);
void *chrome_arena_alloc_slow(struct chrome_arena *a, size_t n);

/* Memory for n bytes, aligned for any type (16 bytes at least); valid until the next reset. */
static inline void *chrome_arena_alloc(struct chrome_arena *a, size_t n)
{
	n = (n + 15) & ~(size_t)15;
	if ((size_t)(a->end - a->at) < n)
		return chrome_arena_alloc_slow(a, n);
	void *p = a->at;
	a->at += n;
	return p;
}

/* Forgets everything allocated from it (keeping a block for the next event). */
void chrome_arena_reset(struct chrome_arena *a);
void chrome_arena_free(struct chrome_arena *a);

#endif
