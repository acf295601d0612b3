/* roctx-ranges.c — roctx annotations from two threads: nested push/pop ranges, marks, and a
 * range started on one thread and stopped on the other.  Prints the levels and ids roctx
 * returned, so a test can check the profiler left them alone. */
#include <pthread.h>
#include <stdio.h>
#include <roctracer/roctx.h>

static roctx_range_id_t started;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;

static void *worker(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	while (!started)
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);
	for (int i = 0; i < 100; i++) {
		roctxRangePushA("worker step");
		roctxMarkA("worker mark");
		roctxRangePop();
	}
	roctxRangeStop(started);
	return NULL;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	int l0 = roctxRangePushA("outer");
	int l1 = roctxRangePushA("inner");
	pthread_mutex_lock(&lock);
	started = roctxRangeStartA("crosses threads");
	pthread_cond_signal(&cond);
	pthread_mutex_unlock(&lock);
	int p1 = roctxRangePop();
	int p0 = roctxRangePop();
	int none = roctxRangePop();
	pthread_join(t, NULL);
	printf("levels=%d,%d pops=%d,%d,%s id=%llu\n", l0, l1, p1, p0, none < 0 ? "neg" : "nonneg",
	       (unsigned long long)started);
	return 0;
}
