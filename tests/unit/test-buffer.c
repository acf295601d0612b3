/* test-buffer.c — the recorder's buffers under contention, built with ThreadSanitizer: many
 * threads record through tiny buffers (so buffers fill, are handed to the flusher, recycled
 * and re-granted all the time), threads come and go, names come from the heap and from
 * literals, and one thread forces synchronous flushes.  The recorder is compiled into this
 * binary; t-buffer-tsan.sh runs it and checks every event arrived. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tprof/tprof.h>

#include "../../preload/core/core.h"
#include "../../preload/init.h"

#define THREADS 8
#define ROUNDS 3
#define EVENTS 20000

static void *worker(void *arg)
{
	long id = (long)arg;
	char *name = malloc(32);
	snprintf(name, 32, "heap name %ld", id % 4);
	for (int i = 0; i < EVENTS; i++) {
		tprof_range_push(i % 2 ? "literal" : name);
		tprof_mark("m");
		tprof_range_pop();
		if (i % 1000 == 0)
			tprof_counter("i", i);
	}
	free(name);
	return NULL;
}

static void *flusher_pest(void *arg)
{
	(void)arg;
	for (int i = 0; i < 20; i++) {
		tprof_prepare_exec();
		usleep(2000);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	/* The recorder reads its configuration when it loads: come back with it set. */
	if (!getenv("TPROF_ENABLE")) {
		if (argc < 2) {
			fprintf(stderr, "usage: %s OUTPUT_DIR\n", argv[0]);
			return 2;
		}
		setenv("TPROF_ENABLE", "1", 1);
		setenv("TPROF_OUTPUT_DIR", argv[1], 1);
		setenv("TPROF_BUFFER_KB", "16", 1);
		execv("/proc/self/exe", argv);
		perror("execv");
		return 2;
	}
	pthread_t pest;
	pthread_create(&pest, NULL, flusher_pest, NULL);
	for (int r = 0; r < ROUNDS; r++) {
		pthread_t t[THREADS];
		for (long i = 0; i < THREADS; i++)
			pthread_create(&t[i], NULL, worker, (void *)(i + r * THREADS));
		for (int i = 0; i < THREADS; i++)
			pthread_join(t[i], NULL);
	}
	pthread_join(pest, NULL);
	/* Expected: ranges and marks per worker, counters every 1000 events. */
	printf("ranges=%d marks=%d counters=%d\n", ROUNDS * THREADS * EVENTS, ROUNDS * THREADS * EVENTS,
	       ROUNDS * THREADS * (EVENTS / 1000));
	return 0;
}
