/* render/otf2/process.c — a process's locations besides its tracks' and the items written
 * there: its training steps, its counters, and its ranges that may end on another thread
 * (roctxRangeStart/Stop), on lanes. */
#include <stdlib.h>

#include "../../../common/xalloc.h"
#include "state.h"

/* A process's steps follow one another on a location of their own: one region "step", the
 * step's number (the slice's argument "step") a parameter, the other arguments on the Leave. */
void otf2_step_item(struct otf2 *o, const struct scene_item *it)
{
	struct pstate *ps = otf2_pstate(o, it->proc);
	if (!ps->steps)
		ps->steps = otf2_loc_new(o, LOC_STEPS, it->proc);
	struct loc *l = ps->steps;
	OTF2_RegionRef r = otf2_region(o->defs, 0, otf2_category_step(o->defs));
	otf2_enter(o, l, it->t0, r);
	struct rec step = { .kind = REC_PARAM, .ts = otf2_time(o, l, it->t0),
			    .u.param = { otf2_step_param(o->defs), otf2_arg_u64(it->args, "step") } };
	otf2_record(o, l, &step);
	otf2_args(o, it->args, NULL, "step");
	otf2_leave(o, l, it->t1, r);
}

/* Counters are asynchronous metrics on a metric location of their process. */
void otf2_counter_item(struct otf2 *o, const struct scene_item *it)
{
	struct pstate *ps = otf2_pstate(o, it->proc);
	if (!ps->counters)
		ps->counters = otf2_loc_new(o, LOC_COUNTERS, it->proc);
	struct loc *l = ps->counters;
	OTF2_MetricRef m = otf2_metric(o->defs, otf2_item_name(it), l->ref);
	struct rec rec = { .kind = REC_METRIC, .ts = otf2_time(o, l, it->t0),
			   .u.metric = { m, it->value } };
	otf2_record(o, l, &rec);
}

/* Ranges that may end on another thread come at their end, in end order, and may overlap:
 * each goes on the first lane of its process free since its start. */
void otf2_async_item(struct otf2 *o, const struct scene_item *it)
{
	struct pstate *ps = otf2_pstate(o, it->proc);
	size_t i = 0;
	while (i < ps->nlanes && ps->lanes[i]->last > it->t0)
		i++;
	if (i == ps->nlanes) {
		ps->lanes = xreallocarray(ps->lanes, ps->nlanes + 1, sizeof(*ps->lanes));
		ps->lanes[ps->nlanes] = otf2_loc_new(o, LOC_ASYNC, it->proc);
		ps->lanes[ps->nlanes]->lane = (int)ps->nlanes + 1;
		ps->nlanes++;
	}
	struct loc *l = ps->lanes[i];
	OTF2_RegionRef r = otf2_region(o->defs, otf2_item_name(it), otf2_cat(o, it->cat, LOC_ASYNC));
	otf2_enter(o, l, it->t0, r);
	otf2_args(o, it->args, NULL, NULL);
	otf2_leave(o, l, it->t1, r);
}
