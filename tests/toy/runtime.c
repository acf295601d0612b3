/* runtime.c — the analyzer's toy runtime (toy.h): it decodes a toy call's extension unit
 * (widgets, the gadget's name), gives the call those arguments, draws a span of toy work on a
 * device track with an arrow from the call, and writes a summary table; through the runtime
 * interface (analyze/model/runtime.h) alone, no renderer changed. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../../analyze/model/runtime.h"
#include "../../analyze/summary/summary.h"
#include "toy.h"

struct toy_info {
	uint64_t widgets;
	uint32_t gadget;       /* trace-wide string id */
};

static void toy_pipe_call(struct pipeline *pl, struct event *ev, struct call_info *ci,
			  const uint8_t *ext, unsigned next, void *scratch)
{
	(void)pl;
	if (next < 1)
		return;
	struct toy_unit u;
	memcpy(&u, ext, sizeof(u));
	struct toy_info *ti = scratch;
	ti->widgets = u.widgets;
	ti->gadget = proc_string(ev->proc, u.gadget);
	ci->info = ti;
}

static void toy_call_args(struct scene_args *a, const struct event *ev)
{
	const struct toy_info *ti = ev->call->info;
	if (!ti)
		return;
	sa_u64(a, "widgets", ti->widgets);
	sa_name(a, "gadget", ti->gadget);
}

/* The call, then its work on toy device 9, stream 0x70, with an arrow from the call. */
static int toy_scene_event(struct scene *s, const struct event *ev, unsigned self)
{
	(void)self;
	scene_draw_call(s, ev);
	struct track dev = tracks_device(scene_tracks(s), ev->proc, 9, 0x70, 0);
	struct scene_args a;
	a.n = 0;
	sa_u64(&a, "widgets", ((const struct toy_info *)ev->call->info)->widgets);
	struct scene_item it = { .kind = SI_SLICE, .cat = "toywork", .name_str = "toy work",
				 .track = dev, .proc = ev->proc, .t0 = ev->t0 + 1, .t1 = ev->t1,
				 .args = &a, .ev = ev };
	scene_item(s, &it);
	scene_flow(s, NULL, "toy", "toy", tracks_thread(scene_tracks(s), ev->thread, 1), ev->t0 + 1,
		   dev, ev->t0 + 2, it.t0, it.t1, NULL);
	return 1;
}

struct toy_sum {
	uint64_t calls, widgets;
};

static void *toy_sum_new(void)
{
	return calloc(1, sizeof(struct toy_sum));
}

static void toy_sum_event(void *priv, const struct event *ev)
{
	struct toy_sum *t = priv;
	const struct toy_info *ti = ev->call->info;
	t->calls++;
	t->widgets += ti ? ti->widgets : 0;
}

static void toy_sum_end(void *priv, struct sumw *w, const struct sum_span *span, int top)
{
	struct toy_sum *t = priv;
	(void)span;
	(void)top;
	sw_obj(w, "toy");
	sw_text(w, "\nToy widgets\n");
	sw_u64(w, "calls %" PRIu64, "calls", t->calls);
	sw_u64(w, ", widgets %" PRIu64 "\n", "widgets", t->widgets);
	sw_close(w);
	free(t);
}

const struct runtime runtime_toy = {
	.name = "toy",
	.domain = TOY_DOMAIN,
	.category = "toy",
	.pipe_call = toy_pipe_call,
	.call_args = toy_call_args,
	.events = RT_KIND(EV_CALL),
	.scene_event = toy_scene_event,
	.sum_new = toy_sum_new,
	.sum_events = RT_KIND(EV_CALL),
	.sum_own_calls = 1,
	.sum_event = toy_sum_event,
	.sum_at = SUM_AT_DOMAIN,
	.sum_end = toy_sum_end,
};
