/* render/otf2/contexts.c — CPU samples as OTF2 has them: each stack a path in the tree of
 * CallingContext definitions (a context per callsite of render/callsites.h: its function's
 * region, its caller's context as parent), written after the regions; and one
 * InterruptGenerator, "CPU sampling", in time mode, whose period in ns is the median interval
 * between consecutive samples of a thread (the sampler's period when the thread ran
 * throughout; the scene does not say the rate).  Functions are regions of two kinds of their
 * own ("sampled function", "sampled kernel function", paradigm sampling): a function that is
 * also a traced call keeps the call's region apart. */
#include <stdlib.h>

#include "../../../common/xalloc.h"
#include "state.h"

#define MAX_GAPS 4095

uint32_t otf2_context(struct otf2 *o, const struct scene_stack *st)
{
	struct callsites *c = &o->callsites;
	size_t had = c->n;
	uint32_t leaf = callsites_intern(c, st);
	if (c->n == had)
		return leaf;
	o->cs_region = xreallocarray(o->cs_region, c->cap, sizeof(*o->cs_region));
	int user = otf2_category(o->defs, "sampled", LOC_THREAD);
	int kernel = otf2_category(o->defs, "sampled kernel", LOC_THREAD);
	for (size_t i = had; i < c->n; i++) {
		const struct callsite *s = &c->v[i];
		o->cs_region[i] = otf2_region(o->defs, s->name, s->kernel ? kernel : user);
	}
	return leaf;
}

uint32_t otf2_unwind_distance(const struct otf2 *o, uint32_t from, uint32_t to)
{
	const struct callsites *c = &o->callsites;
	uint32_t fresh = 0;   /* frames of `to` below the shared one */
	while (from && to && callsites_at(c, from)->depth > callsites_at(c, to)->depth)
		from = callsites_at(c, from)->parent;
	while (to && (!from || callsites_at(c, to)->depth > callsites_at(c, from)->depth)) {
		to = callsites_at(c, to)->parent;
		fresh++;
	}
	while (to && to != from) {
		to = callsites_at(c, to)->parent;
		from = callsites_at(c, from)->parent;
		fresh++;
	}
	return fresh + 1;
}

void otf2_sample_gap(struct otf2 *o, int64_t gap)
{
	if (o->ngaps >= MAX_GAPS || gap <= 0)
		return;
	if (!o->gaps)
		o->gaps = xmallocarray(MAX_GAPS, sizeof(*o->gaps));
	o->gaps[o->ngaps++] = gap;
}

static int by_value(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

void otf2_contexts_write(struct otf2 *o, OTF2_GlobalDefWriter *gw)
{
	const struct callsites *c = &o->callsites;
	if (!c->n)
		return;
	uint64_t period = 0;
	if (o->ngaps) {
		qsort(o->gaps, o->ngaps, sizeof(*o->gaps), by_value);
		period = (uint64_t)o->gaps[o->ngaps / 2];
	}
	otf2_check(o, OTF2_GlobalDefWriter_WriteInterruptGenerator(
			      gw, 0, otf2_str(o->defs, "CPU sampling"),
			      OTF2_INTERRUPT_GENERATOR_MODE_TIME, OTF2_BASE_DECIMAL, -9, period));
	for (size_t i = 0; i < c->n; i++) {
		const struct callsite *s = &c->v[i];
		otf2_check(o, OTF2_GlobalDefWriter_WriteCallingContext(
				      gw, (OTF2_CallingContextRef)i, o->cs_region[i],
				      OTF2_UNDEFINED_SOURCE_CODE_LOCATION,
				      s->parent ? s->parent - 1 : OTF2_UNDEFINED_CALLING_CONTEXT));
	}
}

void otf2_contexts_free(struct otf2 *o)
{
	callsites_free(&o->callsites);
	free(o->cs_region);
	free(o->gaps);
}
