/* test-clocksync.c — clock alignment from CSYNC records on a synthetic 4-rank trace.
 * Rank 1 shares rank 0's host but its clock samples claim a clock 50 ms ahead (what
 * TPROF_TEST_CLOCK_SKEW_NS does); rank 2 is on another host whose realtime clock is 7 ms
 * ahead and drifts 20 us between MPI_Init and MPI_Finalize, recording TSC-like ticks; rank 3
 * shares rank 0's clock, its measured offset within its round trip.  The offsets must be
 * recovered within the round trip, rank 1's and rank 2's events moved back (drift
 * interpolated), their messages to rank 0 pointing forwards again, rank 3 left alone, and
 * the summary must say so. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "mpicap.h"
#include "mpiw.h"
#include "rts.h"
#include "../../analyze/summary/summary.h"
#include "tap.h"

#define T(x) ((int64_t)(x) - 1000)
#define SKEW 50000000ll
#define HOSTB_SKEW 7000000ll

static struct mw_rank r[4];

static void make(const char *dir)
{
	mw_begin(&r[0], dir, "hostA", 401, 0, 4, 0, 200000);
	mw_begin(&r[1], dir, "hostA", 402, 1, 4, SKEW, 200000);
	mw_begin_tsc(&r[2], dir, "hostB", 501, 2, 4, 5000000000ll, HOSTB_SKEW, 200000);
	mw_begin(&r[3], dir, "hostA", 404, 3, 4, 0, 200000);
	for (int i = 0; i < 4; i++)
		mw_world(&r[i], 4);
	/* Rank 0 answered 300 ns "late" in rank 1's and rank 3's eyes (within the 2 us trip). */
	mw_csync(&r[1], TPROF_CSYNC_INIT, 5000, 5300, 2000, "hostA", 401);
	mw_csync(&r[1], TPROF_CSYNC_FINALIZE, 150000, 150300, 2000, "hostA", 401);
	mw_csync(&r[2], TPROF_CSYNC_INIT, 2 * 6000, 6000, 4000, "hostA", 401);
	mw_csync(&r[2], TPROF_CSYNC_FINALIZE, 2 * 160000, 160000 - 20000, 4000, "hostA", 401);
	mw_csync(&r[3], TPROF_CSYNC_INIT, 7000, 7300, 2000, "hostA", 401);

	mw_recv(&r[0], 29000, 31000, 1, 1, 10);
	mw_send(&r[1], 30000, 30100, 0, 1, 10);
	mw_recv(&r[0], 40050, 41000, 3, 3, 30);
	mw_send(&r[3], 40000, 40100, 0, 3, 30);
	mw_recv(&r[0], 82000, 90000, 2, 2, 20);
	mw_send(&r[2], 2 * 83000, 2 * 83100, 0, 2, 20);
	for (int i = 0; i < 4; i++)
		mw_end(&r[i]);
}

static const struct message_info *from(const struct mpicap *c, int src)
{
	for (int i = 0; i < c->nmsg; i++)
		if (c->msg[i].src == src)
			return &c->msg[i];
	return NULL;
}

/* A line of text holding all three strings. */
static int line_has(const char *text, const char *a, const char *b, const char *c)
{
	for (const char *l = text; l && *l;) {
		const char *e = strchr(l, '\n');
		size_t n = e ? (size_t)(e - l) : strlen(l);
		char buf[1024];
		snprintf(buf, sizeof(buf), "%.*s", (int)n, l);
		if (strstr(buf, a) && strstr(buf, b) && strstr(buf, c))
			return 1;
		l = e ? e + 1 : NULL;
	}
	return 0;
}

static const struct proc *rank(const struct trace *tr, int k)
{
	for (size_t i = 0; i < tr->nprocs; i++)
		if (tr->procs[i]->rank == k)
			return tr->procs[i];
	return NULL;
}

