/* render/otf2/host.c — a thread's location: API calls, ranges and marks as properly nested
 * Enter/Leave pairs, with the MPI records in their places.  The scene draws a call when it
 * starts (its end already known), announces a range's start when it opens (SI_BEGIN) and
 * draws the range when it closes, and announces a request's completion (SI_MSGPASS) when it
 * happens, at the end of the call that completed it.  So each thread keeps a stack of its
 * open regions and writes a Leave only once the next record on the thread is later; a range
 * begun before the window is entered at the window's start, and only once something inside
 * the window needs it.  An item's ranges_open (the ranges open on its thread) tells which
 * ranges the window closed unseen.  The MPI records themselves are made and written by
 * render/otf2/mpi.c; CPU samples are calling-context samples inside the open regions, their
 * contexts defined by render/otf2/contexts.c. */
#include <stdlib.h>

#include "../../../common/xalloc.h"
#include "../../util/grow.h"
#include "state.h"

/* ---- open regions ------------------------------------------------------------------------- */

/* A new frame on top, set field by field (one per call and range: zeroing it first costs). */
static struct frame *push(struct loc *l, OTF2_RegionRef region, int64_t t0, int64_t end,
			  int32_t depth, int entered)
{
	l->stack = util_grow(l->stack, &l->cap, l->depth, sizeof(*l->stack), 16);
	struct frame *f = &l->stack[l->depth++];
	f->region = region;
	f->t0 = t0;
	f->end = end;
	f->depth = depth;
	f->entered = (uint8_t)entered;
	f->skip = 0;
	f->leave.v = NULL;
	f->leave.n = f->leave.cap = 0;
	f->pre.kind = MR_NONE;
	return f;
}

static void leave_top(struct otf2 *o, struct loc *l)
{
	struct frame *f = &l->stack[--l->depth];
	if (f->depth >= 0 && f->end == T_OPEN)
		l->open_ranges--;
	if (f->entered) {
		int64_t t = f->end == T_OPEN ? l->last : f->end;
		if (f->pre.kind)
			otf2_mpi_write(o, l, t, &f->pre);
		otf2_saved_use(o, &f->leave);
		otf2_leave(o, l, t, f->region);
	} else if (!f->skip) {
		l->pending--;
	}
	otf2_saved_free(&f->leave);
}

/* Leaves the regions on top that ended before t (at t too when `incl`). */
static void unwind(struct otf2 *o, struct loc *l, int64_t t, int incl)
{
	while (l->depth) {
		const struct frame *f = &l->stack[l->depth - 1];
		if (f->end == T_OPEN || f->end > t || (f->end == t && !incl))
			return;
		leave_top(o, l);
	}
}

/* Ranges the pipeline closed without handing them over (they lay outside the window): the
 * open ones at depth `open` or deeper, and whatever is above them. */
static void drop_stale(struct otf2 *o, struct loc *l, size_t open)
{
	size_t k = 0;
	while (k < l->depth && !(l->stack[k].depth >= 0 && (size_t)l->stack[k].depth >= open &&
				 l->stack[k].end == T_OPEN))
		k++;
	while (l->depth > k)
		leave_top(o, l);
}

/* Ranges begun before the window and still open are entered at its start. */
static void enter_pending(struct otf2 *o, struct loc *l)
{
	for (size_t k = 0; k < l->depth && l->pending; k++) {
		struct frame *f = &l->stack[k];
		if (f->entered || f->skip)
			continue;
		otf2_enter(o, l, f->t0 > o->win->start ? f->t0 : o->win->start, f->region);
		f->entered = 1;
		l->pending--;
	}
}

/* Before writing at t on a thread with `open` ranges open in the pipeline. */
static void at(struct otf2 *o, struct loc *l, size_t open, int64_t t, int incl)
{
	if (l->open_ranges > open)
		drop_stale(o, l, open);
	unwind(o, l, t, incl);
	if (l->pending && (!o->win->active || t >= o->win->start))
		enter_pending(o, l);
}

/* ---- MPI completions ---------------------------------------------------------------------- */

static void hold(struct loc *l, int64_t t, const struct mrec *m)
{
	l->held = util_grow(l->held, &l->capheld, l->nheld, sizeof(*l->held), 8);
	l->held[l->nheld++] = (struct held){ t, *m };
}

