/* test-devtime-anchor.c — how device timing (preload/events/devtime.c) pins a device's clock to the
 * host's when the host is slow at the wrong moments.  A fake runtime's events take the
 * CLOCK_MONOTONIC time at which they are "submitted"; on the recorder's private stream (the
 * one it anchors on) a script stalls record calls after the submission, or keeps events
 * looking unfinished for a while, as a descheduled thread or a late poll would.  One
 * operation is then timed on another stream, whose events are exact, and the program prints
 * the times its events really took; t-devtime-anchor.sh compares them with the DEVICE
 * record.  Scenarios (argv[2]):
 *   prompt   no stall at all;
 *   seen     every event of the private stream is seen done 5 ms late;
 *   mixed    the first record call returns 6 ms after submitting (its event seen at once),
 *            every later event is seen 8 ms late (its record call prompt): no single try is
 *            narrower than 6 ms, but together they pin the clock;
 *   slow     every record call but the fourth returns 4 ms after submitting.
 * Prints: start_ns=S end_ns=E (the operation's true device times). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../preload/events/devtime.h"

#define PRIV_STREAM 0xa11c
#define MS 1000000ll

struct fake_ev {
	int64_t t;                   /* monotonic ns when submitted, 0 before */
	int64_t seen;                /* not seen done before this time */
};

static const char *scenario;
static int priv_records;         /* record calls on the private stream so far */

static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void spin_until(int64_t t)
{
	while (now_ns() < t)
		;
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
	struct fake_ev *e = ev;
	int64_t stall = 0, late = 0;
	if (stream == PRIV_STREAM) {
		int n = priv_records++;
		if (!strcmp(scenario, "seen"))
			late = 5 * MS;
		else if (!strcmp(scenario, "mixed") && n == 0)
			stall = 6 * MS;
		else if (!strcmp(scenario, "mixed"))
			late = 8 * MS;
		else if (!strcmp(scenario, "slow") && n % 4 != 3)
			stall = 4 * MS;
	}
	e->t = now_ns();
	e->seen = e->t + late;
	spin_until(e->t + stall);
	return 0;
}

static int ev_query(void *ev)
{
	struct fake_ev *e = ev;
	return e->t && now_ns() >= e->seen ? 1 : 0;
}

static int ev_sync(void *ev)
{
	while (!ev_query(ev))
		;
	return 0;
}

static int ev_elapsed(void *a, void *b, float *ms)
{
	const struct fake_ev *x = a, *y = b;
	if (!x->t || !y->t)
		return -1;
	*ms = (float)((double)(y->t - x->t) / 1e6);
	return 0;
}

static int stream_create(int device, uint64_t *stream)
{
	(void)device;
	*stream = PRIV_STREAM;
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

int main(int argc, char **argv)
{
	/* The recorder reads its configuration when it loads: come back with it set. */
	if (!getenv("TPROF_ENABLE")) {
		if (argc < 3) {
			fprintf(stderr, "usage: %s OUTPUT_DIR prompt|seen|mixed|slow\n", argv[0]);
			return 2;
		}
		setenv("TPROF_ENABLE", "1", 1);
		setenv("TPROF_OUTPUT_DIR", argv[1], 1);
		execv("/proc/self/exe", argv);
		perror("execv");
		return 2;
	}
	scenario = argv[2];
	struct tprof_thread *t = &tprof_tls;
	t->guard++;
	struct tprof_devpend *p = tprof_dev_begin(t, &fake_rt, 0, 0x5eed);
	if (!p) {
		fprintf(stderr, "no slot for the operation\n");
		return 1;
	}
	p->corr = 7;
	p->kind = TPROF_DEVOP_COLLECTIVE;
	const struct fake_ev *s = p->ev_start, *e = p->ev_end;
	spin_until(now_ns() + 2 * MS);     /* the operation's device time */
	tprof_dev_end(t, p, 1);
	printf("start_ns=%lld end_ns=%lld\n", (long long)s->t, (long long)e->t);
	tprof_dev_drain(&fake_rt, 0, 0);   /* anchors, then times it */
	t->guard--;
	return 0;
}
