/* close-cost.c — what close() costs a program, for the recorder's close hook
 * (preload/libc/hook-fd.c): the median ns per call of three loops, each N calls, 5 runs:
 * close(-1) (the hook's compare and the cheapest system call), close(n) of a number at the
 * recorder's floor that is not open (the hook's look at its list), and open + close of
 * /dev/null.  Run it plain, with the recorder preloaded and off, and recording (it records one
 * mark first, so that the recorder holds its files).
 * Usage: close-cost [N [LOOP]]   (default 1e6 calls, every loop; LOOP 0, 1 or 2: that one) */
#include <errno.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <tprof/tprof.h>

#include "bench.h"

#define RUNS 5

static uint64_t user_ns(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (uint64_t)ru.ru_utime.tv_sec * 1000000000u + (uint64_t)ru.ru_utime.tv_usec * 1000u;
}

static double per_call(int which, uint64_t n, double *user)
{
	uint64_t u0 = user_ns(), t0 = bench_now_ns();
	for (uint64_t i = 0; i < n; i++) {
		if (which == 0)
			close(-1);
		else if (which == 1)
			close(1000);
		else
			close(open("/dev/null", O_RDONLY));
	}
	double wall = (double)(bench_now_ns() - t0) / (double)n;
	*user = (double)(user_ns() - u0) / (double)n;
	return wall;
}

int main(int argc, char **argv)
{
	uint64_t n = argc > 1 ? bench_count(argv[1], "N") : 1000000;
	static const char *const names[] = { "close(-1)", "close(unused >= floor)", "open+close" };
	tprof_mark("close-cost");
	int only = argc > 2 ? atoi(argv[2]) : -1;
	for (int w = 0; w < 3; w++) {
		if (only >= 0 && w != only)
			continue;
		double v[RUNS], u[RUNS];
		for (int r = 0; r < RUNS; r++)
			v[r] = per_call(w, n, &u[r]);
		printf("%-24s %8.1f ns wall %8.1f ns user\n", names[w], bench_median(v, RUNS),
		       bench_median(u, RUNS));
	}
	return 0;
}
