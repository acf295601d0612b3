/* annot-heavy.c — an annotation-heavy profile: threads that each open RANGES nested ranges (a
 * request handler's worth: an endpoint, its authentication, a transaction of queries, the
 * response), four to five levels deep, with marks between them, to measure the size of the
 * analyzer's outputs where ranges and marks are all there is.
 *
 * Usage: annot-heavy [RANGES] [THREADS] [WORK]   (defaults 20000, 8, 200)
 *
 * Range names come from three dozen string literals; marks are short messages, some of them
 * literals ("cache.miss") and some formatted with a number as real code formats them
 * ("rows 17", "shard 3", "retry 2": a few hundred distinct names in all).  Between events the
 * thread spins a pseudo-random 0..WORK iterations of arithmetic so that the gaps between
 * timestamps vary.  Each thread stops at the first request boundary after RANGES ranges.
 *
 * Prints the API calls made (records: push and pop each count one) and the events the analyzer
 * should report (a range or a mark each count one). */
#include <pthread.h>
#include <tprof/tprof.h>

#include "bench.h"

static uint64_t ranges_per_thread = 20000;
static unsigned work_max = 200;
static volatile uint64_t sink;

struct counts {
	uint64_t records, events, ranges;
	uint64_t rng;
};

static const char *const endpoints[8] = {
	"rpc.GetUser", "rpc.ListItems", "rpc.UpdateCart", "rpc.Checkout",
	"rpc.Search", "rpc.GetRecommendations", "rpc.UploadImage", "rpc.HealthCheck",
};
static const char *const queries[8] = {
	"sql.select.users", "sql.select.items", "sql.select.cart", "sql.insert.order",
	"sql.update.stock", "sql.update.cart", "sql.delete.session", "sql.select.prices",
};
static const char *const steps[12] = {
	"auth.verify_token", "auth.load_session", "ratelimit.check", "db.transaction",
	"db.commit", "cache.get", "cache.put", "render.template", "serialize.json",
	"compress.gzip", "queue.publish", "log.flush",
};
static const char *const leaves[8] = {
	"pool.acquire", "pool.release", "codec.encode", "codec.decode",
	"hash.sha256", "alloc.arena", "lock.wait", "io.read",
};

static inline void work(struct counts *c)
{
	if (work_max)
		sink = bench_work(&c->rng, work_max);
}

static inline void push(struct counts *c, const char *name)
{
	tprof_range_push(name);
	c->records++;
	c->ranges++;
	work(c);
}

static inline void pop(struct counts *c)
{
	tprof_range_pop();
	c->records++;
	c->events++;
	work(c);
}

static inline void mark(struct counts *c, const char *name)
{
	tprof_mark(name);
	c->records++;
	c->events++;
	work(c);
}

/* A mark formatted with a number, as real code writes one. */
static void markf(struct counts *c, const char *what, unsigned n)
{
	char buf[48];
	snprintf(buf, sizeof(buf), "%s %u", what, n);
	mark(c, buf);
}

/* A leaf or two under the current range. */
static void leaf(struct counts *c)
{
	push(c, leaves[bench_rand(&c->rng) % 8]);
	pop(c);
}

static void *thread_main(void *arg)
{
	struct counts *c = arg;
	while (c->ranges < ranges_per_thread) {
		push(c, endpoints[bench_rand(&c->rng) % 8]);
		push(c, steps[0]);                      /* auth.verify_token */
		if (bench_rand(&c->rng) % 4 == 0) {
			push(c, steps[1]);
			leaf(c);
			pop(c);
		}
		pop(c);
		push(c, steps[2]);                      /* ratelimit.check */
		pop(c);
		push(c, steps[5]);                      /* cache.get */
		if (bench_rand(&c->rng) % 3 == 0)
			mark(c, "cache.miss");
		else
			mark(c, "cache.hit");
		pop(c);
		push(c, steps[3]);                      /* db.transaction */
		unsigned nq = 1 + (unsigned)(bench_rand(&c->rng) % 3);
		for (unsigned q = 0; q < nq; q++) {
			push(c, queries[bench_rand(&c->rng) % 8]);
			push(c, leaves[0]);             /* pool.acquire */
			if (bench_rand(&c->rng) % 16 == 0)
				markf(c, "pool.wait_us", (unsigned)(bench_rand(&c->rng) % 100));
			pop(c);
			markf(c, "rows", (unsigned)(bench_rand(&c->rng) % 200));
			if (bench_rand(&c->rng) % 32 == 0)
				markf(c, "retry", 1 + (unsigned)(bench_rand(&c->rng) % 3));
			pop(c);
		}
		push(c, steps[4]);                      /* db.commit */
		leaf(c);
		pop(c);
		pop(c);
		if (bench_rand(&c->rng) % 2 == 0) {
			push(c, steps[6]);              /* cache.put */
			markf(c, "shard", (unsigned)(bench_rand(&c->rng) % 16));
			pop(c);
		}
		push(c, steps[7 + bench_rand(&c->rng) % 2]);         /* render or serialize */
		leaf(c);
		if (bench_rand(&c->rng) % 2 == 0) {
			push(c, steps[9]);              /* compress.gzip */
			leaf(c);
			pop(c);
		}
		pop(c);
		if (bench_rand(&c->rng) % 4 == 0) {
			push(c, steps[10]);             /* queue.publish */
			mark(c, "queue.full");
			pop(c);
		}
		markf(c, "status", bench_rand(&c->rng) % 16 ? 200 : 503);
		pop(c);
		if (bench_rand(&c->rng) % 64 == 0) {
			push(c, steps[11]);
			pop(c);
		}
	}
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc > 1)
		ranges_per_thread = bench_count(argv[1], "range count");
	int nt = argc > 2 ? (int)bench_count(argv[2], "thread count") : 8;
	if (nt < 1)
		nt = 1;
	if (argc > 3)
		work_max = (unsigned)bench_count(argv[3], "work");
	struct counts *c = calloc((size_t)nt, sizeof(*c));
	pthread_t *t = calloc((size_t)nt, sizeof(*t));
	if (!c || !t)
		return 1;
	for (int i = 0; i < nt; i++)
		c[i].rng = 0x9e3779b97f4a7c15ull * (uint64_t)(i + 1);
	uint64_t t0 = bench_now_ns();
	for (int i = 1; i < nt; i++)
		pthread_create(&t[i], NULL, thread_main, &c[i]);
	thread_main(&c[0]);
	for (int i = 1; i < nt; i++)
		pthread_join(t[i], NULL);
	uint64_t t1 = bench_now_ns();
	uint64_t records = 0, events = 0, ranges = 0;
	for (int i = 0; i < nt; i++) {
		records += c[i].records;
		events += c[i].events;
		ranges += c[i].ranges;
	}
	printf("threads=%d\nranges=%llu\nrecords=%llu\nevents=%llu\nseconds=%.6f\n", nt,
	       (unsigned long long)ranges, (unsigned long long)records,
	       (unsigned long long)events, (double)(t1 - t0) / 1e9);
	free(c);
	free(t);
	return 0;
}
