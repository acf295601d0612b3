/* render/split/held.c — the slices the splitter keeps in another part than their end time
 * puts them in: those that came after their part was closed, and with size:MB those that
 * end after the cut that closed their part's range.  An arrow ending in one goes where it
 * went (or, when that part is closed, counts as late).  A hash table, rid of a slice once
 * its part is closed and the front is `lag` past its end; and the items of the newest part
 * that end after the front, of which a cut makes the held ones. */
#include <stdlib.h>

#include "../../../common/xalloc.h"
#include "state.h"

static size_t hash(struct track tr, int64_t t0, int64_t t1)
{
	uint64_t h = (uint64_t)tr.pid * 0x9e3779b97f4a7c15ull;
	h ^= (uint64_t)tr.tid * 0xc2b2ae3d27d4eb4full;
	h ^= (uint64_t)t0 * 0x165667b19e3779f9ull ^ (uint64_t)t1;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	return (size_t)h;
}

static int same(const struct held *h, struct track tr, int64_t t0, int64_t t1)
{
	return h->pid == tr.pid && h->tid == tr.tid && h->t0 == t0 && h->t1 == t1;
}

static void insert(struct held *v, size_t cap, const struct held *e)
{
	size_t i = hash((struct track){ e->pid, e->tid }, e->t0, e->t1) & (cap - 1);
	while (v[i].used)
		i = (i + 1) & (cap - 1);
	v[i] = *e;
}

/* A slice no arrow will come for any more: its part is closed, its end `lag` behind. */
static int gone(const struct split *s, const struct held *h, int prune)
{
	return prune && h->part < s->first_open && h->t1 < s->front - s->o.lag;
}

/* Rebuilds the table with room for n more, leaving out the slices gone when pruning. */
static void rebuild(struct split *s, size_t more, int prune)
{
	size_t n = 0;
	for (size_t i = 0; i < s->capheld; i++)
		n += s->held[i].used && !gone(s, &s->held[i], prune);
	size_t cap = 64;
	while (cap < 2 * (n + more))
		cap *= 2;
	struct held *v = xcalloc(cap, sizeof(*v));
	for (size_t i = 0; i < s->capheld; i++)
		if (s->held[i].used && !gone(s, &s->held[i], prune))
			insert(v, cap, &s->held[i]);
	free(s->held);
	s->held = v;
	s->capheld = cap;
	s->nheld = n;
}

void held_add(struct split *s, struct track tr, int64_t t0, int64_t t1, size_t part)
{
	if (2 * (s->nheld + 1) > s->capheld)
		rebuild(s, 1, 0);
	struct held e = { tr.pid, tr.tid, t0, t1, part, 1 };
	insert(s->held, s->capheld, &e);
	s->nheld++;
}

long held_find(const struct split *s, struct track tr, int64_t t0, int64_t t1)
{
	if (!s->nheld)
		return -1;
	size_t i = hash(tr, t0, t1) & (s->capheld - 1);
	for (; s->held[i].used; i = (i + 1) & (s->capheld - 1))
		if (same(&s->held[i], tr, t0, t1))
			return (long)s->held[i].part;
	return -1;
}

void held_prune(struct split *s)
{
	if (s->nheld && s->front > INT64_MIN + s->o.lag)
		rebuild(s, 0, 1);
}

/* Forgets the items that no longer end after the front. */
static void prune(struct split *s)
{
	size_t k = 0;
	for (size_t i = 0; i < s->nahead; i++)
		if (s->ahead[i].key > s->front)
			s->ahead[k++] = s->ahead[i];
	s->nahead = k;
}

void ahead_add(struct split *s, const struct scene_item *it, int64_t key)
{
	if (s->nahead == s->capahead) {
		prune(s);
		if (2 * s->nahead >= s->capahead) {
			s->capahead = s->capahead ? s->capahead * 2 : 256;
			s->ahead = xreallocarray(s->ahead, s->capahead, sizeof(*s->ahead));
		}
	}
	s->ahead[s->nahead++] = (struct ahead){ it->track, it->t0, it->t1, key,
						it->kind == SI_SLICE };
}

uint64_t ahead_cut(struct split *s, int64_t at, size_t part, int64_t *hold)
{
	uint64_t n = 0;
	for (size_t i = 0; i < s->nahead; i++) {
		const struct ahead *a = &s->ahead[i];
		if (a->key <= at)
			continue;
		n++;
		if (a->key > *hold)
			*hold = a->key;
		if (a->slice)
			held_add(s, a->tr, a->t0, a->t1, part);
	}
	s->nahead = 0;
	return n;
}

void held_free(struct split *s)
{
	free(s->held);
	free(s->ahead);
	s->held = NULL;
	s->ahead = NULL;
	s->nheld = s->capheld = s->nahead = s->capahead = 0;
}
