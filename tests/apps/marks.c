/* marks.c — THREADS threads each record N marks ("mark"), one record per call, so the number
 * of events a run attempted is known exactly.
 * Usage: marks [THREADS] [N]   (default 4 threads, 5000 marks each); prints "attempted=T". */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <tprof/tprof.h>

static int n = 5000;

static void *work(void *arg)
{
	(void)arg;
	for (int i = 0; i < n; i++)
		tprof_mark("mark");
	return NULL;
}

int main(int argc, char **argv)
{
	int threads = argc > 1 ? atoi(argv[1]) : 4;
	if (argc > 2)
		n = atoi(argv[2]);
	pthread_t *t = calloc((size_t)threads, sizeof(*t));
	if (!t)
		return 1;
	for (int i = 0; i < threads; i++)
		if (pthread_create(&t[i], NULL, work, NULL))
			return 1;
	for (int i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	printf("attempted=%lld\n", (long long)threads * n);
	free(t);
	return 0;
}
