/* runtimes/nrt/runtime.c — the Neuron runtime in the registry: its calls' arguments
 * decoded (nrt.c); its scene part is scene.c, its domain facts facts.c. */
#include "../registry.h"
#include "nrt.h"
#include "summary.h"

static void pipe_call(struct pipeline *pl, struct event *ev, struct call_info *ci,
		      const uint8_t *ext, unsigned next, void *scratch)
{
	_Static_assert(sizeof(struct nrt_info) <= RT_SCRATCH, "nrt_info fits the scratch");
	(void)pl;
	struct nrt_info *ni = scratch;
	nrt_decode(ev->proc, ext, next, ni);
	ci->info = ni;
}

static void *sum_new(void)
{
	return nrtsum_new();
}

static void sum_event(void *priv, const struct event *ev)
{
	nrtsum_event(priv, ev);
}

static void sum_end(void *priv, struct sumw *w, const struct sum_span *span, int top)
{
	nrtsum_end(priv, w, span, top);
}

static void sum_pack(void *priv, const struct sum_span *span, struct pack *b)
{
	(void)span;
	nrtsum_pack(priv, b);
}

static void sum_merge(void *priv, const struct sum_span *span, struct unpack *u)
{
	(void)span;
	nrtsum_merge(priv, u);
}

const struct runtime runtime_nrt = {
	.name = "nrt",
	.domain = TPROF_DOM_NRT,
	.pipe_call = pipe_call,
	.call_args = nrt_scene_call_args,
	.events = RT_KIND(EV_CALL),
	.scene_event = nrt_scene_event,
	.sum_new = sum_new,
	.sum_events = RT_KIND(EV_CALL),
	.sum_event = sum_event,
	.sum_at = SUM_AFTER_STEPS,
	.sum_end = sum_end,
	.sum_pack = sum_pack,
	.sum_merge = sum_merge,
	.fact_events = RT_KIND(EV_CALL),
	.facts = nrt_facts,
};
