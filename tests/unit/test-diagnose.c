/* test-diagnose.c — the diagnosis's arithmetic: a timeline's split of an interval against a
 * brute-force count of each nanosecond (random spans of every category, the parts adding up
 * to the interval), the sums of the launch spans, what forgetting keeps and counts as late;
 * the step map's bins against sums counted the slow way;
 * and MPI's wait states of a collective of each kind and of a message (who waited, from when
 * to when, who was late and by how much). */
#include <stdlib.h>
#include <string.h>

#include "../../analyze/diagnose/diagnosis.h"
#include "../../analyze/diagnose/overview.h"
#include "../../analyze/diagnose/state.h"
#include "../../analyze/diagnose/timeline.h"
#include "../../analyze/model/runtime.h"
#include "../../analyze/summary/write.h"
#include "../../common/events.h"
#include "../../analyze/model/waits.h"
#include "../../analyze/read/trace.h"
#include "../../analyze/runtimes/mpi/mpi.h"
#include "tap.h"

/* The category of nanosecond t, counted the slow way: the first open, else host. */
static unsigned brute(const struct tl_span *v, size_t n, int64_t t)
{
	unsigned best = CAT_HOST;
	int any = 0;
	for (size_t i = 0; i < n; i++)
		if (v[i].cat < CATS && v[i].t0 <= t && t < v[i].t1 && (!any || v[i].cat < best)) {
			best = v[i].cat;
			any = 1;
		}
	return best;
}

static void split_random(void)
{
	unsigned bad = 0, sums = 0;
	srand(7);
	for (int trial = 0; trial < 300; trial++) {
		struct timeline t = { 0 };
		size_t n = (size_t)(rand() % 12);
		for (size_t i = 0; i < n; i++) {
			int64_t a = rand() % 200, len = 1 + rand() % 80;
			timeline_add(&t, (unsigned)(rand() % TL_KINDS), a, a + len,
				     (uint32_t)(1 + rand() % 3));
		}
		int64_t a = rand() % 150, b = a + rand() % 120;
		int64_t ns[CATS], want[CATS] = { 0 }, total = 0;
		timeline_split(&t, a, b, ns, NULL);
		for (int64_t x = a; x < b; x++)
			want[brute(t.v, t.n, x)]++;
		for (unsigned c = 0; c < CATS; c++) {
			bad += ns[c] != want[c];
			total += ns[c];
		}
		sums += total != b - a;
		timeline_free(&t);
	}
	ok(!bad, "the split of 300 random intervals matches a count of each ns (%u wrong)", bad);
	ok(!sums, "its parts add up to the interval every time (%u not)", sums);
}

static void split_names(void)
{
	struct timeline t = { 0 };
	timeline_add(&t, CAT_COMPUTE, 10, 30, 7);
	timeline_add(&t, CAT_COMPUTE, 40, 45, 8);
	timeline_add(&t, CAT_RUNTIME, 0, 100, 9);
	timeline_add(&t, CAT_WAIT, 20, 60, 5);
	int64_t ns[CATS];
	uint32_t top[CATS];
	timeline_split(&t, 0, 100, ns, top);
	ok(ns[CAT_COMPUTE] == 25 && ns[CAT_WAIT] == 25 && ns[CAT_RUNTIME] == 50 && ns[CAT_HOST] == 0,
	   "compute before waiting before runtime: 25, 25, 50");
	ok(top[CAT_COMPUTE] == 7 && top[CAT_RUNTIME] == 9 && top[CAT_WAIT] == 5 && !top[CAT_COPY],
	   "the name with the most time of each category");
	timeline_split(&t, 100, 150, ns, NULL);
	ok(ns[CAT_HOST] == 50, "nothing open: host outside calls");
	ok(timeline_call_before(&t, 100) == 9 && timeline_call_before(&t, 99) == 0,
	   "the call that ended last by a time");
	timeline_free(&t);
}

