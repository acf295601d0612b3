/* otf2-items.c (not a test itself) — draws scene items made by hand through the OTF2
 * renderer into the archive DIR/traces.otf2, for func/t-otf2-items.sh to read with otf2-print:
 * a thread's range, calls and mark with arguments of every type; a device stream whose
 * spans come out of start order (one launched from another thread that ran first, one a
 * runtime held and drew late, announced by SI_HELD, under another name); two overlapping
 * spans on a NeuronCore; work of a category no renderer knows; a step, a counter, ranges
 * across threads.  Times are ns from the trace start, which is 1700000000000001000.
 *   otf2-items DIR */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../analyze/render/otf2/otf2.h"
#include "nrtw.h"

static struct scene_renderer r;
/* the events items draw: a renderer may look at their kind and times */
static const struct event range_ev = { .kind = EV_RANGE }, call_ev = { .kind = EV_CALL },
			  dev_ev = { .kind = EV_DEVICE };

static void draw(struct scene_item it)
{
	r.ops->item(r.priv, &it);
}

static struct scene_item slice(const char *cat, const char *name, struct track tr,
			       const struct proc *p, int64_t t0, int64_t t1,
			       const struct scene_args *a)
{
	return (struct scene_item){ .kind = SI_SLICE, .cat = cat,
				    .name = strings_add(name, strlen(name)), .track = tr, .proc = p,
				    .t0 = t0, .t1 = t1, .args = a };
}

/* A slice drawn from a device span, or from a call (NeuronCore work). */
static struct scene_item of(struct scene_item it, const struct event *ev)
{
	it.ev = ev;
	return it;
}

