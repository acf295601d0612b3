/* render/otf2/contexts.c — CPU samples as OTF2 has them: each stack a path in the tree of
 * CallingContext definitions (a context per callsite of render/callsites.h: its function's
 * region, its caller's context as parent), written after the regions; and one
 * InterruptGenerator, "CPU sampling", in time mode, whose period in ns is the median interval
 * between consecutive samples of a thread (the sampler's period when the thread ran
 * throughout; the scene does not say the rate).  Functions are regions of two kinds of their
 * own ("sampled function", "sampled kernel function", paradigm sampling): a function that is
 * also a traced call keeps the call's region apart. */
#include <stdlib.h>

#include <string.h>

#include "../../../common/xalloc.h"
#include "../../util/grow.h"
#include "../../util/pack.h"
#include "state.h"

#define MAX_GAPS 4095

/* Regions for the callsites made since `had`. */
static void regions_since(struct otf2 *o, size_t had)
{
	struct callsites *c = &o->callsites;
	if (c->n == had)
		return;
	o->cs_region = xreallocarray(o->cs_region, c->cap, sizeof(*o->cs_region));
	int user = otf2_category(o->defs, "sampled", LOC_THREAD);
	int kernel = otf2_category(o->defs, "sampled kernel", LOC_THREAD);
	for (size_t i = had; i < c->n; i++) {
		const struct callsite *s = &c->v[i];
		o->cs_region[i] = otf2_region(o->defs, s->name, s->kernel ? kernel : user);
	}
}

uint32_t otf2_context(struct otf2 *o, const struct scene_stack *st)
{
	size_t had = o->callsites.n;
	uint32_t leaf = callsites_intern(&o->callsites, st);
	regions_since(o, had);
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

void otf2_sample_gap(struct otf2 *o, int64_t t, int64_t gap)
{
	if (o->ngaps >= MAX_GAPS || gap <= 0)
		return;
	o->gaps = util_grow(o->gaps, &o->capgaps, o->ngaps, sizeof(*o->gaps), 256);
	o->gaps[o->ngaps++] = (struct sample_gap){ t, gap };
}

void otf2_contexts_pack(const struct otf2 *o, struct pack *b)
{
	const struct callsites *c = &o->callsites;
	pack_u64(b, c->n);
	for (size_t i = 0; i < c->n; i++) {
		pack_u64(b, c->v[i].parent);
		pack_name(b, c->v[i].name);
		pack_u64(b, c->v[i].kernel);
	}
	pack_u64(b, o->ngaps);
	pack_bytes(b, o->gaps, o->ngaps * sizeof(*o->gaps));
}

void otf2_contexts_replay(struct otf2 *o, struct unpack *u, struct otf2_idmaps *m)
{
	size_t n = unpack_count(u, 3), had = o->callsites.n;
	uint32_t *v = xcalloc(n ? n : 1, sizeof(*v));
	m->n[OTF2_IDMAP_CALLING_CONTEXT] = n;
	m->v[OTF2_IDMAP_CALLING_CONTEXT] = v;
	/* a caller comes before its callees: its number is already the first's */
	for (size_t i = 0; i < n && !u->short_read; i++) {
		uint64_t parent = unpack_u64(u);
		uint32_t name = unpack_name(u);
		uint32_t kernel = unpack_u64(u) != 0;
		uint32_t mine = parent && parent <= i ? v[parent - 1] + 1 : 0;
		v[i] = callsites_node(&o->callsites, mine, name, kernel) - 1;
	}
	regions_since(o, had);
	size_t ngaps = unpack_count(u, sizeof(*o->gaps));
	o->gaps = xreallocarray(o->gaps, o->ngaps + ngaps + 1, sizeof(*o->gaps));
	o->capgaps = o->ngaps + ngaps + 1;
	unpack_bytes(u, o->gaps + o->ngaps, ngaps * sizeof(*o->gaps));
	o->ngaps += u->short_read ? 0 : ngaps;
}

static int by_time(const void *a, const void *b)
{
	const struct sample_gap *x = a, *y = b;
	if (x->t != y->t)
		return x->t > y->t ? 1 : -1;
	return (x->gap > y->gap) - (x->gap < y->gap);
}

static int by_value(const void *a, const void *b)
{
	const struct sample_gap *x = a, *y = b;
	return (x->gap > y->gap) - (x->gap < y->gap);
}

void otf2_contexts_write(struct otf2 *o, OTF2_GlobalDefWriter *gw)
{
	const struct callsites *c = &o->callsites;
	if (!c->n)
		return;
	/* the earliest MAX_GAPS intervals: under --parallel, of every analysis process's
	 * earliest (each met its own in time order) */
	uint64_t period = 0;
	size_t n = o->ngaps;
	if (n > MAX_GAPS) {
		qsort(o->gaps, n, sizeof(*o->gaps), by_time);
		n = MAX_GAPS;
	}
	if (n) {
		qsort(o->gaps, n, sizeof(*o->gaps), by_value);
		period = (uint64_t)o->gaps[n / 2].gap;
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
