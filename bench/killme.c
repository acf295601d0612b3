/* killme.c — records a known number of events, says so, and waits to be killed.
 *
 * Usage: killme EVENTS [THREADS]
 *
 * Each of THREADS threads (default 1) records its share of EVENTS events, cycling through a
 * range (push + pop), a mark, a counter sample and another mark, so that every kind of record
 * and every buffer boundary is crossed.  Once all have finished (the threads stay alive, their
 * buffers still in use) it prints "ready PID RECORDS EVENTS" on stdout and sleeps until a
 * signal ends it.  Whatever kills it, the analyzer should find exactly EVENTS events. */
#include <pthread.h>
#include <signal.h>
#include <unistd.h>
#include <tprof/tprof.h>

#include "bench.h"

struct share {
	uint64_t events, records;
};

static pthread_barrier_t done;

static void record(struct share *s)
{
	for (uint64_t i = 0; i < s->events; i++) {
		switch (i & 3) {
		case 0:
			tprof_range_push(bench_names[i % 50]);
			tprof_range_pop();
			s->records += 2;
			break;
		case 1:
		case 3:
			tprof_mark(i & 2 ? "tick" : "tock");
			s->records++;
			break;
		case 2:
			tprof_counter("progress", (double)i);
			s->records++;
			break;
		}
	}
}

static void *thread_main(void *arg)
{
	record(arg);
	pthread_barrier_wait(&done);
	for (;;)
		pause();
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: killme EVENTS [THREADS]\n");
		return 2;
	}
	uint64_t n = bench_count(argv[1], "event count");
	unsigned nt = argc > 2 ? (unsigned)bench_count(argv[2], "thread count") : 1;
	if (nt < 1)
		nt = 1;
	struct share *sh = calloc(nt, sizeof(*sh));
	if (!sh)
		return 1;
	for (unsigned i = 0; i < nt; i++)
		sh[i].events = n / nt + (i < n % nt);
	pthread_barrier_init(&done, NULL, nt);
	for (unsigned i = 1; i < nt; i++) {
		pthread_t t;
		if (pthread_create(&t, NULL, thread_main, &sh[i]))
			return 1;
	}
	record(&sh[0]);
	pthread_barrier_wait(&done);
	uint64_t records = 0;
	for (unsigned i = 0; i < nt; i++)
		records += sh[i].records;
	printf("ready %ld %llu %llu\n", (long)getpid(), (unsigned long long)records,
	       (unsigned long long)n);
	fflush(stdout);
	for (;;)
		pause();
}
