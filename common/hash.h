/* hash.h — the hash both the recorder's and the analyzer's tables use: FNV-1a, 64-bit (names
 * are short, and it needs no tables); and the communicator ids made from it, which every
 * rank must compute alike. */
#ifndef TPROF_HASH_H
#define TPROF_HASH_H

#include <stddef.h>
#include <stdint.h>

#define TPROF_HASH_SEED 0xcbf29ce484222325ull

/* Goes on hashing `n` more bytes from state `h`. */
static inline uint64_t tprof_hash_more(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < n; i++) {
		h ^= b[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

static inline uint64_t tprof_hash_bytes(const char *s, size_t n)
{
	return tprof_hash_more(TPROF_HASH_SEED, s, n);
}

/* An id from a hash state: the bits spread, and never below 16, where the fixed ids are
 * (none, MPI_COMM_WORLD, MPI_COMM_SELF). */
static inline uint64_t tprof_hash_id(uint64_t h)
{
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 32;
	return h < 16 ? h + 16 : h;
}

#endif