/* Held completions whose call never came go where they happened. */
static void release(struct otf2 *o, struct loc *l, size_t open)
{
	for (size_t i = 0; i < l->nheld; i++) {
		at(o, l, open, l->held[i].t, 0);
		otf2_mpi_write(o, l, l->held[i].t, &l->held[i].m);
	}
	l->nheld = 0;
}

static int held_within(const struct loc *l, int64_t t0, int64_t t1)
{
	for (size_t i = 0; i < l->nheld; i++)
		if (l->held[i].t < t0 || l->held[i].t > t1)
			return 0;
	return 1;
}

/* A completion goes inside the call that completed it: the innermost call open at t.  If
 * that call has not come yet, the completion waits for it. */
static void mpireq_item(struct otf2 *o, struct loc *l, const struct scene_item *it)
{
	struct mrec m;
	otf2_mpi_req(o, it->msgpass, it->proc->index, &m);
	if (!m.kind)
		return;
	size_t open = it->ranges_open;
	if (l->open_ranges > open)
		drop_stale(o, l, open);
	unwind(o, l, it->t0, 0);
	const struct frame *top = l->depth ? &l->stack[l->depth - 1] : NULL;
	if (top && top->depth < 0 && top->entered && top->t0 <= it->t0 && it->t0 <= top->end) {
		at(o, l, open, it->t0, 0);
		otf2_mpi_write(o, l, it->t0, &m);
	} else {
		hold(l, it->t0, &m);
	}
}

/* ---- calls, ranges, marks ----------------------------------------------------------------- */

/* A call (or any slice drawn whole on a thread): its Enter with its arguments, the MPI
 * records that go after it, and a frame to leave at its end. */
static void call_item(struct otf2 *o, struct loc *l, const struct scene_item *it)
{
	size_t open = it->ranges_open;
	int clipped;
	int64_t t0 = it->t0, t1 = otf2_call_end(o, it, &clipped);
	struct mrec after = { 0 }, before = { 0 };
	OTF2_RegionRef r = otf2_region(o->defs, otf2_item_name(it), otf2_cat(o, it->cat, l->kind));
	if (it->msgpass) {
		otf2_mpi_call(o, it->msgpass, it->proc->index, &after, &before);
		if (it->msgpass->coll)
			otf2_region_coll(o->defs, r, it->msgpass->coll);
	}
	/* Completions that came before their call go inside it. */
	int inside = l->nheld && held_within(l, t0, t1);
	if (l->nheld && !inside)
		release(o, l, open);
	at(o, l, open, t0, 1);
	otf2_args(o, it->args, NULL, NULL);
	if (clipped && !(it->ev->flags & EVF_CLIPPED))
		otf2_attr_clipped(o);
	otf2_enter(o, l, t0, r);
	if (after.kind)
		otf2_mpi_write(o, l, t0, &after);
	push(l, r, t0, t1, -1, 1)->pre = before;
	if (inside) {
		for (size_t i = 0; i < l->nheld; i++)
			otf2_mpi_write(o, l, l->held[i].t, &l->held[i].m);
		l->nheld = 0;
	}
}

static OTF2_RegionRef range_region(struct otf2 *o, const struct scene_item *it)
{
	return otf2_region(o->defs, otf2_item_name(it), otf2_cat(o, it->cat, LOC_THREAD));
}

static void begin_item(struct otf2 *o, struct loc *l, const struct scene_item *it)
{
	const struct window *w = o->win;
	size_t open = it->depth;   /* open before this one */
	if (l->nheld)
		release(o, l, open);
	if (l->open_ranges > open)
		drop_stale(o, l, open);
	OTF2_RegionRef r = range_region(o, it);
	int skip = 0, entered = 0;
	if (w->active && it->t0 >= w->end) {
		skip = 1;
	} else if (w->active && it->t0 < w->start) {
		l->pending++;
	} else {
		at(o, l, open, it->t0, 1);
		otf2_enter(o, l, it->t0, r);
		entered = 1;
	}
	push(l, r, it->t0, T_OPEN, (int32_t)it->depth, entered)->skip = (uint8_t)skip;
	l->open_ranges++;
}

