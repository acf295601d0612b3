/* diag-late.c — writes the trace of one synthetic process whose device work is recorded late,
 * for func/t-diag-late.sh: STEPS steps of 10 ms, each of the first KERNEL_STEPS (default: all)
 * a hipLaunchKernel call 1 ms in and its kernel from 2 ms to 8 ms (6 ms of compute a step),
 * the kernel's DEVICE record written by the completion thread DELAY_MS after the kernel
 * ended (the last kernel's LAST_DELAY_MS, default the same), as a busy machine makes the
 * recorder do.  Times are ticks = CLOCK_MONOTONIC ns.
 * Usage: diag-late DIR STEPS DELAY_MS [KERNEL_STEPS [LAST_DELAY_MS]] */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "../unit/ncclw.h"

#define MS 1000000ull
#define T0 (10 * MS)             /* the first step's start */

int main(int argc, char **argv)
{
	if (argc < 4 || argc > 6 || (mkdir(argv[1], 0755) < 0 && errno != EEXIST)) {
		fprintf(stderr, "usage: diag-late DIR STEPS DELAY_MS [KERNEL_STEPS [LAST_DELAY_MS]]\n");
		return 2;
	}
	int steps = atoi(argv[2]);
	int kernel_steps = argc > 4 ? atoi(argv[4]) : steps;
	uint64_t delay = strtoull(argv[3], NULL, 10) * MS;
	uint64_t last_delay = argc > 5 ? strtoull(argv[5], NULL, 10) * MS : delay;
	uint64_t end = T0 + (uint64_t)steps * 10 * MS + (delay > last_delay ? delay : last_delay) +
		       10 * MS;
	struct nw_rank r;
	nw_begin(&r, argv[1], "hostA", 4300, -1, 0, end);
	for (int i = 0; i < steps; i++) {
		uint64_t t = T0 + (uint64_t)i * 10 * MS;
		mw_room(&r.m);
		mw_put(r.m.s1, &r.m.n1, tw_rec(TPROF_K_STEP, 0, t, 0, (uint64_t)i), NULL, 0);
		struct tprof_rec fin = tw_rec(TPROF_K_STEP, 0, t + 10 * MS - 1000, 0, (uint64_t)i);
		fin.flags = TPROF_STEP_END;
		if (i >= kernel_steps) {
			mw_put(r.m.s1, &r.m.n1, fin, NULL, 0);
			continue;
		}
		uint64_t corr = ++r.m.corr;
		struct tprof_rec call = tw_rec(TPROF_K_CALL, mw_str(&r.m, "hipLaunchKernel"),
					       t + MS, t + MS + 20000, corr);
		call.flags = TPROF_DOM_HIP;
		mw_put(r.m.s1, &r.m.n1, call, NULL, 0);
		mw_put(r.m.s1, &r.m.n1, fin, NULL, 0);
		struct tprof_devop d;
		memset(&d, 0, sizeof(d));
		d.start_ns = (int64_t)(t + 2 * MS);
		d.end_ns = (int64_t)(t + 8 * MS);
		d.stream = 1;
		d.launch_stream = 1;
		d.launch_t0 = t + MS;
		nw_devop(&r, "step_kernel", t + 8 * MS + (i == kernel_steps - 1 ? last_delay : delay),
			 corr, TPROF_DEVOP_KERNEL, &d);
	}
	if (r.m.w.fd < 0) {
		fprintf(stderr, "diag-late: cannot write under %s\n", argv[1]);
		return 1;
	}
	nw_end(&r);
	return 0;
}
