/* u64map.h — the analyzer's hash map: 64-bit keys (any value) to 32-bit values, by open
 * addressing with linear probing, doubled when half full, entries removed by shifting back
 * those that probed past them.  Memory follows the entries put (an empty map holds nothing),
 * and every look costs a probe whatever the keys: the tables that the input's ids, pids and
 * tids index go through it, never through a list searched from the start. */
#ifndef TPROF_ANALYZE_U64MAP_H
#define TPROF_ANALYZE_U64MAP_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "../../common/xalloc.h"

struct u64map {
	uint64_t *keys;                 /* 0: a free slot (the key 0 lives in zero_val) */
	uint32_t *vals;
	size_t n, cap;                  /* entries besides the key 0; slots, a power of two */
	int has_zero;
	uint32_t zero_val;
};

static inline size_t u64map_slot(const struct u64map *m, uint64_t key)
{
	key ^= key >> 31;
	key *= 0x9e3779b97f4a7c15ull;
	return (size_t)(key >> 20) & (m->cap - 1);
}

/* The value of key, or NULL. */
static inline uint32_t *u64map_get(struct u64map *m, uint64_t key)
{
	if (!key)
		return m->has_zero ? &m->zero_val : NULL;
	if (!m->cap)
		return NULL;
	for (size_t i = u64map_slot(m, key); m->keys[i]; i = (i + 1) & (m->cap - 1))
		if (m->keys[i] == key)
			return &m->vals[i];
	return NULL;
}

static inline void u64map_grow(struct u64map *m);

/* Sets key's value (added or replaced); the value's place, valid until the next put or del. */
static inline uint32_t *u64map_put(struct u64map *m, uint64_t key, uint32_t val)
{
	if (!key) {
		m->has_zero = 1;
		m->zero_val = val;
		return &m->zero_val;
	}
	if ((m->n + 1) * 2 > m->cap)
		u64map_grow(m);
	size_t i = u64map_slot(m, key);
	while (m->keys[i] && m->keys[i] != key)
		i = (i + 1) & (m->cap - 1);
	if (!m->keys[i])
		m->n++;
	m->keys[i] = key;
	m->vals[i] = val;
	return &m->vals[i];
}

static inline void u64map_grow(struct u64map *m)
{
	struct u64map g = { NULL, NULL, 0, m->cap ? m->cap * 2 : 8, m->has_zero, m->zero_val };
	g.keys = xcalloc(g.cap, sizeof(*g.keys));
	g.vals = xmallocarray(g.cap, sizeof(*g.vals));
	for (size_t i = 0; i < m->cap; i++)
		if (m->keys[i])
			u64map_put(&g, m->keys[i], m->vals[i]);
	free(m->keys);
	free(m->vals);
	*m = g;
}

/* Removes key (nothing when it is absent). */
static inline void u64map_del(struct u64map *m, uint64_t key)
{
	if (!key) {
		m->has_zero = 0;
		return;
	}
	if (!m->cap)
		return;
	size_t mask = m->cap - 1, i = u64map_slot(m, key);
	while (m->keys[i] && m->keys[i] != key)
		i = (i + 1) & mask;
	if (!m->keys[i])
		return;
	/* Entries after the hole whose probe passed it move into it. */
	for (size_t j = (i + 1) & mask; m->keys[j]; j = (j + 1) & mask) {
		size_t home = u64map_slot(m, m->keys[j]);
		if (((j - home) & mask) >= ((j - i) & mask)) {
			m->keys[i] = m->keys[j];
			m->vals[i] = m->vals[j];
			i = j;
		}
	}
	m->keys[i] = 0;
	m->n--;
}

static inline void u64map_free(struct u64map *m)
{
	free(m->keys);
	free(m->vals);
	*m = (struct u64map){ 0 };
}

#endif
