/* overhead.c — what one annotation costs the calling thread.
 *
 * Usage: overhead pairs|pairs50|marks [COUNT]   (default 1e7)
 *
 * Times, in a tight loop bracketed by clock_gettime, COUNT of one of:
 *   pairs    tprof_range_push + tprof_range_pop, names cycling through four string literals
 *   pairs50  the same with fifty names
 *   marks    tprof_mark, four names
 * A short warm-up first takes the one-off costs (files created at the first record, the
 * thread's registration) out of the figure.  Run it plain (libtprof's empty functions: the
 * cost of the call itself) and under the recorder; the difference is what recording adds.
 * One loop per process, so that one loop's backlog in the recorder does not slow the next.
 *
 * Each loop is also cut into batches of BATCH calls, timed separately; the median batch shows
 * the fast path without the occasional buffer switch.  Prints key=value lines (ns: the whole
 * loop, per push+pop pair or per mark). */
#include <tprof/tprof.h>

#include "bench.h"

#define BATCH 100000u
#define WARMUP 20000u

static const char *const four[4] = { "forward", "backward", "optimizer.step", "allreduce" };

static double *batches;
static size_t nbatches;

enum loop { PAIRS4, PAIRS50, MARKS };

static void body(enum loop which, uint64_t from, uint64_t to)
{
	switch (which) {
	case PAIRS4:
		for (uint64_t i = from; i < to; i++) {
			tprof_range_push(four[i & 3]);
			tprof_range_pop();
		}
		break;
	case PAIRS50:
		for (uint64_t i = from; i < to; i++) {
			tprof_range_push(bench_names[i % 50]);
			tprof_range_pop();
		}
		break;
	case MARKS:
		for (uint64_t i = from; i < to; i++)
			tprof_mark(four[i & 3]);
		break;
	}
}

/* Returns ns per iteration over the whole loop; leaves the median batch in *med. */
static double run(enum loop which, uint64_t n, double *med)
{
	size_t nb = 0;
	uint64_t t0 = bench_now_ns();
	for (uint64_t i = 0; i < n; i += BATCH) {
		uint64_t to = i + BATCH < n ? i + BATCH : n;
		uint64_t b0 = bench_now_ns();
		body(which, i, to);
		uint64_t b1 = bench_now_ns();
		batches[nb++] = (double)(b1 - b0) / (double)(to - i);
	}
	uint64_t t1 = bench_now_ns();
	*med = bench_median(batches, nb);
	return (double)(t1 - t0) / (double)n;
}

int main(int argc, char **argv)
{
	enum loop which;
	if (argc < 2 || (strcmp(argv[1], "pairs") && strcmp(argv[1], "pairs50") &&
			 strcmp(argv[1], "marks"))) {
		fprintf(stderr, "usage: overhead pairs|pairs50|marks [COUNT]\n");
		return 2;
	}
	which = !strcmp(argv[1], "pairs") ? PAIRS4 : !strcmp(argv[1], "pairs50") ? PAIRS50 : MARKS;
	uint64_t n = argc > 2 ? bench_count(argv[2], "count") : 10000000u;
	if (n == 0)
		n = 1;
	nbatches = (size_t)((n + BATCH - 1) / BATCH);
	batches = malloc(nbatches * sizeof(*batches));
	if (!batches)
		return 1;

	body(which, 0, WARMUP);
	double med;
	double ns = run(which, n, &med);
	/* Push and pop are a record each; the analyzer counts a range (and a mark) as one event. */
	uint64_t calls = n + WARMUP;
	printf("loop=%s\ncount=%llu\n", argv[1], (unsigned long long)n);
	printf("records=%llu\nevents=%llu\n", (unsigned long long)(which == MARKS ? calls : 2 * calls),
	       (unsigned long long)calls);
	printf("ns=%.3f\nbatch_median_ns=%.3f\n", ns, med);
	free(batches);
	return 0;
}
