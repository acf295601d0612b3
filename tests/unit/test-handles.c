/* test-handles.c — the recorder's handle table (preload/core/handles.h), the one behind MPI
 * requests and communicators, NCCL communicators and NRT objects.  First one thread, every
 * answer exact: where keys land, the bound on a path, tombstones taken again, a handle that
 * comes back, a reserved slot hidden until published, the full table's warning said once.
 * Then threads, as the recorder has them: claims, lookups and removals of keys of their own
 * racing each other; claims of the same keys at once (one slot each, the same for all); and
 * entries filled under a lock and published while other threads look them up.  Built with
 * ThreadSanitizer too (func/t-handles-tsan.sh). */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../../preload/core/core.h"
#include "../../preload/core/handles.h"
#include "tap.h"

/* The recorder's log, which handles.c says a full table with: counted and kept here. */
static int warnings;
static char warning[512];

void tprof_log_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(warning, sizeof(warning), fmt, ap);
	va_end(ap);
	warnings++;
}

struct ent {
	void *key;
	uint64_t value;
	uint64_t check;
};

/* ---- one thread, exact ------------------------------------------------------------------ */

static struct ent small[16];
TPROF_HANDLES_CHECK(small, key);
#define SMALL TPROF_HANDLES(small, 4)

/* The n-th key (from 0) whose path starts at slot `home` of small. */
static void *key_home(size_t home, int n)
{
	for (uintptr_t k = 0x10000;; k += 16)
		if (tprof_handle_home((void *)k, 16) == home && n-- == 0)
			return (void *)k;
}

static void one_thread(void)
{
	void *k[5];
	for (int i = 0; i < 5; i++)
		k[i] = key_home(3, i);
	uintptr_t x = 0x7f12345678a0u;
	is_u64(tprof_handle_home((void *)x, 16384), (x * 0x9e3779b97f4a7c15ull) >> 50,
	       "a key's path starts at the top bits of its Fibonacci hash");
	ok(!tprof_handle_is_key(TPROF_HANDLE_EMPTY) && !tprof_handle_is_key(TPROF_HANDLE_GONE) &&
	   tprof_handle_is_key((void *)2), "EMPTY and GONE are no keys, anything else is");

	int placed = 0;
	for (int i = 0; i < 4; i++)
		placed += tprof_handle_claim(SMALL, k[i]) == &small[3 + i] && small[3 + i].key == k[i];
	is_u64(placed, 4, "four keys of one home take it and the three slots after it");
	ok(!tprof_handle_claim(SMALL, k[4]), "a fifth finds no slot within the 4 it may look at");
	int found = 0;
	for (int i = 0; i < 4; i++)
		found += tprof_handle_find(SMALL, k[i]) == &small[3 + i];
	is_u64(found, 4, "each is found in its slot");
	ok(!tprof_handle_find(SMALL, k[4]), "the one left out is not");
	ok(!tprof_handle_find(SMALL, key_home(9, 0)), "nor a key whose path starts at an empty slot");
	ok(tprof_handle_claim(SMALL, k[1]) == &small[4] && small[4].key == k[1],
	   "a key claimed again takes the slot it has");

	tprof_handle_remove(&small[4]);
	ok(small[4].key == TPROF_HANDLE_GONE && !tprof_handle_find(SMALL, k[1]),
	   "a removed key leaves a tombstone, and is not found");
	ok(tprof_handle_find(SMALL, k[2]) == &small[5] && tprof_handle_find(SMALL, k[3]) == &small[6],
	   "keys past the tombstone still are");
	ok(tprof_handle_claim(SMALL, k[4]) == &small[4] && small[4].key == k[4],
	   "a new key takes the tombstone on its path");
	tprof_handle_remove(&small[5]);
	tprof_handle_remove(&small[3]);
	ok(tprof_handle_claim(SMALL, k[3]) == &small[6],
	   "a key claimed again past tombstones takes its own slot");
	ok(tprof_handle_claim(SMALL, k[1]) == &small[3] && tprof_handle_claim(SMALL, k[2]) == &small[5],
	   "new keys take the first tombstone on their path, then the next");
	tprof_handle_remove(&small[3]);

	ok(tprof_handle_reserve(SMALL, k[0]) == &small[3] && small[3].key == TPROF_HANDLE_GONE &&
	   !tprof_handle_find(SMALL, k[0]), "a reserved slot stays a tombstone to lookups");
	tprof_handle_publish(&small[3], k[0]);
	ok(tprof_handle_find(SMALL, k[0]) == &small[3], "until it is published");
	ok(tprof_handle_reserve(SMALL, k[2]) == &small[5] && !tprof_handle_find(SMALL, k[2]) &&
	   tprof_handle_find(SMALL, k[3]) == &small[6],
	   "a key reserved again is hidden in its own slot, the rest of its path is not");
	tprof_handle_publish(&small[5], k[2]);
	ok(tprof_handle_find(SMALL, k[2]) == &small[5], "and found there once published");

	int warned = 0, other = 0;
	tprof_handles_full(&warned, "more than %u things at once: %s", 16u, "some go unseen");
	tprof_handles_full(&warned, "more than %u things at once: %s", 16u, "some go unseen");
	ok(warnings == 1 && !strcmp(warning, "more than 16 things at once: some go unseen"),
	   "a full table says so once, with its text");
	tprof_handles_full(&other, "another table");
	ok(warnings == 2 && !strcmp(warning, "another table"), "another table says so too");
}