static void launches_and_forget(void)
{
	struct timeline t = { 0 };
	uint32_t name;
	timeline_add(&t, TL_STARVED, 0, 10, 1);
	timeline_add(&t, TL_STARVED, 20, 50, 2);
	timeline_add(&t, TL_COPY_HELD, 5, 8, 3);
	timeline_add(&t, CAT_COMPUTE, 0, 100, 4);
	ok(timeline_sum(&t, TL_STARVED, 5, 40, &name) == 25 && name == 2,
	   "the starved gaps in 5..40: 25 ns, the longest part the second's");
	int64_t ns[CATS];
	timeline_split(&t, 0, 100, ns, NULL);
	ok(ns[CAT_COMPUTE] == 100, "launch spans are not categories: the split ignores them");
	struct timeline u = { 0 };
	timeline_add(&u, TL_STARVED, 10, 60, 1);
	timeline_add(&u, CAT_WAIT, 20, 30, 0);
	timeline_add(&u, CAT_RUNTIME, 40, 45, 0);
	timeline_add(&u, CAT_RUNTIME, 70, 90, 0);
	timeline_split_within(&u, TL_STARVED, TL_KINDS, 0, 100, ns);
	ok(ns[CAT_WAIT] == 10 && ns[CAT_RUNTIME] == 5 && ns[CAT_HOST] == 35,
	   "the split within the starved gaps only: 10 waiting, 5 in calls, 35 outside");
	timeline_add(&u, TL_COMM, 42, 52, 0);
	timeline_split_within(&u, TL_STARVED, TL_COMM, 0, 100, ns);
	ok(ns[CAT_RUNTIME] == 2 && ns[CAT_HOST] == 28,
	   "and not in calls to other processes: 2 in calls, 28 outside");
	timeline_free(&u);
	timeline_forget(&t, 10);
	ok(timeline_sum(&t, TL_STARVED, 0, 100, &name) == 30 && name == 2,
	   "forgotten up to 10: no question finds the spans that end by then");
	t.settled = 10;         /* the steps diagnosed up to 10 */
	timeline_add(&t, CAT_COPY, 2, 9, 0);
	timeline_add(&t, CAT_COPY, 2, 19, 0);
	timeline_split(&t, 0, 100, ns, NULL);
	ok(t.late == 1 && ns[CAT_COMPUTE] == 100,
	   "a span that ends in the time diagnosed is late, counted; one after it kept");
	for (int64_t i = 0; i < 3000; i++)   /* in order, then some out of it */
		timeline_add(&t, CAT_COPY, 200 + 10 * i + (i % 7 == 3 ? -15 : 0), 205 + 10 * i, 0);
	timeline_split(&t, 0, 30200, ns, NULL);
	int64_t kept = ns[CAT_COPY];
	size_t before = t.n;
	timeline_forget(&t, 20000);
	timeline_split(&t, 20000, 30200, ns, NULL);
	ok(t.n < before && ns[CAT_COPY] > 0 && ns[CAT_COPY] < kept,
	   "forgetting most of them drops them (%zu of %zu spans kept)", t.n, before);
	/* spans that come late (each window of 30 in shuffled order), merged in between
	 * questions, answer as the same spans sorted at once */
	struct timeline inc = { 0 };
	static struct tl_span added[3000];
	int64_t slot[3000];
	uint64_t r = 12345;
	for (int i = 0; i < 3000; i++)
		slot[i] = i;
	for (int w = 0; w < 3000; w += 30)
		for (int i = w + 29; i > w; i--) {
			r = r * 6364136223846793005ull + 1442695040888963407ull;
			int j = w + (int)((r >> 33) % (uint64_t)(i - w + 1));
			int64_t x = slot[i];
			slot[i] = slot[j];
			slot[j] = x;
		}
	int same = 1;
	for (int i = 0; i < 3000 && same; i++) {
		r = r * 6364136223846793005ull + 1442695040888963407ull;
		int64_t t0 = 1000 + 100 * slot[i];
		unsigned cat = (unsigned)(r >> 40) % CATS;
		added[i] = (struct tl_span){ t0, t0 + 50, (uint32_t)i + 1, (uint8_t)cat };
		timeline_add(&inc, cat, t0, t0 + 50, (uint32_t)i + 1);
		if (i % 7)
			continue;
		struct timeline whole = { 0 };
		for (int k = i; k >= 0; k--)     /* backwards: sorted at once */
			timeline_add(&whole, added[k].cat, added[k].t0, added[k].t1, added[k].name);
		int64_t x[CATS], y[CATS];
		timeline_split(&whole, 0, 1000 + 100 * (int64_t)i + 3100, x, NULL);
		timeline_split(&inc, 0, 1000 + 100 * (int64_t)i + 3100, y, NULL);
		same = !memcmp(x, y, sizeof(x));
		timeline_free(&whole);
	}
	ok(same, "spans merged in as they come answer as the same spans sorted at once");
	timeline_free(&inc);
	timeline_free(&t);
}

