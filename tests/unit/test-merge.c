/* test-merge.c — the merge puts two processes of two hosts, with different clocks (TSC-like
 * ticks at 0.5 ns, and monotonic ns), on one time axis in the right order; ranges pair up
 * per thread, a child never starts at its parent's nanosecond, an unmatched pop is counted,
 * an unclosed range ends with its process and is flagged. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../analyze/model/output.h"
#include "rts.h"
#include "tap.h"
#include "writer.h"

#define E9 1000000000000ll

struct captured {
	struct event ev[64];
	int n;
};

static int cap_begin(void *priv, const struct trace *tr)
{
	(void)priv;
	(void)tr;
	return 0;
}

static void cap_event(void *priv, const struct event *ev)
{
	struct captured *c = priv;
	if (c->n < 64)
		c->ev[c->n++] = *ev;
}

static int cap_end(void *priv, const struct trace *tr)
{
	(void)priv;
	(void)tr;
	return 0;
}

static const struct output_ops cap_ops = { "capture", cap_begin, cap_event, cap_end };

static uint32_t header(struct tprof_rec *u, const char *host, int clock)
{
	uint32_t n = 0;
	n += tw_string(u + n, 1, "clock");
	n += tw_string(u + n, 2, "host");
	n += tw_string(u + n, 3, host);
	n += tw_string(u + n, 4, "m");
	n += tw_string(u + n, 5, "outer");
	n += tw_string(u + n, 6, "inner");
	n += tw_string(u + n, 7, "open");
	n += tw_string(u + n, 8, "pid");
	u[n] = tw_rec(TPROF_K_PROP, 1, 0, 0, (uint64_t)clock);
	u[n++].flags = TPROF_PROP_INT;
	u[n++] = tw_rec(TPROF_K_PROP, 2, 0, 0, 3);
	u[n] = tw_rec(TPROF_K_PROP, 8, 0, 0, 100);
	u[n++].flags = TPROF_PROP_INT;
	return n;
}

/* Host A: monotonic ns; first sample mono 1000 = real E9 (offset E9 - 1000).
 * Host B: ticks at 0.5 ns; ticks 0 = mono 5000 = real E9 + 50. */
static void make(const char *dir)
{
	char path[300];
	struct tprof_rec u[64];
	struct tw w;

	snprintf(path, sizeof(path), "%s/a.1.00000001.tpf", dir);
	tw_open(&w, path, 1);
	uint32_t n = header(u, "hostA", TPROF_CLOCKSRC_MONOTONIC);
	u[n++] = tw_rec(TPROF_K_CLOCK, 0, 1000, 1000, E9);
	u[n++] = tw_rec(TPROF_K_THREAD, 0, 1000, 11, 1);
	u[n++] = tw_rec(TPROF_K_THREAD, 0, 1000, 12, 2);
	tw_chunk(&w, 0, u, n);
	n = 0;
	u[n++] = tw_rec(TPROF_K_MARK, 4, 1100, 0, 0);
	u[n++] = tw_rec(TPROF_K_MARK, 4, 1300, 0, 0);
	u[n++] = tw_rec(TPROF_K_MARK, 4, 1500, 0, 0);
	tw_chunk(&w, 1, u, n);
	n = 0;
	u[n++] = tw_rec(TPROF_K_PUSH, 5, 1200, 0, 0);
	u[n++] = tw_rec(TPROF_K_PUSH, 6, 1200, 0, 0);
	u[n++] = tw_rec(TPROF_K_POP, 0, 1250, 0, 0);
	u[n++] = tw_rec(TPROF_K_POP, 0, 1400, 0, 0);
	u[n++] = tw_rec(TPROF_K_POP, 0, 1410, 0, 0);     /* nothing open */
	u[n++] = tw_rec(TPROF_K_PUSH, 7, 1450, 0, 0);    /* never closed */
	tw_chunk(&w, 2, u, n);
	n = 0;
	u[n++] = tw_rec(TPROF_K_CLOCK, 0, 2000, 2000, E9 + 1000);
	tw_chunk(&w, 0, u, n);
	tw_close(&w);

	snprintf(path, sizeof(path), "%s/b.2.00000002.tpf", dir);
	tw_open(&w, path, 2);
	n = header(u, "hostB", TPROF_CLOCKSRC_TSC);
	u[n++] = tw_rec(TPROF_K_CLOCK, 0, 0, 5000, E9 + 50);
	u[n++] = tw_rec(TPROF_K_CLOCK, 0, 2000, 6000, E9 + 1050);
	u[n++] = tw_rec(TPROF_K_THREAD, 0, 0, 21, 1);
	tw_chunk(&w, 0, u, n);
	n = 0;
	u[n++] = tw_rec(TPROF_K_MARK, 4, 200, 0, 0);   /* mono 5100: global E9 + 150 */
	u[n++] = tw_rec(TPROF_K_MARK, 4, 600, 0, 0);   /* mono 5300: global E9 + 350 */
	tw_chunk(&w, 1, u, n);
	tw_close(&w);
}

int main(void)
{
	char dir[256], cmd[300];
	snprintf(dir, sizeof(dir), "%s/tprof-merge.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir))
		return 99;
	make(dir);

	struct trace tr = { 0 };
	ok(trace_load(&tr, dir) == 0 && tr.nprocs == 2, "two processes load");
	struct captured cap = { .n = 0 };
	struct output out = { &cap_ops, &cap };
	struct pipeline pl = { .rts = test_runtimes(), .tr = &tr, .outs = &out, .nouts = 1 };
	merge_run(&tr, &pl);

	int64_t want_marks[] = { 100, 150, 300, 350, 500 };
	int m = 0, ordered = 1;
	for (int i = 0; i < cap.n; i++) {
		if (cap.ev[i].kind != EV_MARK)
			continue;
		if (m < 5 && cap.ev[i].t0 != want_marks[m]) {
			ordered = 0;
			printf("#   mark %d at %lld, want %lld\n", m, (long long)cap.ev[i].t0,
			       (long long)want_marks[m]);
		}
		m++;
	}
	is_u64(m, 5, "five marks");
	ok(ordered, "marks of both hosts interleave on one axis at the right times");

	const struct event *inner = NULL, *outer = NULL, *open = NULL;
	for (int i = 0; i < cap.n; i++) {
		const struct event *e = &cap.ev[i];
		if (e->kind != EV_RANGE)
			continue;
		const char *name = strings_get(e->name);
		if (!strcmp(name, "inner"))
			inner = e;
		else if (!strcmp(name, "outer"))
			outer = e;
		else if (!strcmp(name, "open"))
			open = e;
	}
	ok(outer && outer->t0 == 200 && outer->t1 == 400 && outer->depth == 0, "outer range 200..400");
	ok(inner && inner->t0 == 201 && inner->t1 == 250 && inner->depth == 1,
	   "inner range moved 1 ns after its parent's start, ends at 250");
	ok(inner && outer && inner < outer, "the inner range is emitted when it closes, first");
	is_u64(tr.unmatched_pops, 1, "the pop with nothing open is counted");
	ok(open && (open->flags & EVF_UNFINISHED) && open->t1 == 1000,
	   "an unclosed range ends with its process's last sample, flagged unfinished");
	ok(tr.procs[0]->index == 1 && tr.procs[1]->index == 2, "processes numbered in start order");
	trace_free(&tr);

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		return 99;
	return tap_done();
}