/* ---- threads ---------------------------------------------------------------------------- */

#define SLOTS 4096
#define PROBE 256
#define THREADS 8
#define KEYS 200
#define ROUNDS 60
#define SHARED 512

static struct ent table[SLOTS];
TPROF_HANDLES_CHECK(table, key);
#define TABLE TPROF_HANDLES(table, PROBE)

static pthread_barrier_t barrier;
static int wrong[THREADS];
static int live_wrong;

static void *key_of(int thread, int i)
{
	return (void *)(((uintptr_t)(thread + 1) << 32) | ((uintptr_t)i << 6));
}

/* All keys live in the table now, each in one slot: the count and no key twice. */
static int live_keys_ok(size_t want)
{
	static void *seen[SLOTS];
	size_t n = 0;
	for (size_t i = 0; i < SLOTS; i++) {
		void *k = __atomic_load_n(&table[i].key, __ATOMIC_ACQUIRE);
		if (tprof_handle_is_key(k))
			seen[n++] = k;
	}
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (seen[i] == seen[j])
				return 0;
	return n == want;
}

/* Claims, finds and removes keys of its own; looks up the others' keys, which must never
 * answer with one of its entries. */
static void *own_keys(void *arg)
{
	int t = (int)(intptr_t)arg;
	struct ent *mine[KEYS];
	static __thread unsigned char held[SLOTS];
	for (int r = 0; r < ROUNDS; r++) {
		for (int i = 0; i < KEYS; i++) {
			mine[i] = tprof_handle_claim(TABLE, key_of(t, i));
			if (!mine[i]) {
				wrong[t]++;
				continue;
			}
			mine[i]->value = (uint64_t)r * KEYS + (uint64_t)i;
			mine[i]->check = ~mine[i]->value;
			held[mine[i] - table] = 1;
		}
		if (r % 20 == 0) {
			pthread_barrier_wait(&barrier);
			if (t == 0 && !live_keys_ok(THREADS * KEYS))
				live_wrong++;
			pthread_barrier_wait(&barrier);
		}
		for (int i = 0; i < KEYS; i++) {
			struct ent *e = tprof_handle_find(TABLE, key_of(t, i));
			if (e != mine[i] || !e || e->value != (uint64_t)r * KEYS + (uint64_t)i ||
			    e->check != ~e->value)
				wrong[t]++;
			struct ent *o = tprof_handle_find(TABLE, key_of((t + 1 + i) % THREADS, i));
			if (o && held[o - table] && (t + 1 + i) % THREADS != t)
				wrong[t]++;
		}
		for (int i = 1; i < KEYS; i += 2) {
			held[mine[i] - table] = 0;
			tprof_handle_remove(mine[i]);
		}
		for (int i = 0; i < KEYS; i++)
			if (tprof_handle_find(TABLE, key_of(t, i)) != (i % 2 ? NULL : mine[i]))
				wrong[t]++;
		for (int i = 0; i < KEYS; i += 2) {
			held[mine[i] - table] = 0;
			tprof_handle_remove(mine[i]);
		}
		for (int i = 0; i < KEYS; i++)
			if (tprof_handle_find(TABLE, key_of(t, i)))
				wrong[t]++;
	}
	return NULL;
}

static struct ent *got[THREADS][SHARED];
static int round_no;

/* Claims the round's shared keys, all threads at once. */
static void *same_keys(void *arg)
{
	int t = (int)(intptr_t)arg;
	pthread_barrier_wait(&barrier);
	for (int i = 0; i < SHARED; i++) {
		int j = (i + t * 61) % SHARED;
		got[t][j] = tprof_handle_claim(TABLE, key_of(100 + round_no, j));
	}
	return NULL;
}