/* A range closed: its Leave is due at its end, written once something later comes. */
static void range_item(struct otf2 *o, struct loc *l, const struct scene_item *it)
{
	size_t d = it->depth;
	if (l->nheld)
		release(o, l, d + 1);
	if (l->open_ranges > d + 1)
		drop_stale(o, l, d + 1);
	size_t k = l->depth;
	while (k > 0 && !(l->stack[k - 1].depth >= 0 && l->stack[k - 1].end == T_OPEN))
		k--;
	if (!k || (size_t)l->stack[k - 1].depth != d) {
		/* Its start was never seen: a region of its own, as late as it must be. */
		at(o, l, d, it->t0, 1);
		OTF2_RegionRef r = range_region(o, it);
		otf2_enter(o, l, it->t0, r);
		otf2_args(o, it->args, &push(l, r, it->t0, it->t1, -1, 1)->leave, NULL);
		return;
	}
	struct frame *f = &l->stack[k - 1];
	if (!f->entered && !f->skip)
		enter_pending(o, l);     /* it overlaps the window after all */
	f->end = it->t1 < f->t0 ? f->t0 : it->t1;
	otf2_args(o, it->args, &f->leave, NULL);
	l->open_ranges--;
	/* Calls said to run past the range's end are cut there, to keep the nesting. */
	for (size_t i = k; i < l->depth; i++)
		if (l->stack[i].end > f->end)
			l->stack[i].end = f->end;
}

/* A mark: a region of no length. */
static void mark_item(struct otf2 *o, struct loc *l, const struct scene_item *it)
{
	size_t open = it->ranges_open;
	if (l->nheld)
		release(o, l, open);
	at(o, l, open, it->t0, 1);
	OTF2_RegionRef r = otf2_region(o->defs, otf2_item_name(it), otf2_category_mark(o->defs));
	otf2_args(o, it->args, NULL, NULL);
	otf2_enter(o, l, it->t0, r);
	otf2_leave(o, l, it->t0, r);
}

/* A CPU sample: a CallingContextSample inside whatever the thread was in at its time (the
 * regions that ended before it left), with the CPU as an attribute.  A sample without a
 * stack has no calling context to name: none is written. */
static void sample_item(struct otf2 *o, struct loc *l, const struct scene_item *it)
{
	uint32_t ctx = otf2_context(o, it->stack);
	if (!ctx)
		return;
	unwind(o, l, it->t0, 0);
	if (l->pending && (!o->win->active || it->t0 >= o->win->start))
		enter_pending(o, l);
	if (l->context)
		otf2_sample_gap(o, it->t0, it->t0 - l->sampled);
	uint32_t dist = otf2_unwind_distance(o, l->context, ctx);
	l->context = ctx;
	l->sampled = it->t0;
	if (o->failed)
		return;
	OTF2_AttributeRef cpu = otf2_attr(o->defs, "cpu", "the CPU the sample ran on",
					  OTF2_TYPE_UINT32);
	otf2_check(o, OTF2_AttributeList_AddUint32(o->attrs, cpu, it->stack->cpu));
	struct rec r = { .kind = REC_SAMPLE, .ts = otf2_time(o, l, it->t0),
			 .u.sample = { ctx - 1, dist } };
	otf2_record(o, l, &r);
}

/* Calls, ranges, marks, CPU samples and MPI completions, on the location of their thread. */
void otf2_host_item(struct otf2 *o, struct loc *l, const struct scene_item *it)
{
	switch (it->kind) {
	case SI_SLICE:
		if (it->ev && it->ev->kind == EV_RANGE)
			range_item(o, l, it);
		else
			call_item(o, l, it);
		break;
	case SI_BEGIN:
		begin_item(o, l, it);
		break;
	case SI_INSTANT:
		mark_item(o, l, it);
		break;
	case SI_MSGPASS:
		mpireq_item(o, l, it);
		break;
	case SI_SAMPLE:
		sample_item(o, l, it);
		break;
	default:
		break;
	}
}

/* The end of the trace: everything left is written, every region left. */
void otf2_host_finish(struct otf2 *o, struct loc *l)
{
	release(o, l, 0);
	drop_stale(o, l, 0);
	unwind(o, l, INT64_MAX, 1);
}
