/* hold.c — a program that is still running while its profile is read: THREADS threads each
 * record N marks ("mark") and end; then one thread records marks ("busy"), a hundred at a
 * time, while the program waits for its standard input to close.  It says "ready" (and flushes)
 * once the N marks of every thread are recorded, and "busy=B" at its end.
 * Usage: hold THREADS N */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <tprof/tprof.h>

static int n = 1000;
static volatile int stop;

static void *marks(void *arg)
{
	(void)arg;
	for (int i = 0; i < n; i++)
		tprof_mark("mark");
	return NULL;
}

static void *busy(void *arg)
{
	long long *count = arg;
	while (!stop) {
		tprof_mark("busy");
		if (++*count % 100 == 0)
			usleep(1000);   /* buffers fill and are reused often, the spool stays small */
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int threads = argc > 1 ? atoi(argv[1]) : 2;
	if (argc > 2)
		n = atoi(argv[2]);
	pthread_t *t = calloc((size_t)threads, sizeof(*t)), b;
	long long count = 0;
	char buf[64];
	if (!t)
		return 1;
	for (int i = 0; i < threads; i++)
		if (pthread_create(&t[i], NULL, marks, NULL))
			return 1;
	for (int i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	if (pthread_create(&b, NULL, busy, &count))
		return 1;
	printf("ready\n");
	fflush(stdout);
	while (read(0, buf, sizeof(buf)) > 0)
		;
	stop = 1;
	pthread_join(b, NULL);
	printf("busy=%lld\n", count);
	free(t);
	return 0;
}
