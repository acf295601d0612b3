/* test-partition.c — a profile's processes cut into runs of about equal bytes for the analysis
 * processes (analyze/parallel/partition.c): every process in exactly one run, in order; no run
 * more than the largest process past its fair share; equal sizes split evenly; more runs than
 * processes; one process larger than all the rest; nothing at all. */
#include <stdlib.h>

#include "../../analyze/parallel/partition.h"
#include "tap.h"

/* The runs are k contiguous pieces of 0..n-1 and none exceeds total/k + the largest item. */
static int fair(const uint64_t *size, size_t n, size_t k, const size_t *first)
{
	uint64_t total = 0, largest = 0;
	for (size_t i = 0; i < n; i++) {
		total += size[i];
		largest = size[i] > largest ? size[i] : largest;
	}
	if (first[0] != 0 || first[k] != n)
		return 0;
	for (size_t p = 0; p < k; p++) {
		if (first[p] > first[p + 1])
			return 0;
		uint64_t bytes = 0;
		for (size_t i = first[p]; i < first[p + 1]; i++)
			bytes += size[i];
		if (bytes > (total + k - 1) / k + largest)
			return 0;
	}
	return 1;
}

int main(void)
{
	size_t first[1100];
	uint64_t even[12];
	for (int i = 0; i < 12; i++)
		even[i] = 1000;
	partition_runs(even, 12, 4, first);
	ok(first[1] == 3 && first[2] == 6 && first[3] == 9 && first[4] == 12,
	   "12 equal processes in 4 runs of 3: %zu %zu %zu %zu", first[1], first[2], first[3],
	   first[4]);
	partition_runs(even, 12, 1, first);
	ok(first[0] == 0 && first[1] == 12, "one run holds all");
	partition_runs(even, 3, 5, first);
	size_t nonempty = 0;
	for (int p = 0; p < 5; p++)
		nonempty += first[p + 1] > first[p];
	ok(fair(even, 3, 5, first) && nonempty == 3, "3 processes in 5 runs: 3 of one, 2 empty");
	uint64_t huge[6] = { 10, 10, 1000000, 10, 10, 10 };
	partition_runs(huge, 6, 3, first);
	ok(fair(huge, 6, 3, first), "one process larger than the rest: runs %zu %zu %zu %zu",
	   first[0], first[1], first[2], first[3]);
	partition_runs(NULL, 0, 4, first);
	ok(first[0] == 0 && first[4] == 0, "no process: every run empty");
	/* sizes of a skewed job: 1,024 processes, some ten times the others */
	uint64_t *job = malloc(1024 * sizeof(*job));
	int all_fair = 1;
	srand(7);
	for (size_t i = 0; i < 1024; i++)
		job[i] = 1000000 + (uint64_t)(rand() % 1000) * (i % 17 == 0 ? 10000 : 100);
	for (size_t k = 1; k <= 1024 && all_fair; k = k * 3 + 1)
		partition_runs(job, 1024, k, first), all_fair = fair(job, 1024, k, first);
	ok(all_fair, "1,024 skewed processes in 1 to 1,024 runs: each within its share and the "
		     "largest process");
	free(job);
	return tap_done();
}
