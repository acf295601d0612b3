/* runtimes/device/runtime.c — device work in the registry: its summary part (summary.c),
 * kernels, copies, busy share and gaps per device.  Device spans themselves are drawn by
 * the scene, which knows device operations (common/events.h). */
#include "../registry.h"
#include "summary.h"

static void *sum_new(void)
{
	return devsum_new();
}

static void sum_event(void *priv, const struct event *ev)
{
	devsum_event(priv, ev);
}

static void sum_end(void *priv, struct sumw *w, const struct sum_span *span, int top)
{
	devsum_end(priv, w, span, top);
}

static void sum_pack(void *priv, const struct sum_span *span, struct pack *b)
{
	(void)span;
	devsum_pack(priv, b);
}

static void sum_merge(void *priv, const struct sum_span *span, struct unpack *u)
{
	(void)span;
	devsum_merge(priv, u);
}

const struct runtime runtime_device = {
	.name = "device",
	.domain = -1,
	.sum_new = sum_new,
	.sum_events = RT_KIND(EV_DEVICE),
	.sum_event = sum_event,
	.sum_at = SUM_AFTER_STEPS,
	.sum_end = sum_end,
	.sum_pack = sum_pack,
	.sum_merge = sum_merge,
};
