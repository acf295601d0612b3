/* runtimes/nrt/otf2.c — the NeuronCores of each process as accelerator locations, as Chrome has a
 * track per NeuronCore: an NRT execution is a region named by its model on every core its
 * model occupies, a load, unload or tensor call on a device tensor a region named by the call
 * on the core it addresses (the call itself stays on its thread, render/otf2/host.c).  NRT calls
 * block, so a core's work arrives in the order it started; work from two threads that
 * overlaps on one core goes to a second lane of that core (a location of its own), the first
 * lane free when it starts, since a location's regions must nest. */
#include <stdlib.h>

#include "nrt.h"
#include "../../render/otf2/state.h"

static struct loc *core_loc(struct otf2 *o, struct proc *p, int32_t nc, int64_t t0)
{
	struct pstate *ps = otf2_pstate(o, p);
	int lane = 0;
	for (size_t i = 0; i < ps->nncs; i++) {
		struct loc *l = ps->ncs[i];
		if ((int32_t)l->device != nc)
			continue;
		if (l->last <= t0)
			return l;
		lane++;
	}
	ps->ncs = realloc(ps->ncs, (ps->nncs + 1) * sizeof(*ps->ncs));
	if (!ps->ncs)
		abort();
	struct loc *l = otf2_loc_new(o, LOC_NEURONCORE, p);
	l->device = (uint32_t)nc;
	l->stream_no = lane;
	ps->ncs[ps->nncs++] = l;
	return l;
}

static void write_span(struct otf2 *o, const struct event *ev, const struct nrt_info *ni, int32_t nc,
		       int64_t t1, unsigned flags)
{
	struct loc *l = core_loc(o, ev->proc, nc, ev->t0);
	int exec = ni->a.op == TPROF_NRT_EXECUTE && ni->model;
	OTF2_RegionRef r = otf2_region(o->defs, exec ? ni->model : ev->name, exec ? RC_NRT_EXEC : RC_NRT_CORE);
	if (ev->call->corr)
		OTF2_AttributeList_AddUint64(o->attrs, otf2_attr(o->defs, A_CORR), ev->call->corr);
	if (ev->call->ret)
		OTF2_AttributeList_AddInt64(o->attrs, otf2_attr(o->defs, A_RETURN), ev->call->ret);
	otf2_attr_nrt(o, ev->call, nc);
	otf2_attr_flags(o, flags);
	otf2_enter(o, l, ev->t0, r);
	otf2_leave(o, l, t1, r);
}

void otf2_nrt_event(struct otf2 *o, const struct event *ev)
{
	const struct nrt_info *ni = ev->call->nrt;
	int32_t first;
	int n = nrt_cores(ni, &first);
	int64_t t1 = ev->t1 < ev->t0 ? ev->t0 : ev->t1;
	unsigned flags = ev->flags;
	if (o->win->active && t1 > o->win->end) {
		t1 = o->win->end > ev->t0 ? o->win->end : ev->t0;
		flags |= EVF_CLIPPED;
	}
	for (int k = 0; k < n; k++)
		write_span(o, ev, ni, first + k, t1, flags);
}
