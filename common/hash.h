/* hash.h — the string hash both the recorder's and the analyzer's tables use: FNV-1a, 64-bit
 * (names are short, and it needs no tables). */
#ifndef TPROF_HASH_H
#define TPROF_HASH_H

#include <stddef.h>
#include <stdint.h>

static inline uint64_t tprof_hash_bytes(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

#endif
