/* render/otf2/device.c — the locations of tracks other than threads': one per device stream
 * (kernels, copies, memsets, collectives, with their launch's correlation id, grid and
 * block, bytes) and one per NeuronCore lane (the work of NRT calls), as regions in start
 * order.  The scene draws a stream's spans one after the other in time but for two cases:
 * a span launched from another thread that ran before the latest one comes after it (yet
 * after everything before that one: model/devorder.c), and a span a runtime holds to draw
 * later (an NCCL collective waiting for its other ranks), which the scene announces
 * (SI_HELD).  So each location keeps its latest slice back until a later one comes, and
 * while a slice is held, everything after it: a small heap by start, written from the
 * bottom.  Memory: one slice per location, and those behind a held one. */
#include <stdlib.h>

#include "../../../common/xalloc.h"
#include "../../util/grow.h"
#include "state.h"

static int before(const struct pend *a, const struct pend *b)
{
	return a->t0 < b->t0 || (a->t0 == b->t0 && a->t1 < b->t1);
}

static void heap_push(struct loc *l, const struct pend *v)
{
	l->heap = util_grow(l->heap, &l->capheap, l->nheap, sizeof(*l->heap), 8);
	size_t i = l->nheap++;
	while (i && before(v, &l->heap[(i - 1) / 2])) {
		l->heap[i] = l->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	l->heap[i] = *v;
}

static struct pend heap_pop(struct loc *l)
{
	struct pend top = l->heap[0], last = l->heap[--l->nheap];
	size_t i = 0;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= l->nheap)
			break;
		if (c + 1 < l->nheap && before(&l->heap[c + 1], &l->heap[c]))
			c++;
		if (!before(&l->heap[c], &last))
			break;
		l->heap[i] = l->heap[c];
		i = c;
	}
	if (l->nheap)
		l->heap[i] = last;
	return top;
}

static void write_pend(struct otf2 *o, struct loc *l, struct pend *p)
{
	otf2_saved_use(o, &p->enter);
	otf2_enter(o, l, p->t0, p->region);
	otf2_leave(o, l, p->t1, p->region);
}

/* The earliest start still held, or INT64_MAX. */
static int64_t held_from(const struct loc *l)
{
	int64_t t = INT64_MAX;
	for (size_t i = 0; i < l->nholds; i++)
		if (l->holds[i].t0 < t)
			t = l->holds[i].t0;
	return t;
}

/* Writes what can be: all but the latest slice, none held or behind a held one. */
static void flush(struct otf2 *o, struct loc *l)
{
	int64_t held = held_from(l);
	while (l->nheap > 1 && l->heap[0].t0 < held) {
		struct pend p = heap_pop(l);
		write_pend(o, l, &p);
	}
}

static void hold(struct loc *l, const struct scene_item *it)
{
	l->holds = util_grow(l->holds, &l->capholds, l->nholds, sizeof(*l->holds), 4);
	l->holds[l->nholds++] = (struct hold){ it->t0, it->t1, otf2_item_name(it) };
}

/* A slice the scene held comes: it no longer holds the rest back.  The name it was
 * announced with, or 0 when it was not held. */
static uint32_t unhold(struct loc *l, const struct scene_item *it)
{
	for (size_t i = 0; i < l->nholds; i++)
		if (l->holds[i].t0 == it->t0 && l->holds[i].t1 == it->t1) {
			uint32_t name = l->holds[i].name;
			l->holds[i] = l->holds[--l->nholds];
			return name;
		}
	return 0;
}

/* A slice is a region of its name; one the scene announced as held keeps the name it had
 * then, as the trace recorded the work (the call that launched a group of NCCL operations),
 * and the name it is drawn with, when another ("ncclGroup (2 ops: Send, Recv)"), is its
 * "label". */
static uint32_t region_name(struct otf2 *o, const struct scene_item *it, uint32_t held,
			    struct saved *enter)
{
	uint32_t name = otf2_item_name(it);
	if (!held || held == name)
		return name;
	struct scene_args a;
	a.n = 0;
	sa_name(&a, "label", name);
	otf2_args(o, &a, enter, NULL);
	return held;
}

void otf2_device_item(struct otf2 *o, struct loc *l, const struct scene_item *it)
{
	if (it->kind == SI_HELD) {
		hold(l, it);
		return;
	}
	if (it->kind != SI_SLICE && it->kind != SI_INSTANT)
		return;
	uint32_t held = l->nholds ? unhold(l, it) : 0;
	int clipped;
	struct pend p = { .t0 = it->t0, .t1 = otf2_call_end(o, it, &clipped) };
	if (it->kind == SI_INSTANT) {
		p.t1 = p.t0;
		p.region = otf2_region(o->defs, otf2_item_name(it), otf2_category_mark(o->defs));
	} else {
		p.region = otf2_region(o->defs, region_name(o, it, held, &p.enter),
				       otf2_cat(o, it->cat, l->kind));
	}
	otf2_args(o, it->args, &p.enter, NULL);
	if (clipped && !(it->ev->flags & EVF_CLIPPED)) {
		struct scene_args a;
		a.n = 0;
		sa_bool(&a, "clipped", 1);
		otf2_args(o, &a, &p.enter, NULL);
	}
	heap_push(l, &p);
	flush(o, l);
}

/* The end: everything left, in start order. */
void otf2_device_finish(struct otf2 *o, struct loc *l)
{
	while (l->nheap) {
		struct pend p = heap_pop(l);
		write_pend(o, l, &p);
	}
}
