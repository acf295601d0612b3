/* test-u64map.c — the analyzer's hash map (analyze/util/u64map.h) against a plain array: a
 * million random puts, gets and removals over keys that collide on purpose (multiples of the
 * table's size, 0, the ends of the range), every answer compared. */
#include <stdlib.h>
#include <string.h>

#include "../../analyze/util/u64map.h"
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

int main(void)
{
	static uint64_t keys[NKEYS];
	static uint32_t vals[NKEYS];
	static int present[NKEYS];
	struct u64map m = { 0 };
	for (size_t i = 0; i < NKEYS; i++)
		keys[i] = i < 3 ? (uint64_t[]){ 0, UINT64_MAX, 1ull << 63 }[i]
		      : i % 2 ? (uint64_t)i << 20 : rnd();
	size_t wrong = 0, n = 0;
	for (int op = 0; op < 1000000; op++) {
		size_t k = rnd() % NKEYS;
		uint32_t *v = u64map_get(&m, keys[k]);
		if (!!v != present[k] || (v && *v != vals[k]))
			wrong++;
		switch (rnd() % 3) {
		case 0:
			vals[k] = (uint32_t)rnd();
			u64map_put(&m, keys[k], vals[k]);
			n += !present[k];
			present[k] = 1;
			break;
		case 1:
			u64map_del(&m, keys[k]);
			n -= present[k];
			present[k] = 0;
			break;
		default:
			break;
		}
	}
	is_u64(wrong, 0, "every get answers as the array does");
	size_t found = 0;
	for (size_t i = 0; i < NKEYS; i++)
		found += u64map_get(&m, keys[i]) != NULL;
	is_u64(found, n, "the map holds exactly the keys put and not removed");
	is_u64(m.n + (size_t)m.has_zero, n, "and counts them");
	ok(m.cap <= 4 * (m.n + 8), "its table is at most four times its entries (%zu slots)", m.cap);
	u64map_free(&m);
	ok(!m.keys && !m.cap && !u64map_get(&m, 7), "freed, it is empty");
	return tap_done();
}