/* A call's arguments: the model's generic ones, and a runtime's of every type. */
static void call_args(struct scene_args *a, int second)
{
	a->n = 0;
	sa_u64(a, "correlation", 7);
	sa_u64(a, "returned", 3);
	sa_u64(a, "device", 1);
	sa_hex(a, "stream", 0xabc);
	sa_name(a, "kernel", strings_add("vadd", 4));
	sa_arr(a, "grid");
	for (int i = 0; i < 3; i++)
		sa_u64(a, NULL, i ? 1 : 4);
	sa_end(a);
	sa_u64(a, "shmem", 0);
	if (second)
		sa_str(a, "peer", "ANY");
	else
		sa_i64(a, "peer", -2);
	sa_double(a, "GB/s", 1.5);
	sa_us(a, "waited_us", 2500);
	sa_bool(a, "matched", 1);
	sa_obj(a, "functions");
	sa_u64(a, "polls", 9);
	sa_end(a);
	sa_arr(a, "ops");
	sa_obj(a, NULL);
	sa_str(a, "op", "Send");
	sa_end(a);
	sa_end(a);
	sa_str(a, "last", "here");
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: otf2-items DIR\n");
		return 2;
	}
	char dir[] = "/tmp/tprof-otf2-items-XXXXXX";
	if (!mkdtemp(dir))
		return 1;
	static struct nw_proc np;
	nw_begin(&np, dir, "h1", 700, "./app", NULL, 1000000);
	nw_thread(&np, 1, "main", 700);
	nw_thread(&np, 2, "worker", 701);
	nw_plain(&np, 1, "nrt_init", TPROF_NRT_INIT, 2000, 3000);
	nw_plain(&np, 2, "nrt_init", TPROF_NRT_INIT, 2000, 3000);
	nw_end(&np);
	struct trace tr = { 0 };
	if (trace_load(&tr, dir) < 0 || tr.nprocs != 1)
		return 1;
	const struct proc *p = tr.procs[0];
	const struct thread *main_th = p->threads[1];

	struct window w = { 0, INT64_MAX, 0, "" };
	struct tracks *tracks = tracks_new(TRACKS_BY_PROCESS);
	r = render_otf2(argv[1], &w);
	if (r.ops->begin(r.priv, &tr, tracks) < 0)
		return 1;
	struct track th = tracks_thread(tracks, main_th, 1);
	struct track dev = tracks_device(tracks, p, 0, 0x10, 0);
	struct scene_args a, none = { .n = 0 };

	/* the main thread: a range around two calls and a mark; a call of a category of its
	 * own; the range's slice comes at its end, unfinished */
	struct scene_item begin = slice("range", "outer", th, p, 100, 100, NULL);
	begin.kind = SI_BEGIN;
	draw(begin);
	call_args(&a, 0);
	struct scene_item call = slice("hip", "hipLaunchKernel", th, p, 200, 300, &a);
	call.ranges_open = 1;
	call.ev = &call_ev;
	draw(call);
	struct scene_item mark = slice("mark", "checkpoint", th, p, 400, 400, NULL);
	mark.kind = SI_INSTANT;
	mark.ranges_open = 1;
	draw(mark);
	call_args(&a, 1);
	call = slice("hip", "hipLaunchKernel", th, p, 500, 600, &a);
	call.ranges_open = 1;
	call.ev = &call_ev;
	draw(call);
	call = slice("toy", "toyMake", th, p, 650, 700, &none);
	call.ranges_open = 1;
	call.ev = &call_ev;
	draw(call);
	a.n = 0;
	scene_args_flags(&a, EVF_UNFINISHED);
	struct scene_item range = slice("range", "outer", th, p, 100, 1000, &a);
	range.ev = &range_ev;
	draw(range);

	/* a device stream: k1, k3, then k2 (launched from another thread, it ran first), a
	 * collective held by its runtime, k4, the collective drawn (under its group's name),
	 * k5 */
	a.n = 0;
	sa_u64(&a, "correlation", 11);
	draw(of(slice("kernel", "k1", dev, p, 100, 200, &a), &dev_ev));
	draw(of(slice("kernel", "k3", dev, p, 300, 400, &none), &dev_ev));
	draw(of(slice("kernel", "k2", dev, p, 210, 290, &none), &dev_ev));
	struct scene_item held = of(slice("held", "ncclAllReduce", dev, p, 500, 600, NULL), &dev_ev);
	held.kind = SI_HELD;
	draw(held);
	draw(of(slice("kernel", "k4", dev, p, 700, 800, &none), &dev_ev));
	a.n = 0;
	sa_u64(&a, "nccl_instance", 5);
	draw(of(slice("collective", "ncclGroup (2 ops: Send, Recv)", dev, p, 500, 600, &a),
		&dev_ev));
	draw(of(slice("kernel", "k5", dev, p, 900, 950, &none), &dev_ev));

	/* NeuronCore 2: two spans that overlap, on two lanes */
	a.n = 0;
	sa_i64(&a, "nc", 2);
	struct track lane = tracks_neuroncore(tracks, p, 2, 100, 300);
	draw(of(slice("neuroncore", "mlp", lane, p, 100, 300, &a), &call_ev));
	lane = tracks_neuroncore(tracks, p, 2, 150, 250);
	draw(of(slice("neuroncore", "mlp", lane, p, 150, 250, &a), &call_ev));

	/* a step, a counter, two ranges across threads that overlap */
	a.n = 0;
	sa_u64(&a, "step", 3);
	draw(slice("step", "step 3", tracks_steps(tracks, p), p, 50, 1100, &a));
	struct track counters = { p->index, 0 };
	struct scene_item counter = slice("counter", "loss", counters, p, 120, 120, NULL);
	counter.kind = SI_COUNTER;
	counter.value = 1.5;
	draw(counter);
	struct scene_item as = slice("roctx", "handoff", th, p, 100, 500, NULL);
	as.kind = SI_ASYNC;
	as.id = 1;
	draw(as);
	as.t0 = 200;
	as.t1 = 300;
	as.id = 2;
	draw(as);

	int rc = r.ops->end(r.priv, &tr, tracks);
	tracks_free(tracks);
	trace_free(&tr);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		return 1;
	return rc < 0 ? 1 : 0;
}
