/* parallel/partition.c — a profile's processes cut into runs of about equal bytes, one per
 * analysis process (partition.h). */
#include "partition.h"

void partition_runs(const uint64_t *size, size_t n, size_t k, size_t *first)
{
	unsigned __int128 total = 0;
	for (size_t i = 0; i < n; i++)
		total += size[i];
	unsigned __int128 before = 0;   /* bytes of the items before item i */
	size_t i = 0;
	first[0] = 0;
	for (size_t p = 1; p < k; p++) {
		/* the first item with at least p * total / k bytes before it (rounded up) */
		unsigned __int128 want = (total * p + k - 1) / k;
		while (i < n && before < want)
			before += size[i++];
		first[p] = i;
	}
	first[k] = n;
}