/* ---- MPI's wait states ---- */

struct seen {
	struct wait_span span[8];
	struct wait_delay delay[4];
	unsigned nspan, ndelay;
};

static void on_span(void *ctx, const struct wait_span *w)
{
	struct seen *s = ctx;
	if (s->nspan < 8)
		s->span[s->nspan++] = *w;
}

static void on_delay(void *ctx, const struct wait_delay *d)
{
	struct seen *s = ctx;
	if (s->ndelay < 4)
		s->delay[s->ndelay++] = *d;
}

static struct proc procs[4];

static void coll(const char *name, int32_t root, struct seen *s)
{
	static const int64_t entry[4] = { 100, 130, 400, 120 };
	struct coll_member m[4];
	memset(m, 0, sizeof(m));
	for (int i = 0; i < 4; i++) {
		m[i].proc = &procs[i];
		m[i].world = i;
		m[i].name = strings_add(name, strlen(name));
		m[i].t0 = entry[i];
		m[i].t1 = 500;
	}
	struct coll_info ci = { .comm_id = 1, .seq = 3, .name = m[0].name, .members = 4,
				.seen = 4, .root_world = root, .m = m, .nm = 4 };
	struct event ev = { .kind = EV_COLLECTIVE, .coll = &ci };
	struct wait_sink sink = { s, on_span, on_delay };
	memset(s, 0, sizeof(*s));
	mpi_waits(&ev, &sink);
}

static void mpi_kinds(void)
{
	struct seen s;
	coll("MPI_Allreduce", -1, &s);
	ok(s.nspan == 3 && s.ndelay == 1 && s.delay[0].kind == WAIT_NXN &&
	   s.delay[0].late == &procs[2] && s.delay[0].t0 == 130 && s.delay[0].t1 == 400 &&
	   s.delay[0].waiters == 3 && s.delay[0].waited == 300 + 270 + 280,
	   "allreduce: three wait for rank 2, late by 270 ns after the last of them came");
	coll("MPI_Barrier", -1, &s);
	ok(s.ndelay == 1 && s.delay[0].kind == WAIT_BARRIER, "a barrier: wait at barrier");
	coll("MPI_Bcast", 3, &s);
	ok(s.nspan == 1 && s.ndelay == 1 && s.delay[0].kind == WAIT_LATE_BROADCAST &&
	   s.delay[0].late == &procs[3] && s.delay[0].t0 == 100 && s.delay[0].t1 == 120,
	   "bcast from rank 3: only those before the root wait for it");
	coll("MPI_Reduce", 0, &s);
	ok(s.nspan == 1 && s.span[0].proc == &procs[0] && s.span[0].t1 == 400 &&
	   s.ndelay == 1 && s.delay[0].kind == WAIT_EARLY_REDUCE && s.delay[0].late == &procs[2],
	   "reduce to rank 0: the root waits for the last member");

	struct message_info mi = { .sproc = &procs[0], .rproc = &procs[1], .comm_id = 1,
				   .src = 0, .dst = 1, .send_t0 = 300, .send_t1 = 310,
				   .post_t0 = 100, .recv_t0 = 100, .recv_t1 = 320, .blocking = 1 };
	struct event ev = { .kind = EV_MESSAGE, .msg = &mi };
	struct wait_sink sink = { &s, on_span, on_delay };
	memset(&s, 0, sizeof(s));
	mpi_waits(&ev, &sink);
	ok(s.nspan == 1 && s.span[0].kind == WAIT_LATE_SENDER && s.span[0].proc == &procs[1] &&
	   s.span[0].t0 == 100 && s.span[0].t1 == 300 && s.ndelay == 1 &&
	   s.delay[0].late == &procs[0], "a receive posted at 100, the send at 300: late sender");
	mi = (struct message_info){ .sproc = &procs[0], .rproc = &procs[1], .comm_id = 1,
				    .send_t0 = 100, .send_t1 = 260, .post_t0 = 250,
				    .recv_t0 = 250, .recv_t1 = 270, .blocking = 1 };
	memset(&s, 0, sizeof(s));
	mpi_waits(&ev, &sink);
	ok(s.nspan == 1 && s.span[0].kind == WAIT_LATE_RECEIVER && s.span[0].proc == &procs[0] &&
	   s.span[0].t1 == 250 && s.delay[0].late == &procs[1],
	   "a send that returned after its receive was posted at 250: late receiver");
	mi.send_t1 = 120;
	memset(&s, 0, sizeof(s));
	mpi_waits(&ev, &sink);
	ok(s.nspan == 0 && s.ndelay == 0, "a send that returned before (eager): no wait");
}

