/* hang/ends.c — the other end of a point-to-point operation, by hash (ends.h).
 *
 * Each send is kept under four keys, each receive under two, so that whichever wildcards the
 * other end uses, a lookup or two find it: a send under its (sender, receiver, tag), with any
 * sender (for a receive from any rank), with all tags (for a receive of any tag), and both;
 * a receive under its (peer or any, receiver, tag or any) and among every receive of its
 * (peer or any, receiver) (for a send whose tag is not known).  A key leads to a chain of
 * entries; a chain holds the operations whose ends fit, bar a hash collision, which pairs()
 * tells apart. */
#include <stdint.h>
#include <stdlib.h>

#include "../../common/xalloc.h"
#include "../util/u64map.h"
#include "ends.h"

#define ANY_SRC (-2)   /* the key of "any sender" (a rank is >= 0, a receive's any is -1) */
#define ALL_TAGS (-3)  /* the key of "every tag": every send; a receive of any tag */
#define EVERY (-4)     /* the key of every receive, whatever its tag */

struct chains {
	struct u64map head;             /* key: the newest entry + 1 */
	uint32_t *p2p, *next;           /* entry: the operation, the entry after it + 1 (0: none) */
	uint32_t n;
};

struct hang_ends {
	const struct hang_p2p *p2p;
	struct chains sends, recvs;
};

static uint64_t key(uint64_t comm, int64_t src, int64_t dst, int64_t tag)
{
	uint64_t h = comm * 0x9e3779b97f4a7c15ull;
	h ^= (uint64_t)src * 0xbf58476d1ce4e5b9ull;
	h = (h ^ (h >> 31)) * 0x94d049bb133111ebull;
	h ^= (uint64_t)dst * 0x9e3779b97f4a7c15ull ^ (uint64_t)tag * 0xd6e8feb86659fd93ull;
	return h ^ (h >> 29);
}

static void put(struct chains *c, uint64_t k, uint32_t i)
{
	uint32_t *head = u64map_get(&c->head, k);
	c->p2p[c->n] = i;
	c->next[c->n] = head ? *head : 0;
	c->n++;
	u64map_put(&c->head, k, c->n);
}

/* Whether send s and receive r are each other's other end. */
static int pairs(const struct hang_p2p *s, const struct hang_p2p *r)
{
	return s->comm == r->comm && s->proc && r->proc &&
	       (r->peer < 0 || r->peer == s->proc->rank) && s->peer == r->proc->rank &&
	       (r->tag < 0 || s->tag < 0 || r->tag == s->tag);
}

/* Whether chain k of c holds the other end of x. */
static int find(const struct hang_ends *e, const struct chains *c, uint64_t k,
		const struct hang_p2p *x)
{
	const uint32_t *at = u64map_get((struct u64map *)&c->head, k);
	for (uint32_t j = at ? *at : 0; j; j = c->next[j - 1]) {
		const struct hang_p2p *y = &e->p2p[c->p2p[j - 1]];
		if (x->kind == HANG_RECV ? pairs(y, x) : pairs(x, y))
			return 1;
	}
	return 0;
}

struct hang_ends *hang_ends_new(const struct hang_p2p *p2p, size_t n)
{
	struct hang_ends *e = xcalloc(1, sizeof(*e));
	e->p2p = p2p;
	size_t cap = 4 * n + 1;
	e->sends.p2p = xcalloc(cap, sizeof(uint32_t));
	e->sends.next = xcalloc(cap, sizeof(uint32_t));
	e->recvs.p2p = xcalloc(cap, sizeof(uint32_t));
	e->recvs.next = xcalloc(cap, sizeof(uint32_t));
	for (size_t i = 0; i < n && i < UINT32_MAX / 4; i++) {
		const struct hang_p2p *x = &p2p[i];
		if (!x->proc)
			continue;
		int64_t me = x->proc->rank;
		if (x->kind == HANG_SEND) {
			put(&e->sends, key(x->comm, me, x->peer, x->tag), (uint32_t)i);
			put(&e->sends, key(x->comm, ANY_SRC, x->peer, x->tag), (uint32_t)i);
			put(&e->sends, key(x->comm, me, x->peer, ALL_TAGS), (uint32_t)i);
			put(&e->sends, key(x->comm, ANY_SRC, x->peer, ALL_TAGS), (uint32_t)i);
		} else {
			int64_t from = x->peer >= 0 ? x->peer : ANY_SRC;
			put(&e->recvs, key(x->comm, from, me, x->tag >= 0 ? x->tag : ALL_TAGS),
			    (uint32_t)i);
			put(&e->recvs, key(x->comm, from, me, EVERY), (uint32_t)i);
		}
	}
	return e;
}

int hang_ends_paired(const struct hang_ends *e, const struct hang_p2p *x)
{
	if (!x->proc)
		return 0;
	int64_t me = x->proc->rank;
	if (x->kind == HANG_RECV) {
		int64_t from = x->peer >= 0 ? x->peer : ANY_SRC;
		if (find(e, &e->sends, key(x->comm, from, me, x->tag >= 0 ? x->tag : ALL_TAGS), x))
			return 1;
		/* a send whose tag is not known */
		return x->tag >= 0 && find(e, &e->sends, key(x->comm, from, me, -1), x);
	}
	/* a receive from this process or from any, of this tag or of any (every receive: this
	 * tag is not known) */
	for (int any = 0; any < 2; any++) {
		int64_t from = any ? ANY_SRC : me;
		if (x->tag >= 0 ? find(e, &e->recvs, key(x->comm, from, x->peer, x->tag), x) ||
					  find(e, &e->recvs, key(x->comm, from, x->peer, ALL_TAGS), x)
				: find(e, &e->recvs, key(x->comm, from, x->peer, EVERY), x))
			return 1;
	}
	return 0;
}

void hang_ends_free(struct hang_ends *e)
{
	if (!e)
		return;
	u64map_free(&e->sends.head);
	u64map_free(&e->recvs.head);
	free(e->sends.p2p);
	free(e->sends.next);
	free(e->recvs.p2p);
	free(e->recvs.next);
	free(e);
}
