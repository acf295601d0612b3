/* runtimes/nrt/runtime.c — the Neuron runtime in the registry: its calls' arguments
 * decoded (nrt.c); its scene part is scene.c, its domain facts facts.c. */
#include "../registry.h"
#include "nrt.h"

static void pipe_call(struct pipeline *pl, struct event *ev, struct call_info *ci,
		      const uint8_t *ext, unsigned next, void *scratch)
{
	_Static_assert(sizeof(struct nrt_info) <= RT_SCRATCH, "nrt_info fits the scratch");
	(void)pl;
	struct nrt_info *ni = scratch;
	nrt_decode(ev->proc, ext, next, ni);
	ci->nrt = ni;
}

const struct runtime runtime_nrt = {
	.name = "nrt",
	.domain = TPROF_DOM_NRT,
	.pipe_call = pipe_call,
	.call_args = nrt_scene_call_args,
	.events = RT_KIND(EV_CALL),
	.scene_event = nrt_scene_event,
	.fact_events = RT_KIND(EV_CALL),
	.facts = nrt_facts,
};
