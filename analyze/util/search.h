/* search.h — the lookup the symbol tables share: in an array sorted by a 64-bit key, how
 * many entries have a key at or below a value (the last of them holds an address, for
 * tables of ranges: kernel symbols, ELF function symbols, JIT symbols). */
#ifndef TPROF_ANALYZE_SEARCH_H
#define TPROF_ANALYZE_SEARCH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* base: n entries of `size` bytes, sorted by the uint64_t at byte `key_off` of each. */
static inline size_t search_upper_u64(const void *base, size_t n, size_t size, size_t key_off,
				      uint64_t key)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t k;
		memcpy(&k, (const char *)base + mid * size + key_off, sizeof(k));
		if (k <= key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

#endif
