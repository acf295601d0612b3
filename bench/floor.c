/* floor.c — this machine's floor: what two timestamp reads cost back to back.  The recorder
 * reads its clock when a call enters and again when it returns (a push and its pop: one read
 * each), so a recorded call costs at least about this, whatever else it does; the processor
 * overlaps the reads with the call's own work, so what recording adds to a call can come in
 * under it.  Absolute per-call figures change from machine to machine; stated as multiples
 * of this floor, figures from different machines compare.
 *
 * Usage: floor [COUNT]   (default 1e7)
 *
 * Times, in a tight loop bracketed by clock_gettime, COUNT pairs of reads of each clock:
 *   tsc   two __rdtsc(), the recorder's clock where the CPU has an invariant TSC
 *   mono  two clock_gettime(CLOCK_MONOTONIC), its clock otherwise (for reference)
 * Each loop is cut into batches of BATCH pairs, timed separately; the median batch is the
 * figure, so that a preemption on a shared machine does not move it.  A short warm-up first.
 * Prints key=value lines: tsc_ns and mono_ns (ns per pair of reads, median batch), and
 * invariant_tsc (1 when the recorder would read the TSC, as preload/core/clock.c decides: common/tsc.h).
 * Without an x86 TSC, only mono_ns. */
#include "bench.h"
#include "../common/tsc.h"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define HAVE_TSC 1
#endif

#define BATCH 100000u
#define WARMUP 20000u

static volatile uint64_t sink;  /* the differences read, summed: every read is used */

enum clk { TSC, MONO };

static void body(enum clk which, uint64_t n)
{
	uint64_t acc = 0;
	switch (which) {
	case TSC:
#ifdef HAVE_TSC
		for (uint64_t i = 0; i < n; i++) {
			uint64_t a = __rdtsc();
			uint64_t b = __rdtsc();
			acc += b - a;
		}
#endif
		break;
	case MONO:
		for (uint64_t i = 0; i < n; i++) {
			uint64_t a = bench_now_ns();
			uint64_t b = bench_now_ns();
			acc += b - a;
		}
		break;
	}
	sink += acc;
}

/* ns per pair of reads in the median batch of COUNT pairs (at least one batch). */
static double run(enum clk which, uint64_t count)
{
	size_t n = count / BATCH ? count / BATCH : 1;
	double *v = malloc(n * sizeof(*v));
	if (!v) {
		perror("floor");
		exit(1);
	}
	body(which, WARMUP);
	for (size_t i = 0; i < n; i++) {
		uint64_t t0 = bench_now_ns();
		body(which, BATCH);
		v[i] = (double)(bench_now_ns() - t0) / BATCH;
	}
	double m = bench_median(v, n);
	free(v);
	return m;
}

int main(int argc, char **argv)
{
	if (argc > 2) {
		fprintf(stderr, "usage: floor [COUNT]\n");
		return 2;
	}
	uint64_t count = argc > 1 ? bench_count(argv[1], "COUNT") : 10000000u;
#ifdef HAVE_TSC
	printf("tsc_ns=%.2f\n", run(TSC, count));
#endif
	printf("mono_ns=%.2f\n", run(MONO, count));
	printf("invariant_tsc=%d\n", tprof_invariant_tsc());
	return 0;
}
