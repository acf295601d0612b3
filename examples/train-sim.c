/* train-sim.c — a small multi-threaded program shaped like a training job, annotated with the
 * tprof API: a loader thread fills a queue of batches, the main thread runs steps (forward,
 * backward, optimizer), and a pool of workers "reduces gradients" in parallel each step.
 * It is the sample the README profiles.  Usage: train-sim [STEPS] [WORKERS] */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <tprof/tprof.h>

#define QUEUE 4

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int queued, steps = 20, workers = 4, done;
static pthread_barrier_t start_reduce, end_reduce;
static double sink;

/* Some arithmetic that takes a predictable while. */
static double compute(long n)
{
	double x = 0;
	for (long i = 1; i <= n; i++)
		x += sin((double)i) * cos((double)i / 3);
	return x;
}

static void *loader(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "loader");
	for (int b = 0; b < steps; b++) {
		tprof_range_push("load batch");
		sink += compute(40000);
		tprof_range_pop();
		pthread_mutex_lock(&lock);
		while (queued == QUEUE)
			pthread_cond_wait(&cond, &lock);
		queued++;
		tprof_counter("queue depth", queued);
		pthread_cond_broadcast(&cond);
		pthread_mutex_unlock(&lock);
	}
	return NULL;
}

static void *reducer(void *arg)
{
	char name[16];
	snprintf(name, sizeof(name), "reducer %ld", (long)(intptr_t)arg);
	pthread_setname_np(pthread_self(), name);
	for (;;) {
		pthread_barrier_wait(&start_reduce);
		if (done)
			return NULL;
		tprof_range_push("reduce gradients");
		sink += compute(20000 + 5000 * (long)(intptr_t)arg);
		tprof_range_pop();
		pthread_barrier_wait(&end_reduce);
	}
}

static void take_batch(void)
{
	tprof_range_push("wait for batch");
	pthread_mutex_lock(&lock);
	while (queued == 0)
		pthread_cond_wait(&cond, &lock);
	queued--;
	tprof_counter("queue depth", queued);
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
	tprof_range_pop();
}

int main(int argc, char **argv)
{
	steps = argc > 1 ? atoi(argv[1]) : steps;
	workers = argc > 2 ? atoi(argv[2]) : workers;
	if (steps < 1 || workers < 1) {
		fprintf(stderr, "usage: %s [STEPS>0] [WORKERS>0]\n", argv[0]);
		return 2;
	}
	pthread_t load, *pool = calloc((size_t)workers, sizeof(*pool));
	pthread_barrier_init(&start_reduce, NULL, (unsigned)workers + 1);
	pthread_barrier_init(&end_reduce, NULL, (unsigned)workers + 1);
	pthread_create(&load, NULL, loader, NULL);
	for (long i = 0; i < workers; i++)
		pthread_create(&pool[i], NULL, reducer, (void *)(intptr_t)i);
	double loss = 4.0;
	for (int s = 0; s < steps; s++) {
		tprof_step((uint64_t)s);
		take_batch();
		tprof_range_push("forward");
		sink += compute(60000);
		tprof_range_pop();
		tprof_range_push("backward");
		sink += compute(90000);
		tprof_range_pop();
		tprof_range_push("all-reduce");
		pthread_barrier_wait(&start_reduce);
		pthread_barrier_wait(&end_reduce);
		tprof_range_pop();
		tprof_range_push("optimizer");
		sink += compute(15000);
		tprof_range_pop();
		loss *= 0.9;
		tprof_counter("loss", loss);
		if (s % 10 == 9)
			tprof_mark("checkpoint");
	}
	done = 1;
	pthread_barrier_wait(&start_reduce);
	pthread_join(load, NULL);
	for (int i = 0; i < workers; i++)
		pthread_join(pool[i], NULL);
	printf("trained %d steps with %d workers, final loss %.4f\n", steps, workers, loss);
	free(pool);
	return sink == 12345.0;  /* keeps the arithmetic; never true in practice */
}