/* Six processes alike, each host-bound (a stream idle 50 us between 5 us kernels, launched
 * after the one before ended), ten steps: one finding of the six, not six. */
static void many_alike(void)
{
	static struct proc ps[6];
	static const struct runtime_set none;
	struct diagnosis *dx = diagnosis_new(&none);
	for (int64_t step = 0; step < 10; step++)
		for (int r = 0; r < 6; r++) {
			struct proc *p = &ps[r];
			p->rank = r;
			p->index = r + 1;
			int64_t base = step * 10000000;
			for (int k = 0; k < 100; k++) {
				int64_t t0 = base + k * 55000;
				struct device_info di = { .kind = TPROF_DEVOP_KERNEL,
							  .launch_ns = t0 - 1000 };
				struct event ev = { .kind = EV_DEVICE, .proc = p, .t0 = t0,
						    .t1 = t0 + 5000, .dev = &di, .name = 0 };
				diagnosis_event(dx, &ev);
			}
			struct event st = { .kind = EV_STEP, .proc = p, .step = (uint64_t)step,
					    .t0 = base, .t1 = base + 6000000 };
			diagnosis_event(dx, &st);
		}
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct sumw w;
	sw_init(&w, f, SUMMARY_JSON);
	sw_obj(&w, NULL);
	diagnosis_write(dx, &w, "prof", 0);
	diagnosis_free(dx);
	sw_close(&w);
	sw_finish(&w);
	fclose(f);
	const char *first = strstr(text, "\"findings\"");
	const char *kind = first ? strstr(first, "\"kind\": \"host_bound\"") : NULL;
	ok(kind && strstr(first, "\"processes\": 6") &&
	   !strstr(kind + 1, "\"kind\": \"host_bound\""),
	   "six processes host-bound alike: one finding of the six");
	free(text);
}

/* A few spans over the whole run (a thread's state, a long call) among many short ones: a
 * question about a short time looks at the spans it overlaps, not at every span after the
 * long ones; and the sums are those of a count span by span. */
