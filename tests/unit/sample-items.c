/* sample-items.c (not a test itself) — draws CPU samples (SI_SAMPLE) made by hand through one
 * renderer, for func/t-sample-items.sh to read with the format's own reader.  Process 700
 * ("./app") has threads main (700), worker (701) and idle (702).  On main: a call
 * hipLaunchKernel [100, 300] and a mark at 420; samples at 150 (main < compute < vadd_host,
 * CPU 2), 200 (the same stack, CPU 3), 250 (two kernel frames do_syscall_64 <
 * entry_SYSCALL_64 over main < log < write, CPU 1), 400 (main alone, CPU 0) and 450 (main <
 * compute < other, CPU 2).  On worker, which has nothing else: samples at 500 and 600 of one
 * stack of 120 frames (d000 innermost ... d119 outermost, with rec at depths 10 to 19: a
 * recursion), CPU 5.  On idle, a sample with no stack at 700 (CPU 4).  Stacks are listed
 * innermost first, as the scene gives them.  Times are ns from the trace start.
 *   sample-items chrome|perfetto|otf2|sqlite OUT
 * With a third argument N: N samples on 16 threads from 4096 stacks of 8 to 64 frames (1 to
 * 4 of them kernel frames), drawn and written, and the time that took on stderr (the cost of
 * interning stacks).
 *   sample-items perfetto-nested OUT
 * draws the same in Perfetto inside a range "outer" [50, 480] on main, drawn after what it
 * encloses as the scene draws ranges (their ranges_open 1): the writer holds them back until
 * it comes, a sample's new callstack going out before it in a packet of its own. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../analyze/render/chrome/chrome.h"
#include "../../analyze/render/otf2/otf2.h"
#include "../../analyze/render/perfetto/perfetto.h"
#include "../../analyze/render/sqlite/out.h"
#include "../../analyze/render/sqlite/sqlite-out.h"
#include "nrtw.h"

static struct scene_renderer r;
static uint32_t ranges_open;      /* of the items drawn on main (perfetto-nested) */
static const struct event call_ev = { .kind = EV_CALL };

static uint32_t str(const char *s)
{
	return strings_add(s, strlen(s));
}

static void draw(struct scene_item it)
{
	r.ops->item(r.priv, &it);
}

static void sample(struct track tr, const struct proc *p, int64_t t, const struct scene_stack *st)
{
	draw((struct scene_item){ .kind = SI_SAMPLE, .cat = "sample",
				  .name = st && st->n ? st->frames[0] : str("[no stack]"),
				  .track = tr, .proc = p, .t0 = t, .t1 = t, .stack = st,
				  .ranges_open = ranges_open });
}

/* A stack from names, innermost first. */
static struct scene_stack stack(uint32_t *frames, const char *const *names, uint32_t n,
				uint32_t nkernel, uint32_t cpu)
{
	for (uint32_t i = 0; i < n; i++)
		frames[i] = str(names[i]);
	return (struct scene_stack){ frames, n, nkernel, cpu };
}