int main(void)
{
	char dir[256];
	if (make_tmpdir(dir, sizeof(dir), "clocksync") < 0)
		return 99;
	make(dir);

	struct trace tr = { 0 };
	static struct mpicap c;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	ok(trace_load(&tr, dir) == 0 && tr.nprocs == 4, "four ranks load");
	summary_set_runtimes(test_runtimes());
	struct output outs[2] = { { &mpicap_ops, &c }, output_summary(f, dir, 0) };
	struct pipeline pl = { .rts = test_runtimes(), .tr = &tr, .outs = outs, .nouts = 2 };
	for (int i = 0; i < 2; i++)
		outs[i].ops->begin(outs[i].priv, &tr);
	merge_run(&tr, &pl);
	for (int i = 0; i < 2; i++)
		outs[i].ops->end(outs[i].priv, &tr);
	fclose(f);

	const struct proc *p1 = rank(&tr, 1), *p2 = rank(&tr, 2), *p3 = rank(&tr, 3);
	ok(p1 && p1->csync_verdict == CSYNC_APPLIED && p1->ncsync == 2 &&
	   p1->csync[0].delta == SKEW - 300 && p1->csync[0].rtt_ns == 2000,
	   "rank 1: offset %lld ns recovered within its 2 us round trip of the 50 ms skew; applied",
	   p1 ? (long long)p1->csync[0].delta : 0);
	ok(p2 && p2->csync_verdict == CSYNC_APPLIED && p2->csync[0].delta == HOSTB_SKEW &&
	   p2->csync[1].delta == HOSTB_SKEW + 20000 && p2->csync[0].rtt_ns == 2000,
	   "rank 2 (another host, TSC ticks): 7 ms at MPI_Init, 7.02 ms at MPI_Finalize, round trip in ns");
	ok(p3 && p3->csync_verdict == CSYNC_SHARED_CLOCK && p3->csync[0].delta == -300 && !p3->tb.corrected,
	   "rank 3: same host, offset within half its round trip: left alone");
	is_u64(c.nmsg, 3, "three messages to rank 0");

	const struct message_info *m1 = from(&c, 1), *m2 = from(&c, 2), *m3 = from(&c, 3);
	ok(m1 && m1->send_t0 == T(30300) && m1->recv_done == T(31000),
	   "rank 1's send moved back by the offset: it starts before rank 0's receive returns");
	ok(m2 && m2->send_t0 == T(73000), "rank 2's send, mid-way, moved back by 7 ms + half the drift");
	ok(m3 && m3->send_t0 == T(40000), "rank 3's times are unchanged");
	int fwd = 1;
	for (int i = 0; i < c.nmsg; i++)
		fwd &= c.msg[i].recv_done >= c.msg[i].send_t0;
	ok(fwd, "every message arrow points forwards");
	ok(tr.start_ns == MW_REAL0 + 1000, "the trace still starts at rank 0's first sample");

	ok(text && strstr(text, "\nClock alignment:"), "the summary has a clock alignment section");
	ok(line_has(text, "rank 1 (", "MPI_Init", "+49999700") &&
	   line_has(text, "rank 1 (", "MPI_Finalize", "+49999700") &&
	   line_has(text, "rank 2 (", "MPI_Init", "+7000000") &&
	   line_has(text, "rank 2 (", "MPI_Finalize", "+7020000"), "with the offsets in ns");
	ok(line_has(text, "rank 1 (", "2.000 us", "yes") && line_has(text, "rank 3 (", "-300", "no (shared clock)"),
	   "round trips, and whether they were applied");
	if (!line_has(text, "rank 3 (", "-300", "no (shared clock)"))
		printf("%s", text ? text : "");
	trace_free(&tr);
	free(text);
	rm_rf(dir);

	/* Rank 1 measured against a rank 0 that was not recorded. */
	if (make_tmpdir(dir, sizeof(dir), "clocksync") < 0)
		return 99;
	mw_begin(&r[1], dir, "hostA", 402, 1, 2, SKEW, 200000);
	mw_csync(&r[1], TPROF_CSYNC_INIT, 5000, 5300, 2000, "hostA", 401);
	mw_send(&r[1], 30000, 30100, 0, 1, 10);
	mw_end(&r[1]);
	memset(&tr, 0, sizeof(tr));
	ok(mpicap_run(&tr, dir, &c, NULL) == 0 && tr.nprocs == 1 &&
	   tr.procs[0]->csync_verdict == CSYNC_NO_REFERENCE && !tr.procs[0]->tb.corrected,
	   "a measurement against a process not in the trace is not applied");
	trace_free(&tr);
	rm_rf(dir);
	return tap_done();
}
