/* hpool.h — a pool of the caller's records found by a key longer than 64 bits, for the tables
 * whose records come and go (messages, collectives and spans in flight): each record begins
 * with a struct hpool_item, the pool holds pointers to them, in no order, and finds them
 * through the hash index (hindex.h).  A record taken out is replaced by the last one, so
 * that adding and taking out cost a probe and memory follows the records held.
 *
 *	size_t at;
 *	for (struct rec *r = hpool_first(&p, h, &at); r; r = hpool_next(&p, h, &at))
 *		if (same_key(r, key))
 *			return r;
 *
 * The records themselves are the caller's to allocate and free. */
#ifndef TPROF_ANALYZE_HPOOL_H
#define TPROF_ANALYZE_HPOOL_H

#include "grow.h"
#include "hindex.h"

struct hpool_item {
	uint64_t hash;                  /* of its key */
	uint32_t id;                    /* its place in the pool + 1; 0: not in it */
};

struct hpool {
	struct hpool_item **v;          /* the records held, v[0] to v[n - 1] */
	size_t n, cap;
	struct hindex by_hash;
};

/* The first record of hash h (NULL: none); at keeps the place for hpool_next. */
static inline void *hpool_first(const struct hpool *p, uint64_t h, size_t *at)
{
	uint32_t id = hindex_first(&p->by_hash, h, at);
	return id ? p->v[id - 1] : NULL;
}

static inline void *hpool_next(const struct hpool *p, uint64_t h, size_t *at)
{
	uint32_t id = hindex_next(&p->by_hash, h, at);
	return id ? p->v[id - 1] : NULL;
}

/* Puts the record it (its key's hash h) in the pool. */
static inline void hpool_add(struct hpool *p, struct hpool_item *it, uint64_t h)
{
	p->v = util_grow(p->v, &p->cap, p->n, sizeof(*p->v), 64);
	p->v[p->n++] = it;
	it->hash = h;
	it->id = (uint32_t)p->n;
	hindex_add(&p->by_hash, h, it->id);
}

/* Takes the record it out of the pool (nothing when it is not in it): the last one takes its
 * place. */
static inline void hpool_remove(struct hpool *p, struct hpool_item *it)
{
	if (!it->id)
		return;
	struct hpool_item *last = p->v[p->n - 1];
	hindex_del(&p->by_hash, it->hash, it->id);
	if (last != it) {
		hindex_renumber(&p->by_hash, last->hash, last->id, it->id);
		last->id = it->id;
		p->v[it->id - 1] = last;
	}
	p->n--;
	it->id = 0;
}

static inline void hpool_free(struct hpool *p)
{
	free(p->v);
	hindex_free(&p->by_hash);
	*p = (struct hpool){ 0 };
}

#endif
