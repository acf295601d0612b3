/* idmap.h — a map from 64-bit keys to 32-bit values (open addressing, linear probing,
 * doubled when half full): for ids a file chose (string and stream ids, identifiers of
 * ranges, a file's device and inode), so that no id read from a file sizes an array; memory
 * follows the ids present.  Keys are mixed by a bijection, so any key may be stored; the one
 * key that mixes to 0 (the empty slot) is kept aside. */
#ifndef TPROF_ANALYZE_IDMAP_H
#define TPROF_ANALYZE_IDMAP_H

#include <stdint.h>
#include <stdlib.h>

struct idmap {
	uint64_t *keys;                 /* mixed keys, 0: empty */
	uint32_t *vals;
	size_t n, cap;
	int has_zero;                   /* the key that mixes to 0 is present, with zero_val */
	uint32_t zero_val;
};

/* splitmix64's finish: a bijection that spreads every bit into the low ones. */
static inline uint64_t idmap_mix(uint64_t k)
{
	k ^= k >> 30;
	k *= 0xbf58476d1ce4e5b9ull;
	k ^= k >> 27;
	k *= 0x94d049bb133111ebull;
	return k ^ (k >> 31);
}

/* The value of key, or NULL. */
static inline uint32_t *idmap_find(struct idmap *m, uint64_t key)
{
	uint64_t h = idmap_mix(key);
	if (!h)
		return m->has_zero ? &m->zero_val : NULL;
	if (!m->cap)
		return NULL;
	for (size_t i = h & (m->cap - 1); m->keys[i]; i = (i + 1) & (m->cap - 1))
		if (m->keys[i] == h)
			return &m->vals[i];
	return NULL;
}

static inline void idmap_put_mixed(struct idmap *m, uint64_t h, uint32_t val)
{
	size_t i = h & (m->cap - 1);
	while (m->keys[i] && m->keys[i] != h)
		i = (i + 1) & (m->cap - 1);
	if (!m->keys[i])
		m->n++;
	m->keys[i] = h;
	m->vals[i] = val;
}

/* Sets key's value (adding the key when absent). */
static inline void idmap_put(struct idmap *m, uint64_t key, uint32_t val)
{
	uint64_t h = idmap_mix(key);
	if (!h) {
		m->has_zero = 1;
		m->zero_val = val;
		return;
	}
	if ((m->n + 1) * 2 > m->cap) {
		struct idmap g = { 0 };
		g.cap = m->cap ? m->cap * 2 : 64;
		g.keys = calloc(g.cap, sizeof(*g.keys));
		g.vals = malloc(g.cap * sizeof(*g.vals));
		if (!g.keys || !g.vals)
			abort();
		for (size_t i = 0; i < m->cap; i++)
			if (m->keys[i])
				idmap_put_mixed(&g, m->keys[i], m->vals[i]);
		free(m->keys);
		free(m->vals);
		m->keys = g.keys;
		m->vals = g.vals;
		m->cap = g.cap;
	}
	idmap_put_mixed(m, h, val);
}

/* Removes key (when present): the entries after it in its run move back into the gap. */
static inline void idmap_del(struct idmap *m, uint64_t key)
{
	uint64_t h = idmap_mix(key);
	if (!h) {
		m->has_zero = 0;
		return;
	}
	if (!m->cap)
		return;
	size_t i = h & (m->cap - 1), mask = m->cap - 1;
	while (m->keys[i] && m->keys[i] != h)
		i = (i + 1) & mask;
	if (!m->keys[i])
		return;
	m->keys[i] = 0;
	m->n--;
	for (size_t j = (i + 1) & mask; m->keys[j]; j = (j + 1) & mask) {
		size_t home = m->keys[j] & mask;
		/* j's entry may fill the gap at i when its home is not in (i, j] */
		if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
			m->keys[i] = m->keys[j];
			m->vals[i] = m->vals[j];
			m->keys[j] = 0;
			i = j;
		}
	}
}

static inline void idmap_free(struct idmap *m)
{
	free(m->keys);
	free(m->vals);
	*m = (struct idmap){ 0 };
}

#endif