#define WRITERS 2
#define READERS 4
#define PUBLISHED 256

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int publish_round, writers_done;
static int missed[READERS], bad_fields[READERS];

static uint64_t value_of(const void *key)
{
	return (uintptr_t)key * 31u + (uint64_t)publish_round;
}

/* Fills entries under the lock and publishes them, as the communicator tables do. */
static void *writer(void *arg)
{
	int w = (int)(intptr_t)arg;
	for (int i = 0; i < PUBLISHED; i++) {
		void *key = key_of(200 + publish_round * WRITERS + w, i);
		pthread_mutex_lock(&lock);
		struct ent *e = tprof_handle_reserve(TABLE, key);
		if (e) {
			e->value = value_of(key);
			e->check = ~e->value;
			tprof_handle_publish(e, key);
		}
		pthread_mutex_unlock(&lock);
	}
	__atomic_add_fetch(&writers_done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* Looks every key up without a lock until each was found, or the writers are done and one
 * more pass found no more: what it finds is filled. */
static void *reader(void *arg)
{
	int r = (int)(intptr_t)arg;
	static __thread unsigned char seen[WRITERS][PUBLISHED];
	memset(seen, 0, sizeof(seen));
	int left = WRITERS * PUBLISHED, last = 0;
	while (left && !last) {
		last = __atomic_load_n(&writers_done, __ATOMIC_ACQUIRE) == WRITERS;
		for (int w = 0; w < WRITERS; w++)
			for (int i = 0; i < PUBLISHED; i++) {
				void *key = key_of(200 + publish_round * WRITERS + w, i);
				struct ent *e = seen[w][i] ? NULL : tprof_handle_find(TABLE, key);
				if (!e)
					continue;
				if (e->value != value_of(key) || e->check != ~e->value)
					bad_fields[r]++;
				seen[w][i] = 1;
				left--;
			}
	}
	missed[r] += left;
	return NULL;
}

static int sum(const int *a, int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += a[i];
	return s;
}

static void run(void *(*fn)(void *))
{
	pthread_t th[THREADS];
	for (int i = 0; i < THREADS; i++)
		pthread_create(&th[i], NULL, fn, (void *)(intptr_t)i);
	for (int i = 0; i < THREADS; i++)
		pthread_join(th[i], NULL);
}

static void threads(void)
{
	pthread_barrier_init(&barrier, NULL, THREADS);
	run(own_keys);
	is_u64(sum(wrong, THREADS), 0, "%d threads claim, find and remove %d keys each, %d rounds: "
	       "every answer right", THREADS, KEYS, ROUNDS);
	is_u64(live_wrong, 0, "with all keys claimed, each is in the table once");
	ok(live_keys_ok(0), "with all removed, none is");

	int same = 1, once = 1;
	for (round_no = 0; round_no < 8; round_no++) {
		run(same_keys);
		if (!live_keys_ok(SHARED))
			once = 0;
		for (int j = 0; j < SHARED; j++) {
			for (int t = 0; t < THREADS; t++)
				if (!got[t][j] || got[t][j] != got[0][j] ||
				    got[t][j]->key != key_of(100 + round_no, j))
					same = 0;
			if (got[0][j])
				tprof_handle_remove(got[0][j]);
		}
	}
	ok(same, "%d threads claiming the same %d keys at once get the same slot for each", THREADS,
	   SHARED);
	ok(once, "and each key is in the table once");
	pthread_barrier_destroy(&barrier);

	for (publish_round = 0; publish_round < 4; publish_round++) {
		pthread_t th[WRITERS + READERS];
		writers_done = 0;
		for (int i = 0; i < READERS; i++)
			pthread_create(&th[i], NULL, reader, (void *)(intptr_t)i);
		for (int i = 0; i < WRITERS; i++)
			pthread_create(&th[READERS + i], NULL, writer, (void *)(intptr_t)i);
		for (int i = 0; i < WRITERS + READERS; i++)
			pthread_join(th[i], NULL);
		ok(live_keys_ok(WRITERS * PUBLISHED) && !sum(missed, READERS) &&
		   !sum(bad_fields, READERS), "round %d: %d entries published under a lock, each found "
		   "filled by %d readers without one", publish_round + 1, WRITERS * PUBLISHED, READERS);
		for (int i = 0; i < SLOTS; i++)
			if (tprof_handle_is_key(table[i].key))
				tprof_handle_remove(&table[i]);
	}
	is_u64(warnings, 2, "no table was full");
}

int main(void)
{
	one_thread();
	threads();
	return tap_done();
}
