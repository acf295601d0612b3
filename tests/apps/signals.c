/* signals.c — annotations made in a signal handler while the program records: a timer
 * (SIGALRM, every INTERVAL_US) interrupts a main loop that opens a range, waits inside a
 * wrapped runtime call (hipDeviceSynchronize of the minimal HIP runtime, which waits
 * MINIMAL_HIP_SYNC_US), marks and closes the range; each handler marks "signal" and opens and
 * closes a range "handler".  Prints how many handlers ran and how many loops the main thread
 * made, once the timer is off and the signal blocked, so the counts are final.
 * Usage: signals HANDLERS [INTERVAL_US] */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include <tprof/tprof.h>

#include "hip-minimal.h"

static volatile sig_atomic_t handled;

static void on_alarm(int sig)
{
	(void)sig;
	tprof_mark("signal");
	tprof_range_push("handler");
	tprof_range_pop();
	handled++;
}

int main(int argc, char **argv)
{
	int want = argc > 1 ? atoi(argv[1]) : 200;
	long interval = argc > 2 ? atol(argv[2]) : 500;
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGALRM, &sa, NULL) != 0)
		return 1;
	tprof_mark("start");
	struct itimerval it = { { 0, interval }, { 0, interval } };
	if (setitimer(ITIMER_REAL, &it, NULL) != 0)
		return 1;
	long loops = 0;
	while (handled < want) {
		tprof_range_push("work");
		hipDeviceSynchronize();
		tprof_mark("main");
		tprof_range_pop();
		loops++;
	}
	struct itimerval off;
	memset(&off, 0, sizeof(off));
	setitimer(ITIMER_REAL, &off, NULL);
	sigset_t block;
	sigemptyset(&block);
	sigaddset(&block, SIGALRM);
	sigprocmask(SIG_BLOCK, &block, NULL);
	printf("handlers=%d loops=%ld\n", (int)handled, loops);
	return 0;
}