static void long_spans(void)
{
	struct timeline t = { 0 };
	enum { SHORT = 20000 };
	timeline_add(&t, CAT_IDLE, 0, 10 * SHORT + 100, 0);
	timeline_add(&t, CAT_RUNTIME, 5, 10 * SHORT, 0);
	for (int64_t i = 0; i < SHORT; i++)
		timeline_add(&t, i % 2 ? CAT_COMPUTE : CAT_CPU_WAIT, 10 * i + 1, 10 * i + 6, 0);
	unsigned bad = 0, looked = 0;
	srand(11);
	for (int q = 0; q < 200; q++) {
		int64_t a = rand() % (10 * SHORT), b = a + 1 + rand() % 40;
		int64_t want = 0;
		size_t overlaps = 0;
		for (size_t i = 0; i < t.n; i++)
			if (t.v[i].t1 > a && t.v[i].t0 < b) {
				overlaps++;
				if (t.v[i].cat == CAT_CPU_WAIT)
					want += (t.v[i].t1 < b ? t.v[i].t1 : b) - (t.v[i].t0 > a ? t.v[i].t0 : a);
			}
		bad += timeline_sum(&t, CAT_CPU_WAIT, a, b, NULL) != want;
		looked += t.nhits != overlaps;
	}
	ok(!bad && !looked, "long spans among %d short: every sum right (%u wrong), and each "
	   "question looked at the spans it overlaps alone (%u looked at more)", SHORT, bad, looked);
	timeline_free(&t);
}

/* The step map (diagnose/stepmap.c): steps in any order, in 16 bins a process, against sums
 * counted the slow way over the columns it ends with. */
struct got {
	struct stepmap_cell cells[64];
	uint32_t n;
	size_t calls;
};

static void on_row(void *ctx, const struct stepmap_process *p)
{
	struct got *g = ctx;
	memcpy(g->cells, p->cells, g->n * sizeof(*g->cells));
	g->calls++;
}

static void stepmap_random(void)
{
	unsigned bad = 0, wide = 0;
	srand(11);
	for (int trial = 0; trial < 200; trial++) {
		struct diagnosis *dx = diagnosis_new(NULL);
		dx->sm_cols = 16;
		struct proc p = { .index = 1, .rank = 0 };
		struct dproc *dp = dproc_get(dx, &p);
		dp->label = strings_add("rank 0", 6);
		uint64_t base = (uint64_t)(rand() % 3) * 1000000, range = 1 + (uint64_t)(rand() % 2000);
		size_t n = 1 + (size_t)(rand() % 300);
		uint64_t *step = malloc(n * sizeof(*step));
		int64_t *time = malloc(n * sizeof(*time)), *wait = malloc(n * sizeof(*wait));
		for (size_t i = 0; i < n; i++) {
			/* mostly in order, as steps come, some out of it */
			step[i] = base + (rand() % 4 ? (uint64_t)i * range / n : (uint64_t)rand() % range);
			time[i] = 1 + rand() % 1000;
			wait[i] = rand() % 10 ? 0 : rand() % 500;
			stepmap_add(dx, dp, step[i], time[i], wait[i]);
		}
		uint64_t first, per;
		struct got g = { .n = 0 };
		g.n = diagnosis_stepmap(dx, &first, &per, NULL, NULL);
		if (g.n == 0 || g.n > 16 || (per & (per - 1))) {
			wide++;
		} else {
			diagnosis_stepmap(dx, &first, &per, &g, on_row);
			for (uint32_t c = 0; c < g.n; c++) {
				struct stepmap_cell w = { 0 };
				for (size_t i = 0; i < n; i++)
					if (step[i] >= first + c * per && step[i] < first + (c + 1) * per) {
						w.n++;
						w.time += time[i];
						w.wait += wait[i];
						if (time[i] > w.longest)
							w.longest = time[i];
					}
				bad += memcmp(&w, &g.cells[c], sizeof(w)) != 0;
			}
			for (size_t i = 0; i < n; i++)
				bad += step[i] < first || step[i] >= first + g.n * per;
			bad += g.calls != 1;
		}
		free(step);
		free(time);
		free(wait);
		diagnosis_free(dx);
	}
	ok(!bad && !wide, "the step map of 200 random runs: every column's steps, times, waits and "
	   "longest right (%u wrong), at most 16 columns of a power of two steps (%u not)", bad, wide);
}

int main(void)
{
	stepmap_random();
	long_spans();
	many_alike();
	split_random();
	split_names();
	launches_and_forget();
	mpi_kinds();
	strings_free();
	return tap_done();
}
