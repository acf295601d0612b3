/* test-devtime.c — device timing (preload/events/devtime.c) under ThreadSanitizer, with several
 * operations begun at once on a thread, as an NCCL group does: threads open a few slots on
 * different streams, time single operations in between, and end the open slots in any order,
 * some of them given up.  The runtime is a fake one whose events complete when recorded (a
 * CLOCK_MONOTONIC time stored atomically), so that the completion thread can time them at
 * once.  The recorder is compiled into this binary; t-devtime-tsan.sh runs it and checks that
 * every operation that was not given up, and none other, became one DEVICE record.
 * Prints: ops=N corr_sum=S (the operations expected, and the sum of their correlation ids). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../preload/events/devtime.h"

#define THREADS 6
#define ROUNDS 400
#define OPEN_MAX 4

struct fake_ev {
	int64_t t;                   /* monotonic ns when recorded, 0 before */
};

static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int ev_create(int device, void **ev)
{
	(void)device;
	*ev = calloc(1, sizeof(struct fake_ev));
	return *ev ? 0 : -1;
}

static void ev_destroy(void *ev)
{
	free(ev);
}

static int ev_record(void *ev, uint64_t stream)
{
	(void)stream;
	__atomic_store_n(&((struct fake_ev *)ev)->t, now_ns(), __ATOMIC_RELEASE);
	return 0;
}

static int ev_query(void *ev)
{
	return __atomic_load_n(&((struct fake_ev *)ev)->t, __ATOMIC_ACQUIRE) ? 1 : 0;
}

static int ev_sync(void *ev)
{
	while (!ev_query(ev))
		sched_yield();
	return 0;
}

static int ev_elapsed(void *a, void *b, float *ms)
{
	int64_t ta = __atomic_load_n(&((struct fake_ev *)a)->t, __ATOMIC_ACQUIRE);
	int64_t tb = __atomic_load_n(&((struct fake_ev *)b)->t, __ATOMIC_ACQUIRE);
	if (!ta || !tb)
		return -1;
	*ms = (float)((double)(tb - ta) / 1e6);
	return 0;
}

static int stream_create(int device, uint64_t *stream)
{
	(void)device;
	*stream = 0xfee1;
	return 0;
}

static int device_of_stream(uint64_t stream)
{
	(void)stream;
	return 0;
}

static const struct tprof_devrt fake_rt = {
	.name = "fake", .id = 0, .event_create = ev_create, .event_destroy = ev_destroy,
	.event_record = ev_record, .event_query = ev_query, .event_sync = ev_sync,
	.elapsed_ms = ev_elapsed, .stream_create = stream_create,
	.device_of_stream = device_of_stream,
};

struct result {
	uint64_t ops, corr_sum;
};

/* Begins an operation with correlation id `corr` on `stream`; NULL when it got no slot. */
static struct tprof_devpend *begin(struct tprof_thread *t, uint64_t stream, uint64_t corr)
{
	struct tprof_devpend *p = tprof_dev_begin(t, &fake_rt, 0, stream);
	if (p) {
		p->corr = corr;
		p->kind = TPROF_DEVOP_COLLECTIVE;
		p->op.launch_t0 = corr;
		p->op.bytes = corr;
	}
	return p;
}

static void end(struct tprof_thread *t, struct tprof_devpend *p, int ok, struct result *res)
{
	if (p && ok) {
		res->ops++;
		res->corr_sum += p->corr;
	}
	tprof_dev_end(t, p, ok);
}

static void *worker(void *arg)
{
	long id = (long)arg;
	struct result *res = calloc(1, sizeof(*res));
	struct tprof_thread *t = &tprof_tls;
	uint64_t corr = (uint64_t)(id + 1) << 32;
	unsigned seed = (unsigned)id;
	t->guard++;
	for (int r = 0; r < ROUNDS; r++) {
		struct tprof_devpend *open[OPEN_MAX];
		int n = 1 + rand_r(&seed) % OPEN_MAX;
		for (int i = 0; i < n; i++) {
			open[i] = begin(t, 0x1000 + (uint64_t)i, ++corr);
			/* Single operations between the group's first ones, as a program may do. */
			if (rand_r(&seed) % 2)
				end(t, begin(t, 0x2000, ++corr), 1, res);
		}
		/* The group ends: its slots in any order, one in five given up. */
		for (int i = n - 1; i >= 0; i--)
			end(t, open[(i + r) % n], rand_r(&seed) % 5 != 0, res);
		if (rand_r(&seed) % 3 == 0)
			end(t, begin(t, 0x3000, ++corr), 0, res);
	}
	t->guard--;
	return res;
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
		execv("/proc/self/exe", argv);
		perror("execv");
		return 2;
	}
	pthread_t th[THREADS];
	struct result total = { 0, 0 };
	for (long i = 0; i < THREADS; i++)
		pthread_create(&th[i], NULL, worker, (void *)i);
	for (int i = 0; i < THREADS; i++) {
		void *rv;
		pthread_join(th[i], &rv);
		struct result *res = rv;
		total.ops += res->ops;
		total.corr_sum += res->corr_sum;
		free(res);
	}
	printf("ops=%llu corr_sum=%llu\n", (unsigned long long)total.ops,
	       (unsigned long long)total.corr_sum);
	return 0;
}
