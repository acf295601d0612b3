/* rate.c — how many events one thread can record.
 *
 * Usage: rate [--pairs] EVENTS [PACE]
 *
 * Records EVENTS tprof_mark calls (or, with --pairs, EVENTS/2 tprof_range_push +
 * tprof_range_pop pairs; names cycle through four string literals) as fast as it can, or,
 * with PACE (API calls per second), no faster than PACE: every 1024 calls it waits until the
 * clock says the next batch is due.  Prints the API calls made (records) and their rate over
 * the recording loop; the process's exit (the recorder's final flush) is not in it.  The
 * caller checks with tprof-analyze that every event arrived. */
#include <tprof/tprof.h>

#include "bench.h"

static const char *const four[4] = { "forward", "backward", "optimizer.step", "allreduce" };

static int pairs;

static inline void batch(uint64_t from, uint64_t to)
{
	if (pairs) {
		for (uint64_t i = from; i < to; i += 2) {
			tprof_range_push(four[(i >> 1) & 3]);
			tprof_range_pop();
		}
	} else {
		for (uint64_t i = from; i < to; i++)
			tprof_mark(four[i & 3]);
	}
}

int main(int argc, char **argv)
{
	int a = 1;
	if (a < argc && !strcmp(argv[a], "--pairs")) {
		pairs = 1;
		a++;
	}
	if (a >= argc) {
		fprintf(stderr, "usage: rate [--pairs] EVENTS [PACE]\n");
		return 2;
	}
	uint64_t n = bench_count(argv[a], "event count");
	double pace = a + 1 < argc ? (double)bench_count(argv[a + 1], "pace") : 0;
	if (pairs)
		n &= ~(uint64_t)1;
	uint64_t t0 = bench_now_ns();
	if (pace > 0) {
		double ns_per_event = 1e9 / pace;
		for (uint64_t i = 0; i < n;) {
			uint64_t due = t0 + (uint64_t)((double)i * ns_per_event);
			while (bench_now_ns() < due)
				;
			uint64_t to = i + 1024 < n ? i + 1024 : n;
			batch(i, to);
			i = to;
		}
	} else {
		batch(0, n);
	}
	uint64_t t1 = bench_now_ns();
	double s = (double)(t1 - t0) / 1e9;
	printf("records=%llu\nevents=%llu\nseconds=%.6f\nrecords_per_s=%.0f\n",
	       (unsigned long long)n, (unsigned long long)(pairs ? n / 2 : n), s, (double)n / s);
	return 0;
}
