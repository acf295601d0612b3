/* parallel/partition.h — which analysis process reads which of a profile's processes: each
 * whole (no file opened by two), in the profile's order (ranks in order, so that neighbours'
 * messages mostly stay within one analysis process), cut into runs of about equal bytes. */
#ifndef TPROF_ANALYZE_PARTITION_H
#define TPROF_ANALYZE_PARTITION_H

#include <stddef.h>
#include <stdint.h>

/* Items 0..n-1 of size[i] bytes, in order, cut into k runs: run p is items first[p] up to
 * first[p + 1] - 1 (first: k + 1 entries, first[0] = 0, first[k] = n).  Run p begins with the
 * first item whose bytes before it reach p * total / k, so no run exceeds total / k by more
 * than its largest item; a run may be empty (more runs than items, or one huge item). */
void partition_runs(const uint64_t *size, size_t n, size_t k, size_t *first);

#endif
