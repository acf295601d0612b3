/* test-hindex.c — the analyzer's hash index (analyze/util/hindex.h) and the pool on it
 * (hpool.h) against a search of every record: a million random adds, lookups and removals of
 * records whose hashes collide on purpose (a few hashes shared by many keys, multiples of the
 * table's size), every answer compared. */
#include <stdlib.h>
#include <string.h>

#include "../../analyze/util/hpool.h"
#include "tap.h"

#define NKEYS 5000

static uint64_t rng = 88172645463325252ull;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* A record of the pool: its item first, then its key. */
struct rec {
	struct hpool_item item;
	size_t key;
};

/* The pool: records put and taken out at random, their keys' hashes colliding as above. */
static void pool(const uint64_t *hashes)
{
	static struct rec recs[NKEYS + 1];
	struct hpool p = { 0 };
	size_t wrong = 0, n = 0;
	for (int op = 0; op < 1000000; op++) {
		size_t k = 1 + rnd() % NKEYS, at;
		struct rec *found = NULL;
		for (struct rec *r = hpool_first(&p, hashes[k], &at); r;
		     r = hpool_next(&p, hashes[k], &at)) {
			wrong += r->item.hash != hashes[k] || !r->item.id;
			if (r->key == k)
				found = r;
		}
		wrong += !!found != !!recs[k].item.id || (found && found != &recs[k]);
		if (rnd() % 2 && !recs[k].item.id) {
			recs[k].key = k;
			hpool_add(&p, &recs[k].item, hashes[k]);
			n++;
		} else if (recs[k].item.id) {
			hpool_remove(&p, &recs[k].item);
			n--;
		}
	}
	for (size_t i = 0; i < p.n; i++)
		wrong += p.v[i]->id != i + 1;
	is_u64(wrong, 0, "the pool finds the records put and not taken out, each at its place");
	is_u64(p.n, n, "and holds as many");
	hpool_free(&p);
}

int main(void)
{
	static uint64_t hashes[NKEYS + 1];
	static int present[NKEYS + 1];
	struct hindex x = { 0 };
	/* One of four hashes for the keys below 200, a multiple of 2^20 for the odd ones. */
	for (size_t k = 1; k <= NKEYS; k++)
		hashes[k] = k < 200 ? k % 4 : k % 2 ? (uint64_t)k << 20 : rnd();
	size_t wrong = 0, n = 0;
	for (int op = 0; op < 1000000; op++) {
		size_t k = 1 + rnd() % NKEYS, at, seen = 0;
		uint64_t h = hashes[k];
		int found = 0;
		for (uint32_t id = hindex_first(&x, h, &at); id; id = hindex_next(&x, h, &at)) {
			wrong += hashes[id] != h || !present[id];
			found |= id == k;
			seen++;
		}
		wrong += found != present[k] || seen > n;
		switch (rnd() % 3) {
		case 0:
			if (!present[k]) {
				hindex_add(&x, h, (uint32_t)k);
				present[k] = 1;
				n++;
			}
			break;
		case 1:
			hindex_del(&x, h, (uint32_t)k);
			n -= present[k];
			present[k] = 0;
			break;
		default:
			break;
		}
	}
	is_u64(wrong, 0, "every lookup finds the records of its hash indexed, and only those");
	size_t found = 0;
	for (size_t k = 1; k <= NKEYS; k++) {
		size_t at, c = 0;
		for (uint32_t id = hindex_first(&x, hashes[k], &at); id;
		     id = hindex_next(&x, hashes[k], &at))
			c += id == k;
		found += c;
		wrong += c > 1;
	}
	is_u64(found, n, "the index holds exactly the records added and not removed");
	is_u64(wrong, 0, "each once");
	is_u64(x.n, n, "and counts them");
	ok(x.cap <= 4 * (x.n + 32), "its table is at most four times its records (%zu slots)",
	   x.cap);
	hindex_del(&x, 12345, 1);
	is_u64(x.n, n, "removing a record not there changes nothing");
	hindex_free(&x);
	struct hindex empty = { 0 };
	size_t at;
	ok(hindex_first(&empty, 7, &at) == 0, "an empty index finds nothing");
	hindex_del(&empty, 7, 1);
	pool(hashes);
	return tap_done();
}
