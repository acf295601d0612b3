/* threads.c — N threads (default 16) each record a known number of ranges, marks, counter
 * samples and one step, so that tests can check exact counts.
 * Usage: threads [THREADS] [ITERATIONS] */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <tprof/tprof.h>

static int iterations = 1000;

static void *work(void *arg)
{
	char name[32];
	snprintf(name, sizeof(name), "worker %ld", (long)(intptr_t)arg);
	for (int i = 0; i < iterations; i++) {
		tprof_range_push("outer");
		tprof_range_push(name);
		tprof_mark("tick");
		tprof_range_pop();
		tprof_range_pop();
		tprof_counter("progress", (double)i);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 16;
	iterations = argc > 2 ? atoi(argv[2]) : 1000;
	pthread_t *t = calloc((size_t)n, sizeof(*t));
	tprof_step(0);
	for (long i = 0; i < n; i++)
		pthread_create(&t[i], NULL, work, (void *)(intptr_t)i);
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	tprof_step(1);
	printf("threads=%d iterations=%d\n", n, iterations);
	free(t);
	return 0;
}
