/* chrome-arena.c — the bump arena of chrome-arena.h: a first block reused for every event, more
 * blocks chained when one event needs them. */
#include <stdlib.h>

#include "../../common/xalloc.h"
#include "chrome-arena.h"

#define FIRST_BLOCK (64 * 1024)
/* After an event larger than this, the first block shrinks back to FIRST_BLOCK. */
#define KEEP_MAX (4 * 1024 * 1024)

struct block {
	struct block *next;
	size_t size;
	max_align_t data[];
};

static struct block *block_new(size_t size)
{
	struct block *b = xmalloc(sizeof(*b) + size);
	b->next = NULL;
	b->size = size;
	return b;
}

static void use(struct chrome_arena *a, struct block *b)
{
	a->at = (char *)b->data;
	a->end = a->at + b->size;
}

/* The slow path: a new block as large as all before it (twice the request at least). */
void *chrome_arena_alloc_slow(struct chrome_arena *a, size_t n)
{
	size_t size = a->total > n * 2 ? a->total : n * 2;
	struct block *b = block_new(size);
	b->next = a->extra;
	a->extra = b;
	a->total += size;
	use(a, b);
	void *p = a->at;
	a->at += n;
	return p;
}

void chrome_arena_reset(struct chrome_arena *a)
{
	if (a->extra) {
		size_t total = a->total;
		while (a->extra) {
			struct block *b = a->extra;
			a->extra = b->next;
			free(b);
		}
		/* One block for what the event needed, so the next like it needs no more. */
		free(a->first);
		a->first = block_new(total <= KEEP_MAX ? total : FIRST_BLOCK);
		a->total = a->first->size;
	}
	use(a, a->first);
}

struct chrome_arena *chrome_arena_new(void)
{
	struct chrome_arena *a = xcalloc(1, sizeof(*a));
	a->first = block_new(FIRST_BLOCK);
	a->total = FIRST_BLOCK;
	use(a, a->first);
	return a;
}

void chrome_arena_free(struct chrome_arena *a)
{
	if (!a)
		return;
	chrome_arena_reset(a);
	free(a->first);
	free(a);
}
