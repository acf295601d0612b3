/* render/otf2/process.c — a process's locations besides its threads and device streams, and
 * the simple events written there: its training steps, its counters, and its ranges that
 * may end on another thread (roctxRangeStart/Stop), on lanes. */
#include <stdlib.h>

#include "state.h"

/* A process's steps follow one another on a location of their own: one region "step", the
 * step's number a parameter. */
void otf2_step_event(struct otf2 *o, const struct event *ev)
{
	struct pstate *ps = otf2_pstate(o, ev->proc);
	if (!ps->steps)
		ps->steps = otf2_loc_new(o, LOC_STEPS, ev->proc);
	struct loc *l = ps->steps;
	OTF2_RegionRef r = otf2_region(o->defs, 0, RC_STEP);
	otf2_enter(o, l, ev->t0, r);
	if (!o->failed)
		otf2_check(o, OTF2_EvtWriter_ParameterUnsignedInt(l->w, NULL, otf2_time(o, l, ev->t0),
								  otf2_step_param(o->defs), ev->step));
	otf2_attr_flags(o, ev->flags);
	otf2_leave(o, l, ev->t1, r);
}

/* Counters are asynchronous metrics on a metric location of their process. */
void otf2_counter_event(struct otf2 *o, const struct event *ev)
{
	struct pstate *ps = otf2_pstate(o, ev->proc);
	if (!ps->counters)
		ps->counters = otf2_loc_new(o, LOC_COUNTERS, ev->proc);
	struct loc *l = ps->counters;
	OTF2_Type type = OTF2_TYPE_DOUBLE;
	OTF2_MetricValue v = { .floating_point = ev->value };
	if (!o->failed)
		otf2_check(o, OTF2_EvtWriter_Metric(l->w, NULL, otf2_time(o, l, ev->t0),
						    otf2_metric(o->defs, ev->name, l->id), 1, &type, &v));
}

/* Ranges that may end on another thread come at their end, in end order, and may overlap:
 * each goes on the first lane of its process free since its start. */
void otf2_async_event(struct otf2 *o, const struct event *ev)
{
	struct pstate *ps = otf2_pstate(o, ev->proc);
	size_t i = 0;
	while (i < ps->nlanes && ps->lanes[i]->last > ev->t0)
		i++;
	if (i == ps->nlanes) {
		ps->lanes = realloc(ps->lanes, (ps->nlanes + 1) * sizeof(*ps->lanes));
		if (!ps->lanes)
			abort();
		ps->lanes[ps->nlanes] = otf2_loc_new(o, LOC_ASYNC, ev->proc);
		ps->lanes[ps->nlanes]->lane = (int)ps->nlanes + 1;
		ps->nlanes++;
	}
	struct loc *l = ps->lanes[i];
	OTF2_RegionRef r = otf2_region(o->defs, ev->name, RC_ROCTX);
	otf2_enter(o, l, ev->t0, r);
	otf2_attr_flags(o, ev->flags);
	otf2_leave(o, l, ev->t1, r);
}
