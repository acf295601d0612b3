/* cpuburn.c — a CPU-bound program for the system-profile benchmark: THREADS threads each do
 * WORK iterations of integer arithmetic in two functions (3:1), no system calls, no sleeping,
 * so that any slowdown under the sampler is the sampler's.
 *
 * Usage: cpuburn WORK [THREADS]
 *
 * Prints ns=<wall time of the threads' work> and sum=<a checksum, so the work is not elided>. */
#include <pthread.h>

#include "bench.h"

static uint64_t work;

static __attribute__((noinline)) uint64_t burn(uint64_t n, uint64_t x)
{
	for (uint64_t i = 0; i < n; i++)
		x = x * 6364136223846793005u + 1442695040888963407u + (x >> 29);
	return x;
}

static __attribute__((noinline)) uint64_t burn_more(uint64_t n, uint64_t x)
{
	return burn(3 * n, x);
}

static void *run(void *arg)
{
	uint64_t x = (uintptr_t)arg, chunk = 1000000;
	for (uint64_t done = 0; done < work; done += 4 * chunk)
		x = burn(chunk, burn_more(chunk, x));
	return (void *)(uintptr_t)x;
}

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: cpuburn WORK [THREADS]\n");
		return 2;
	}
	work = bench_count(argv[1], "work");
	unsigned threads = argc > 2 ? (unsigned)bench_count(argv[2], "threads") : 1;
	if (threads < 1 || threads > 64) {
		fprintf(stderr, "bad threads '%s'\n", argv[2]);
		return 2;
	}
	pthread_t t[64];
	uint64_t t0 = bench_now_ns(), sum = 0;
	for (unsigned i = 0; i < threads; i++)
		if (pthread_create(&t[i], NULL, run, (void *)(uintptr_t)(i + 1))) {
			fprintf(stderr, "cannot start a thread\n");
			return 1;
		}
	for (unsigned i = 0; i < threads; i++) {
		void *r;
		pthread_join(t[i], &r);
		sum += (uintptr_t)r;
	}
	printf("ns=%llu\nsum=%llu\n", (unsigned long long)(bench_now_ns() - t0),
	       (unsigned long long)sum);
	return 0;
}
