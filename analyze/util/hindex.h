/* hindex.h — the analyzer's hash index, for keys longer than 64 bits (strings; a process,
 * device and stream; a parent, name and kind...).  The records stay in the caller's own array
 * (or anywhere the caller can number them from 1); the index keeps each one's number and
 * hash, by open addressing with linear probing, doubled when half full, so that growing it
 * never calls back.  A lookup visits the records of the same hash only, and the caller, who
 * knows the key, says which one holds it:
 *
 *	size_t at;
 *	for (uint32_t id = hindex_first(&x, h, &at); id; id = hindex_next(&x, h, &at))
 *		if (same_key(&recs[id], key))
 *			return id;
 *	(the record appended as number id)
 *	hindex_add(&x, h, id);
 *
 * The hash should have mixed low bits (common/hash.h), which pick the slot.  Keys of 64 bits
 * or fewer go in the hash map (u64map.h). */
#ifndef TPROF_ANALYZE_HINDEX_H
#define TPROF_ANALYZE_HINDEX_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "../../common/xalloc.h"

struct hindex {
	uint64_t *hashes;
	uint32_t *ids;                  /* 0: a free slot */
	size_t n, cap;                  /* records indexed; slots, a power of two */
};

/* From a slot on to the next one holding a record of hash h: its number, or 0. */
static inline uint32_t hindex_scan(const struct hindex *x, uint64_t h, size_t *at)
{
	for (size_t i = *at; x->ids[i]; i = (i + 1) & (x->cap - 1))
		if (x->hashes[i] == h) {
			*at = i;
			return x->ids[i];
		}
	return 0;
}

/* The first record of hash h (0: none); at keeps the place for hindex_next. */
static inline uint32_t hindex_first(const struct hindex *x, uint64_t h, size_t *at)
{
	if (!x->cap)
		return 0;
	*at = (size_t)h & (x->cap - 1);
	return hindex_scan(x, h, at);
}

/* The next record of hash h after the one at (0: no more). */
static inline uint32_t hindex_next(const struct hindex *x, uint64_t h, size_t *at)
{
	*at = (*at + 1) & (x->cap - 1);
	return hindex_scan(x, h, at);
}

static inline void hindex_put_slot(struct hindex *x, uint64_t h, uint32_t id)
{
	size_t i = (size_t)h & (x->cap - 1);
	while (x->ids[i])
		i = (i + 1) & (x->cap - 1);
	x->hashes[i] = h;
	x->ids[i] = id;
}

/* Indexes record id (not 0) under hash h. */
static inline void hindex_add(struct hindex *x, uint64_t h, uint32_t id)
{
	if ((x->n + 1) * 2 > x->cap) {
		struct hindex g = { NULL, NULL, x->n, x->cap ? x->cap * 2 : 64 };
		g.hashes = xmallocarray(g.cap, sizeof(*g.hashes));
		g.ids = xcalloc(g.cap, sizeof(*g.ids));
		for (size_t i = 0; i < x->cap; i++)
			if (x->ids[i])
				hindex_put_slot(&g, x->hashes[i], x->ids[i]);
		free(x->hashes);
		free(x->ids);
		*x = g;
	}
	hindex_put_slot(x, h, id);
	x->n++;
}

/* Takes record id, indexed under hash h, out of the index (nothing when it is not there). */
static inline void hindex_del(struct hindex *x, uint64_t h, uint32_t id)
{
	size_t at, mask = x->cap - 1;
	uint32_t got = hindex_first(x, h, &at);
	while (got && got != id)
		got = hindex_next(x, h, &at);
	if (!got)
		return;
	/* Records after the hole whose probe passed it move into it. */
	size_t i = at;
	for (size_t j = (i + 1) & mask; x->ids[j]; j = (j + 1) & mask) {
		size_t home = (size_t)x->hashes[j] & mask;
		if (((j - home) & mask) >= ((j - i) & mask)) {
			x->hashes[i] = x->hashes[j];
			x->ids[i] = x->ids[j];
			i = j;
		}
	}
	x->ids[i] = 0;
	x->n--;
}

/* Record from, indexed under hash h, is now numbered to (it moved in the caller's array: the
 * last record into the place of one taken out, say). */
static inline void hindex_renumber(struct hindex *x, uint64_t h, uint32_t from, uint32_t to)
{
	size_t at;
	uint32_t got = hindex_first(x, h, &at);
	while (got && got != from)
		got = hindex_next(x, h, &at);
	if (got)
		x->ids[at] = to;
}

static inline void hindex_free(struct hindex *x)
{
	free(x->hashes);
	free(x->ids);
	*x = (struct hindex){ 0 };
}

#endif
