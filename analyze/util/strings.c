/* strings.c — string sets: each string stored once, numbered in the order first seen, found
 * again by its content through the hash index; and the trace-wide set (every process numbers
 * its strings itself; the analyzer maps each onto one id here). */
#include <stdlib.h>
#include <string.h>

#include "../../common/hash.h"
#include "../../common/xalloc.h"
#include "grow.h"
#include "strings.h"

uint32_t strset_id(struct strset *t, const char *s, size_t len, int *fresh)
{
	uint64_t h = tprof_hash_table(s, len);
	size_t at;
	if (fresh)
		*fresh = 0;
	for (uint32_t id = hindex_first(&t->by_hash, h, &at); id;
	     id = hindex_next(&t->by_hash, h, &at))
		if (t->v[id - 1].len == len && !memcmp(t->v[id - 1].s, s, len))
			return id;
	t->v = util_grow(t->v, &t->cap, t->n, sizeof(*t->v), 256);
	char *copy = xmalloc(len + 1);
	memcpy(copy, s, len);
	copy[len] = 0;
	t->v[t->n++] = (struct strset_ent){ copy, (uint32_t)len };
	hindex_add(&t->by_hash, h, t->n);
	if (fresh)
		*fresh = 1;
	return t->n;
}

const char *strset_str(const struct strset *t, uint32_t id, size_t *len)
{
	if (len)
		*len = t->v[id - 1].len;
	return t->v[id - 1].s;
}

void strset_free(struct strset *t)
{
	for (uint32_t i = 0; i < t->n; i++)
		free(t->v[i].s);
	free(t->v);
	hindex_free(&t->by_hash);
	*t = (struct strset){ 0 };
}

static struct strset trace_strings;

uint32_t strings_add(const char *s, size_t len)
{
	return len ? strset_id(&trace_strings, s, len, NULL) : 0;
}

const char *strings_get(uint32_t id)
{
	return id && id <= trace_strings.n ? trace_strings.v[id - 1].s : "";
}

size_t strings_len(uint32_t id)
{
	return id && id <= trace_strings.n ? trace_strings.v[id - 1].len : 0;
}

/* Ids run from 0 (the empty string) to the count less one. */
uint32_t strings_count(void)
{
	return trace_strings.n + 1;
}

void strings_free(void)
{
	strset_free(&trace_strings);
}
