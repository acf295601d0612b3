/* render/perfetto/intern.c — string numbering by content (open addressing with linear probing,
 * kept at most half full) and sets of numbers (util/u64map.h). */
#include <stdlib.h>
#include <string.h>

#include "../../../common/xalloc.h"
#include "intern.h"

static uint64_t hash_bytes(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;   /* FNV-1a */
	for (size_t i = 0; i < n; i++)
		h = (h ^ (uint8_t)s[i]) * 0x100000001b3ull;
	return h ^ (h >> 29);
}

static void strmap_grow(struct pf_strmap *m)
{
	size_t cap = m->cap ? m->cap * 2 : 64;
	struct pf_str *v = xcalloc(cap, sizeof(*v));
	uint32_t *order = xreallocarray(m->order, cap / 2, sizeof(*order));
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->v[i].s)
			continue;
		size_t j = m->v[i].hash & (cap - 1);
		while (v[j].s)
			j = (j + 1) & (cap - 1);
		v[j] = m->v[i];
		order[v[j].id - 1] = (uint32_t)j;
	}
	free(m->v);
	m->v = v;
	m->order = order;
	m->cap = cap;
}

uint32_t pf_strmap_id(struct pf_strmap *m, const char *s, size_t len, int *fresh)
{
	if ((m->n + 1) * 2 > m->cap)
		strmap_grow(m);
	uint64_t h = hash_bytes(s, len);
	size_t j = h & (m->cap - 1);
	for (; m->v[j].s; j = (j + 1) & (m->cap - 1))
		if (m->v[j].hash == h && m->v[j].len == len && !memcmp(m->v[j].s, s, len)) {
			if (fresh)
				*fresh = 0;
			return m->v[j].id;
		}
	char *copy = xmalloc(len + 1);
	memcpy(copy, s, len);
	copy[len] = 0;
	m->v[j] = (struct pf_str){ h, copy, (uint32_t)len, (uint32_t)++m->n };
	m->order[m->n - 1] = (uint32_t)j;
	if (fresh)
		*fresh = 1;
	return m->v[j].id;
}

const char *pf_strmap_str(const struct pf_strmap *m, uint32_t id, size_t *len)
{
	const struct pf_str *e = &m->v[m->order[id - 1]];
	*len = e->len;
	return e->s;
}

void pf_strmap_free(struct pf_strmap *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->v[i].s);
	free(m->v);
	free(m->order);
	*m = (struct pf_strmap){ 0 };
}

int pf_idset_add(struct pf_idset *s, uint64_t k)
{
	if (u64map_get(&s->m, k))
		return 0;
	u64map_put(&s->m, k, 0);
	return 1;
}

void pf_idset_free(struct pf_idset *s)
{
	u64map_free(&s->m);
}
