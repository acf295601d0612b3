/* steps.c — ten training steps of known shape, for the window options of tprof-analyze.
 *
 * Usage: steps [MS] [open]
 * Steps 0..9 each last about 3*MS milliseconds (default 10).  Step s records, in order:
 * mark "m s", counter "c" = s, range "r s" (MS ms long, sleeping), then sleeps MS ms, then
 * mark "late s" and sleeps MS ms more.  Two ranges cross step boundaries: "cross-a" opens in
 * step 2 and closes in step 4, "cross-b" opens in step 5 and closes in step 7.  With "open",
 * a range "tail" is opened after step 9 and never closed (the process ends with it open). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tprof/tprof.h>

int main(int argc, char **argv)
{
	int ms = argc > 1 ? atoi(argv[1]) : 10;
	char name[32];
	for (int s = 0; s < 10; s++) {
		tprof_step((uint64_t)s);
		if (s == 4 || s == 7)
			tprof_range_pop();  /* closes cross-a / cross-b */
		snprintf(name, sizeof(name), "m %d", s);
		tprof_mark(name);
		tprof_counter("c", (double)s);
		snprintf(name, sizeof(name), "r %d", s);
		tprof_range_push(name);
		usleep((useconds_t)ms * 1000);
		tprof_range_pop();
		if (s == 2)
			tprof_range_push("cross-a");
		if (s == 5)
			tprof_range_push("cross-b");
		usleep((useconds_t)ms * 1000);
		snprintf(name, sizeof(name), "late %d", s);
		tprof_mark(name);
		usleep((useconds_t)ms * 1000);
	}
	if (argc > 2 && !strcmp(argv[2], "open")) {
		tprof_range_push("tail");
		usleep((useconds_t)ms * 1000);
	}
	printf("steps=10\n");
	return 0;
}