static void items(struct tracks *tracks, const struct proc *p)
{
	struct track main_tr = tracks_thread(tracks, p->threads[1], 1);
	struct track worker = tracks_thread(tracks, p->threads[2], 0);
	struct track idle = tracks_thread(tracks, p->threads[3], 0);
	static uint32_t f1[3], f2[5], f3[1], f4[3], f5[120];
	static const char *const n1[] = { "vadd_host", "compute", "main" };
	static const char *const n2[] = { "do_syscall_64", "entry_SYSCALL_64", "write", "log",
					  "main" };
	static const char *const n3[] = { "main" };
	static const char *const n4[] = { "other", "compute", "main" };
	struct scene_stack s1 = stack(f1, n1, 3, 0, 2), s1b = s1, s2 = stack(f2, n2, 5, 2, 1),
			   s3 = stack(f3, n3, 1, 0, 0), s4 = stack(f4, n4, 3, 0, 2);
	s1b.cpu = 3;
	char name[16];
	for (uint32_t i = 0; i < 120; i++) {
		if (i >= 10 && i < 20)
			snprintf(name, sizeof(name), "rec");
		else
			snprintf(name, sizeof(name), "d%03u", i);
		f5[i] = str(name);
	}
	struct scene_stack deep = { f5, 120, 0, 5 };

	draw((struct scene_item){ .kind = SI_SLICE, .cat = "hip", .name = str("hipLaunchKernel"),
				  .track = main_tr, .proc = p, .t0 = 100, .t1 = 300, .ev = &call_ev,
				  .ranges_open = ranges_open });
	sample(main_tr, p, 150, &s1);
	sample(main_tr, p, 200, &s1b);
	sample(main_tr, p, 250, &s2);
	sample(main_tr, p, 400, &s3);
	draw((struct scene_item){ .kind = SI_INSTANT, .cat = "mark", .name = str("checkpoint"),
				  .track = main_tr, .proc = p, .t0 = 420, .t1 = 420,
				  .ranges_open = ranges_open });
	sample(main_tr, p, 450, &s4);
	if (ranges_open) {
		ranges_open = 0;
		draw((struct scene_item){ .kind = SI_SLICE, .cat = "range", .name = str("outer"),
					  .track = main_tr, .proc = p, .t0 = 50, .t1 = 480 });
	}
	sample(worker, p, 500, &deep);
	sample(worker, p, 600, &deep);
	struct scene_stack none = { NULL, 0, 0, 4 };
	sample(idle, p, 700, &none);
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* n samples: thread i % 16, stack (i * 7919) % 4096, every 1 us. */
static void bench(struct tracks *tracks, const struct proc *p, long n)
{
	enum { NSTACKS = 4096, DEPTH = 64 };
	uint32_t *frames = malloc(sizeof(uint32_t) * NSTACKS * DEPTH);
	struct scene_stack *st = malloc(sizeof(*st) * NSTACKS);
	char name[32];
	uint32_t fn[512];
	for (int i = 0; i < 512; i++) {
		snprintf(name, sizeof(name), "function_%d", i);
		fn[i] = str(name);
	}
	srand(1);
	for (int s = 0; s < NSTACKS; s++) {
		uint32_t d = 8 + (uint32_t)(rand() % (DEPTH - 8 + 1));
		uint32_t *f = frames + (size_t)s * DEPTH;
		/* callers shared by many stacks: the outer frames come from few functions */
		for (uint32_t k = 0; k < d; k++)
			f[d - 1 - k] = fn[k < 4 ? (int)k : rand() % 512];
		st[s] = (struct scene_stack){ f, d, 1 + (uint32_t)(rand() % 4), (uint32_t)(s % 8) };
	}
	struct track tr[16];
	for (int i = 0; i < 16; i++)
		tr[i] = tracks_thread(tracks, p->threads[1 + i % 3], 0);
	double t0 = now();
	for (long i = 0; i < n; i++)
		sample(tr[i % 16], p, 1000 + i * 1000, &st[(i * 7919) % NSTACKS]);
	fprintf(stderr, "sample-items: %ld samples drawn in %.3f s\n", n, now() - t0);
	free(frames);
	free(st);
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: sample-items chrome|perfetto|perfetto-nested|otf2|sqlite "
			"OUT [N]\n");
		return 2;
	}
	char dir[] = "/tmp/tprof-sample-items-XXXXXX";
	if (!mkdtemp(dir))
		return 1;
	static struct nw_proc np;
	nw_begin(&np, dir, "h1", 700, "./app", NULL, 1000000);
	nw_thread(&np, 1, "main", 700);
	nw_thread(&np, 2, "worker", 701);
	nw_thread(&np, 3, "idle", 702);
	for (uint32_t s = 1; s <= 3; s++)
		nw_plain(&np, s, "nrt_init", TPROF_NRT_INIT, 2000, 3000);
	nw_end(&np);
	struct trace tr = { 0 };
	if (trace_load(&tr, dir) < 0 || tr.nprocs != 1)
		return 1;
	const struct proc *p = tr.procs[0];

	struct window w = { 0, INT64_MAX, 0, "" };
	struct tracks *tracks = tracks_new(TRACKS_BY_PROCESS);
	struct sqlout *o = NULL;
	const char *fmt = argv[1];
	if (!strcmp(fmt, "chrome")) {
		r = render_chrome(argv[2]);
	} else if (!strcmp(fmt, "perfetto") || !strcmp(fmt, "perfetto-nested")) {
		r = render_perfetto(argv[2]);
		ranges_open = fmt[8] != 0;
	} else if (!strcmp(fmt, "otf2")) {
		r = render_otf2(argv[2], &w);
	} else if (!strcmp(fmt, "sqlite")) {
		o = calloc(1, sizeof(*o));
		o->path = strdup(argv[2]);
		o->dir = strdup(dir);
		o->win = &w;
		jw_open_mem(&o->args);
		if (sqldb_open(&o->db, argv[2], &sqlite_format) < 0)
			return 1;
		o->tr_start = tr.start_ns;
		sqlite_facts_begin(o, &tr);
		r = sqlite_timeline(o);
	} else {
		fprintf(stderr, "sample-items: no format %s\n", fmt);
		return 2;
	}
	if (r.ops->begin(r.priv, &tr, tracks) < 0)
		return 1;
	double t0 = now();
	if (argc > 3)
		bench(tracks, p, atol(argv[3]));
	else
		items(tracks, p);
	int rc = r.ops->end(r.priv, &tr, tracks);
	if (o) {
		sqlite_finish(o, &tr, 0);
		rc = o->db.failed ? -1 : sqldb_close(&o->db, 1);
		jw_close(&o->args);
	}
	if (argc > 3)
		fprintf(stderr, "sample-items: %s written in %.3f s\n", fmt, now() - t0);
	tracks_free(tracks);
	trace_free(&tr);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		return 1;
	return rc < 0 ? 1 : 0;
}
