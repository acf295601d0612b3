/* handles.h — the one table from a runtime's handles to what the hooks keep about them (MPI
 * requests and communicators, NCCL communicators, NRT models, tensors and tensor sets).  A
 * fixed array of entries, each starting with its key, the handle; open addressing from a
 * multiplicative hash, probing linearly over at most `probe` slots.  A lookup reads keys
 * (acquire) until its own or an empty slot: no lock, no system call, no allocation.  A slot
 * is claimed with one compare-and-swap; a removed entry becomes a tombstone that a later
 * claim may take, and a handle that comes back takes the slot it still has.  Everything is
 * inline, the table's shape given as constants (TPROF_HANDLES), so that each table compiles to
 * what a copy written for it alone would be.  A key is never EMPTY or GONE: callers that may
 * be handed those ask tprof_handle_is_key first. */
#ifndef TPROF_HANDLES_H
#define TPROF_HANDLES_H

#include <stddef.h>
#include <stdint.h>

#define TPROF_HANDLE_EMPTY ((void *)0)
#define TPROF_HANDLE_GONE ((void *)1)

/* The first arguments of every function below: the table `array` (its storage, entry size,
 * slot count) and how many slots a lookup or a claim looks at before it gives up. */
#define TPROF_HANDLES(array, probe) \
	(char *)(array), sizeof((array)[0]), sizeof(array) / sizeof((array)[0]), (unsigned)(probe)

/* At file scope, for each table: its entries start with their key, a pointer, and it has a
 * power of two of them. */
#define TPROF_HANDLES_CHECK(array, key)                                                        \
	_Static_assert(offsetof(__typeof__((array)[0]), key) == 0 &&                            \
		       sizeof((array)[0].key) == sizeof(void *) &&                              \
		       sizeof(array) / sizeof((array)[0]) >= 2 &&                               \
		       (sizeof(array) / sizeof((array)[0]) &                                    \
			(sizeof(array) / sizeof((array)[0]) - 1)) == 0,                         \
		       #array ": entries that start with their key, a power of two of them")

/* Whether p may be a key (neither EMPTY nor GONE). */
static inline int tprof_handle_is_key(const void *p)
{
	return (uintptr_t)p > (uintptr_t)TPROF_HANDLE_GONE;
}

static inline void **tprof_handle_key_at(char *base, size_t size, size_t i)
{
	return (void **)(void *)(base + i * size);
}

/* Where the path of `key` starts in a table of `slots`: the top bits of its Fibonacci hash. */
static inline size_t tprof_handle_home(const void *key, size_t slots)
{
	return (size_t)(((uintptr_t)key * 0x9e3779b97f4a7c15ull) >> (64 - __builtin_ctzll(slots))) &
	       (slots - 1);
}

/* The entry of `key`, or NULL. */
static inline void *tprof_handle_find(char *base, size_t size, size_t slots, unsigned probe,
				      const void *key)
{
	size_t i = tprof_handle_home(key, slots);
	for (unsigned n = 0; n < probe; n++, i = (i + 1) & (slots - 1)) {
		void *k = __atomic_load_n(tprof_handle_key_at(base, size, i), __ATOMIC_ACQUIRE);
		if (k == key)
			return base + i * size;
		if (k == TPROF_HANDLE_EMPTY)
			return NULL;
	}
	return NULL;
}

/* The slot for `key`: the one that holds it already, else the first empty or removed one on
 * its path, whose key becomes `mark` with one compare-and-swap (another thread that took it
 * first sends the claim along the path again).  NULL when neither is within `probe` slots. */
static inline void *tprof_handle_take(char *base, size_t size, size_t slots, unsigned probe,
				      const void *key, void *mark)
{
	for (;;) {
		size_t i = tprof_handle_home(key, slots);
		void **take = NULL, *was = NULL;
		for (unsigned n = 0; n < probe; n++, i = (i + 1) & (slots - 1)) {
			void **kp = tprof_handle_key_at(base, size, i);
			void *k = __atomic_load_n(kp, __ATOMIC_ACQUIRE);
			if (k == key) {
				take = kp;
				was = k;
				break;
			}
			if ((k == TPROF_HANDLE_EMPTY || k == TPROF_HANDLE_GONE) && !take) {
				take = kp;
				was = k;
			}
			if (k == TPROF_HANDLE_EMPTY)
				break;
		}
		if (!take)
			return NULL;
		if (was == mark || __atomic_compare_exchange_n(take, &was, mark, 0, __ATOMIC_ACQ_REL,
							       __ATOMIC_RELAXED))
			return take;
	}
}

/* Claims the slot for `key` (see tprof_handle_take) with the key published at once: its other
 * fields are the caller's to set after, for any thread, without a lock.  Only the thread that
 * handed out the handle looks it up before that. */
static inline void *tprof_handle_claim(char *base, size_t size, size_t slots, unsigned probe,
				       const void *key)
{
	return tprof_handle_take(base, size, slots, probe, key, (void *)key);
}

/* For a table that readers use while its entries change: the slot for `key`, kept GONE, so
 * that lookups pass it by, until the caller has filled it and publishes it
 * (tprof_handle_publish).  Only under the one lock all such claims of the table take. */
static inline void *tprof_handle_reserve(char *base, size_t size, size_t slots, unsigned probe,
					 const void *key)
{
	return tprof_handle_take(base, size, slots, probe, key, TPROF_HANDLE_GONE);
}

/* Entry e (reserved) is filled: lookups of `key` find it from now on. */
static inline void tprof_handle_publish(void *e, const void *key)
{
	__atomic_store_n((void **)e, (void *)key, __ATOMIC_RELEASE);
}

/* The handle of entry e is gone: its slot may be taken again. */
static inline void tprof_handle_remove(void *e)
{
	__atomic_store_n((void **)e, TPROF_HANDLE_GONE, __ATOMIC_RELEASE);
}

/* A claim found no slot: the table's warning (printf-like), said once per table (*warned). */
void tprof_handles_full(int *warned, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), cold));

#endif
