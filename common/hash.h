/* hash.h — the hashes of tprof: FNV-1a, 64-bit (names are short, and it needs no tables),
 * whose values are recorded or compared across ranks (communicator ids, which every rank must
 * compute alike; the file hash of docs/FORMAT.md); and a faster one, eight bytes at a time,
 * for the analyzer's tables of names, whose values never leave the process. */
#ifndef TPROF_HASH_H
#define TPROF_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

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

/* For in-memory tables only (never recorded, never compared with another process's): eight
 * bytes at a time, with splitmix64's finish so that the low bits, which pick the slot, depend
 * on every byte. */
static inline uint64_t tprof_hash_table(const char *s, size_t len)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ len, w;
	for (; len >= 8; s += 8, len -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xbf58476d1ce4e5b9ull;
		h ^= h >> 29;
	}
	w = 0;
	memcpy(&w, s, len);
	h ^= w;
	h ^= h >> 30;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 27;
	h *= 0x94d049bb133111ebull;
	return h ^ (h >> 31);
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
