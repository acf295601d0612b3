/* render/split/held.c — the slices the splitter keeps in another part than their end time
 * puts them in: those that came after their part was closed, and with size:MB those that
 * end after the cut that closed their part's range.  An arrow ending in one goes where it
 * went (or, when that part is closed, counts as late).  Found through the hash index, rid
 * of a slice once its part is closed and the front is `lag` past its end; and the items of
 * the newest part that end after the front, of which a cut makes the held ones. */
#include <stdlib.h>

#include "../../../common/xalloc.h"
#include "../../util/grow.h"
#include "state.h"

static uint64_t hash(int64_t pid, int64_t tid, int64_t t0, int64_t t1)
{
	uint64_t h = (uint64_t)pid * 0x9e3779b97f4a7c15ull;
	h ^= (uint64_t)tid * 0xc2b2ae3d27d4eb4full;
	h ^= (uint64_t)t0 * 0x165667b19e3779f9ull ^ (uint64_t)t1;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	return h;
}

/* A slice no arrow will come for any more: its part is closed, its end `lag` behind. */
static int gone(const struct split *s, const struct held *h)
{
	return h->part < s->first_open && h->t1 < s->front - s->o.lag;
}

void held_add(struct split *s, struct track tr, int64_t t0, int64_t t1, size_t part)
{
	s->held = util_grow(s->held, &s->capheld, s->nheld, sizeof(*s->held), 64);
	s->held[s->nheld++] = (struct held){ tr.pid, tr.tid, t0, t1, part };
	hindex_add(&s->held_by_key, hash(tr.pid, tr.tid, t0, t1), (uint32_t)s->nheld);
}

long held_find(const struct split *s, struct track tr, int64_t t0, int64_t t1)
{
	uint64_t h = hash(tr.pid, tr.tid, t0, t1);
	size_t at;
	for (uint32_t id = hindex_first(&s->held_by_key, h, &at); id;
	     id = hindex_next(&s->held_by_key, h, &at)) {
		const struct held *e = &s->held[id - 1];
		if (e->pid == tr.pid && e->tid == tr.tid && e->t0 == t0 && e->t1 == t1)
			return (long)e->part;
	}
	return -1;
}

/* Leaves out the slices gone, and indexes the others again. */
void held_prune(struct split *s)
{
	if (!s->nheld || s->front <= INT64_MIN + s->o.lag)
		return;
	size_t k = 0;
	for (size_t i = 0; i < s->nheld; i++)
		if (!gone(s, &s->held[i]))
			s->held[k++] = s->held[i];
	if (k == s->nheld)
		return;
	s->nheld = k;
	if (s->capheld > 64 && s->capheld > 4 * k) {      /* memory follows the slices held */
		s->capheld = k > 32 ? 2 * k : 64;
		s->held = xreallocarray(s->held, s->capheld, sizeof(*s->held));
	}
	hindex_free(&s->held_by_key);
	for (size_t i = 0; i < k; i++) {
		const struct held *e = &s->held[i];
		hindex_add(&s->held_by_key, hash(e->pid, e->tid, e->t0, e->t1), (uint32_t)i + 1);
	}
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
	hindex_free(&s->held_by_key);
	free(s->ahead);
	s->held = NULL;
	s->ahead = NULL;
	s->nheld = s->capheld = s->nahead = s->capahead = 0;
}
