/* runtimes/nccl/runtime.c — NCCL/RCCL in the registry: its calls' arguments decoded and
 * lined up across ranks with their device spans (coll.c); its scene part is scene.c, its
 * domain facts facts.c. */
#include <string.h>

#include "../registry.h"
#include "nccl.h"
#include "summary.h"

static void pipe_call(struct pipeline *pl, struct event *ev, struct call_info *ci,
		      const uint8_t *ext, unsigned next, void *scratch)
{
	_Static_assert(sizeof(struct nccl_info) <= RT_SCRATCH, "nccl_info fits the scratch");
	(void)pl;
	(void)ev;
	if (next < 1)
		return;
	struct nccl_info *ni = scratch;
	memset(ni, 0, sizeof(*ni));
	ni->has_b = next >= 2;
	memcpy(&ni->a, ext, sizeof(ni->a));
	if (ni->has_b)
		memcpy(&ni->b, ext + TPROF_UNIT, sizeof(ni->b));
	else
		ni->b.peer = -1;
	ci->info = ni;
}

/* Collective device spans take part in their instance. */
static void pipe_device(struct pipeline *pl, const struct event *ev)
{
	if (ev->dev->kind == TPROF_DEVOP_COLLECTIVE)
		nccl_device(pl, ev);
}

static void *sum_new(void)
{
	return ncclsum_new();
}

static void sum_event(void *priv, const struct event *ev)
{
	ncclsum_event(priv, ev);
}

static void sum_end(void *priv, struct sumw *w, const struct sum_span *span, int top)
{
	(void)span;
	ncclsum_end(priv, w, top);
}

static void sum_pack(void *priv, const struct sum_span *span, struct pack *b)
{
	(void)span;
	ncclsum_pack(priv, b);
}

static void sum_merge(void *priv, const struct sum_span *span, struct unpack *u)
{
	(void)span;
	ncclsum_merge(priv, u);
}

const struct runtime runtime_nccl = {
	.name = "nccl",
	.domain = TPROF_DOM_NCCL,
	.pipe_call = pipe_call,
	.pipe_called = nccl_call,
	.pipe_device = pipe_device,
	.pipe_finish = nccl_finish,
	.call_args = nccl_scene_call_args,
	.events = RT_KIND(EV_DEVICE) | RT_KIND(EV_NCCL),
	.scene_event = nccl_scene_event,
	.scene_end = nccl_scene_end,
	.sum_new = sum_new,
	.sum_events = RT_KIND(EV_CALL) | RT_KIND(EV_NCCL),
	.sum_own_calls = 1,
	.sum_event = sum_event,
	.sum_at = SUM_AT_DOMAIN,
	.sum_end = sum_end,
	.sum_pack = sum_pack,
	.sum_merge = sum_merge,
	.fact_events = RT_KIND(EV_NCCL),
	.facts = nccl_facts,
	.communication = 1,
	.wait_events = RT_KIND(EV_NCCL),
	.waits = nccl_waits,
	.transfer_events = RT_KIND(EV_NCCL),
	.transfers = nccl_transfers,
	.hang_events = RT_KIND(EV_NCCL),
	.hangs = nccl_hangs,
};
