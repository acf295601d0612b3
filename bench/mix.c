/* mix.c — a training loop's worth of annotations, to measure bytes on disk per event and to
 * make traces for the analyzer benchmarks.
 *
 * Usage: mix RECORDS [THREADS] [WORK] [PACE]
 *
 * Each thread runs "steps": a step number, then layers whose ranges nest a sub-range or two,
 * with names drawn from fifty string literals, marks now and then, and counters whose values
 * change (a loss that drifts down with noise, a byte count, a learning rate).  Between events
 * the thread spins a pseudo-random 0..WORK iterations of arithmetic (default 200, no sleeping)
 * so that the gaps between timestamps vary as they do in real code.  Each thread stops at the
 * first step boundary after RECORDS/THREADS API calls.  With PACE (API calls per second, all
 * threads together), each thread records no faster than its share: every 1024 calls it waits
 * until the next batch is due.
 *
 * Prints the API calls made (records: push and pop each count one) and the events the analyzer
 * should report (a range, a mark, a counter sample or a step each count one). */
#include <pthread.h>
#include <tprof/tprof.h>

#include "bench.h"

static uint64_t per_thread;
static unsigned work_max = 200;
static double ns_per_record;   /* per thread, 0 = unpaced */
static volatile uint64_t sink;

struct counts {
	uint64_t records, events, steps;
	uint64_t rng;
	uint64_t t0;
};

/* Called after each API call: with a pace, holds the thread back when it is ahead. */
static inline void paced(struct counts *c)
{
	if (ns_per_record > 0 && (c->records & 1023) == 0) {
		uint64_t due = c->t0 + (uint64_t)((double)c->records * ns_per_record);
		while (bench_now_ns() < due)
			;
	}
}

static inline void work(struct counts *c)
{
	if (work_max)
		sink = bench_work(&c->rng, work_max);
}

static inline void push(struct counts *c, const char *name)
{
	tprof_range_push(name);
	c->records++;
	paced(c);
	work(c);
}

static inline void pop(struct counts *c)
{
	tprof_range_pop();
	c->records++;
	c->events++;
	paced(c);
	work(c);
}

static inline void mark(struct counts *c, const char *name)
{
	tprof_mark(name);
	c->records++;
	c->events++;
	paced(c);
	work(c);
}

static inline void counter(struct counts *c, const char *name, double v)
{
	tprof_counter(name, v);
	c->records++;
	c->events++;
	paced(c);
	work(c);
}

static void *thread_main(void *arg)
{
	struct counts *c = arg;
	c->t0 = bench_now_ns();
	double loss = 11.0;
	uint64_t step = 0;
	while (c->records < per_thread) {
		/* A thread-local step counter: steps are per process, so only thread 0 records them. */
		if (c->steps != (uint64_t)-1) {
			tprof_step(step);
			c->records++;
			c->events++;
			paced(c);
		}
		push(c, "dataloader.next");
		pop(c);
		push(c, "h2d.copy");
		pop(c);
		for (int l = 0; l < 16; l++) {
			push(c, bench_names[2 + 2 * l]);     /* layerNN.attn */
			if (bench_rand(&c->rng) % 4 == 0)
				mark(c, "kv_cache.miss");
			pop(c);
			push(c, bench_names[3 + 2 * l]);     /* layerNN.mlp */
			pop(c);
		}
		push(c, "loss.forward");
		pop(c);
		loss = loss * 0.9995 + (double)(bench_rand(&c->rng) % 1000) * 1e-5;
		counter(c, "loss", loss);
		for (int l = 15; l >= 0; l--) {
			push(c, bench_names[3 + 2 * l]);
			pop(c);
			push(c, bench_names[2 + 2 * l]);
			pop(c);
			if (l % 4 == 0) {
				push(c, bench_names[38 + (bench_rand(&c->rng) % 4)]);  /* a collective */
				counter(c, "bytes_in_flight", (double)(bench_rand(&c->rng) % (1u << 28)));
				pop(c);
			}
		}
		push(c, "grad_clip");
		counter(c, "grad_norm", 0.5 + (double)(bench_rand(&c->rng) % 100000) * 1e-5);
		pop(c);
		push(c, "optimizer.step");
		push(c, "optimizer.zero_grad");
		pop(c);
		pop(c);
		counter(c, "lr", 3e-4 * (1.0 - (double)step * 1e-6));
		push(c, bench_names[44 + bench_rand(&c->rng) % 6]);
		pop(c);
		if (bench_rand(&c->rng) % 8 == 0)
			mark(c, "step.slow");
		step++;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: mix RECORDS [THREADS] [WORK] [PACE]\n");
		return 2;
	}
	uint64_t total = bench_count(argv[1], "record count");
	int nt = argc > 2 ? (int)bench_count(argv[2], "thread count") : 1;
	if (nt < 1)
		nt = 1;
	if (argc > 3)
		work_max = (unsigned)bench_count(argv[3], "work");
	if (argc > 4) {
		double pace = (double)bench_count(argv[4], "pace");
		if (pace > 0)
			ns_per_record = 1e9 * nt / pace;
	}
	per_thread = (total + (uint64_t)nt - 1) / (uint64_t)nt;
	struct counts *c = calloc((size_t)nt, sizeof(*c));
	pthread_t *t = calloc((size_t)nt, sizeof(*t));
	if (!c || !t)
		return 1;
	for (int i = 0; i < nt; i++) {
		c[i].rng = 0x9e3779b97f4a7c15ull * (uint64_t)(i + 1);
		c[i].steps = i == 0 ? 0 : (uint64_t)-1;
	}
	uint64_t t0 = bench_now_ns();
	for (int i = 1; i < nt; i++)
		pthread_create(&t[i], NULL, thread_main, &c[i]);
	thread_main(&c[0]);
	for (int i = 1; i < nt; i++)
		pthread_join(t[i], NULL);
	uint64_t t1 = bench_now_ns();
	uint64_t records = 0, events = 0;
	for (int i = 0; i < nt; i++) {
		records += c[i].records;
		events += c[i].events;
	}
	double secs = (double)(t1 - t0) / 1e9;
	printf("threads=%d\nrecords=%llu\nevents=%llu\nseconds=%.6f\nrecords_per_s=%.0f\n", nt,
	       (unsigned long long)records, (unsigned long long)events, secs, (double)records / secs);
	free(c);
	free(t);
	return 0;
}
