/* capture.c — a program for the capture window's tests (t-capture.sh).  Usage:
 *   capture steps N MS [DIR]   steps 0..N-1 of MS ms each, each a range "work" and a mark
 *                              "tick", inside a range "outer"; with DIR, the file DIR/at<i>
 *                              is made as step i starts (a test waits for it to signal)
 *   capture api                steps 0..9 of 1 ms; tprof_stop before step 3, tprof_start
 *                              before step 6; a range "kept" pushed before the stop and
 *                              popped after it; a range "unseen" pushed while stopped and
 *                              popped after the start
 * Prints "ok" at the end. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <tprof/tprof.h>

static void nap(int ms)
{
	struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };
	while (nanosleep(&t, &t))
		;
}

static void touch(const char *dir, int i)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/at%d", dir, i);
	int fd = open(path, O_WRONLY | O_CREAT, 0644);
	if (fd >= 0)
		close(fd);
}

int main(int argc, char **argv)
{
	if (argc >= 4 && !strcmp(argv[1], "steps")) {
		int n = atoi(argv[2]), ms = atoi(argv[3]);
		tprof_range_push("outer");
		for (int i = 0; i < n; i++) {
			tprof_step((uint64_t)i);
			if (argc > 4)
				touch(argv[4], i);
			tprof_range_push("work");
			tprof_mark("tick");
			nap(ms);
			tprof_range_pop();
		}
		tprof_step_end();
		tprof_range_pop();
	} else if (argc == 2 && !strcmp(argv[1], "api")) {
		for (int i = 0; i < 10; i++) {
			if (i == 3) {
				tprof_range_push("kept");
				tprof_stop();
				tprof_range_pop();
				tprof_range_push("unseen");
			}
			if (i == 6) {
				tprof_start();
				tprof_range_pop();
			}
			tprof_step((uint64_t)i);
			tprof_mark("tick");
			nap(1);
		}
		tprof_step_end();
	} else {
		fprintf(stderr, "usage: %s steps N MS [DIR] | api\n", argv[0]);
		return 2;
	}
	puts("ok");
	return 0;
}
