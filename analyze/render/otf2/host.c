/* render/otf2/host.c — a host thread's location: API calls, ranges and marks as properly nested
 * Enter/Leave pairs, with the MPI records in their places.  The pipeline hands over a call
 * when it starts (its end already known), a range's start (EV_BEGIN) when it opens and the
 * range itself when it closes, and an MPI completion when it happens, at the end of the call
 * that completed it.  So each thread keeps a stack of its open regions and writes a Leave
 * only once the next record on the thread is later; a range begun before the window is
 * entered at the window's start, and only once something inside the window needs it.  The
 * MPI records themselves are made and written by render/otf2/mpi.c. */
#include <stdlib.h>

#include "../../runtimes/nrt/nrt.h"
#include "state.h"

/* A thread's location, made with its first event; none for a stream the process does not
 * count. */
static struct loc *thread_loc(struct otf2 *o, const struct thread *th)
{
	struct pstate *ps = otf2_pstate(o, th->proc);
	if (th->stream >= ps->nthreads)
		return NULL;
	if (!ps->threads[th->stream]) {
		struct loc *l = otf2_loc_new(o, LOC_THREAD, th->proc);
		l->th = th;
		ps->threads[th->stream] = l;
	}
	return ps->threads[th->stream];
}

/* ---- open regions ------------------------------------------------------------------------- */

static struct frame *push(struct loc *l, const struct frame *f)
{
	if (l->depth == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 16;
		l->stack = realloc(l->stack, l->cap * sizeof(*l->stack));
		if (!l->stack)
			abort();
	}
	l->stack[l->depth] = *f;
	return &l->stack[l->depth++];
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
		otf2_attr_flags(o, f->flags);
		otf2_leave(o, l, t, f->region);
	} else if (!f->skip) {
		l->pending--;
	}
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
	if (l->nheld == l->capheld) {
		l->capheld = l->capheld ? l->capheld * 2 : 8;
		l->held = realloc(l->held, l->capheld * sizeof(*l->held));
		if (!l->held)
			abort();
	}
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
static void mpireq_event(struct otf2 *o, struct loc *l, const struct event *ev)
{
	struct mrec m;
	if (!ev->msgpass)
		return;
	otf2_mpi_req(o, ev->msgpass, ev->proc->index, &m);
	if (!m.kind)
		return;
	size_t open = ev->thread->depth;
	if (l->open_ranges > open)
		drop_stale(o, l, open);
	unwind(o, l, ev->t0, 0);
	const struct frame *top = l->depth ? &l->stack[l->depth - 1] : NULL;
	if (top && top->depth < 0 && top->entered && top->t0 <= ev->t0 && ev->t0 <= top->end) {
		at(o, l, open, ev->t0, 0);
		otf2_mpi_write(o, l, ev->t0, &m);
	} else {
		hold(l, ev->t0, &m);
	}
}

/* ---- calls, ranges, marks ----------------------------------------------------------------- */

static void call_attrs(struct otf2 *o, const struct call_info *ci, unsigned flags)
{
	OTF2_AttributeList *a = o->attrs;
	struct otf2_defs *d = o->defs;
	if (ci->corr)
		OTF2_AttributeList_AddUint64(a, otf2_attr(d, A_CORR), ci->corr);
	if (ci->ret)
		OTF2_AttributeList_AddInt64(a, otf2_attr(d, A_RETURN), ci->ret);
	if (ci->has_args) {
		const struct tprof_call_args *x = &ci->args;
		if (x->device != 0xffff)
			OTF2_AttributeList_AddUint32(a, otf2_attr(d, A_DEVICE), x->device);
		if (x->shape == TPROF_SHAPE_LAUNCH || x->stream || x->shape == TPROF_SHAPE_COPY ||
		    x->shape == TPROF_SHAPE_MEMSET)
			OTF2_AttributeList_AddUint64(a, otf2_attr(d, A_STREAM), x->stream);
		if (x->shape == TPROF_SHAPE_COPY)
			otf2_attr_copy(o, x->a, (uint32_t)x->b);
		else if (x->shape == TPROF_SHAPE_MEMSET || x->shape == TPROF_SHAPE_ALLOC)
			OTF2_AttributeList_AddUint64(a, otf2_attr(d, A_BYTES), x->a);
		else if (x->shape == TPROF_SHAPE_LAUNCH && x->name)
			OTF2_AttributeList_AddStringRef(a, otf2_attr(d, A_KERNEL), otf2_tstr(d, x->name));
	}
	if (ci->has_dims)
		otf2_attr_dims(o, &ci->dims);
	if (ci->nrt)
		otf2_attr_nrt(o, ci, ci->nrt->a.nc);
	if (ci->poll) {
		OTF2_AttributeList_AddUint64(a, otf2_attr(d, A_POLLS), ci->poll->polls);
		OTF2_AttributeList_AddUint64(a, otf2_attr(d, A_POLL_TIME), (uint64_t)ci->poll->busy);
	}
	otf2_attr_flags(o, flags);
}

static void call_event(struct otf2 *o, struct loc *l, const struct event *ev)
{
	size_t open = ev->thread->depth;
	int64_t t0 = ev->t0, t1 = ev->t1 < ev->t0 ? ev->t0 : ev->t1;
	unsigned flags = ev->flags;
	if (o->win->active && t1 > o->win->end) {
		t1 = o->win->end > t0 ? o->win->end : t0;
		flags |= EVF_CLIPPED;
	}
	struct mrec after = { 0 }, before = { 0 };
	int domain = ev->call->domain < 8 ? ev->call->domain : 0;
	OTF2_RegionRef r = otf2_region(o->defs, ev->name, RC_CALL + domain);
	if (ev->msgpass) {
		otf2_mpi_call(o, ev->msgpass, ev->proc->index, &after, &before);
		if (ev->msgpass->coll)
			otf2_region_coll(o->defs, r, ev->msgpass->coll);
	}
	/* Completions that came before their call go inside it. */
	int inside = l->nheld && held_within(l, t0, t1);
	if (l->nheld && !inside)
		release(o, l, open);
	at(o, l, open, t0, 1);
	call_attrs(o, ev->call, flags);
	otf2_enter(o, l, t0, r);
	if (after.kind)
		otf2_mpi_write(o, l, t0, &after);
	push(l, &(struct frame){ .region = r, .t0 = t0, .end = t1, .depth = -1, .entered = 1,
				 .pre = before });
	if (inside) {
		for (size_t i = 0; i < l->nheld; i++)
			otf2_mpi_write(o, l, l->held[i].t, &l->held[i].m);
		l->nheld = 0;
	}
}

static int range_cat(const struct event *ev)
{
	return ev->source == TPROF_SRC_ROCTX ? RC_ROCTX : RC_RANGE;
}

static void begin_event(struct otf2 *o, struct loc *l, const struct event *ev)
{
	const struct window *w = o->win;
	size_t open = ev->depth;   /* open before this one */
	if (l->nheld)
		release(o, l, open);
	if (l->open_ranges > open)
		drop_stale(o, l, open);
	struct frame f = { .region = otf2_region(o->defs, ev->name, range_cat(ev)), .t0 = ev->t0,
			   .end = T_OPEN, .depth = (int32_t)ev->depth };
	if (w->active && ev->t0 >= w->end) {
		f.skip = 1;
	} else if (w->active && ev->t0 < w->start) {
		l->pending++;
	} else {
		at(o, l, open, ev->t0, 1);
		otf2_enter(o, l, ev->t0, f.region);
		f.entered = 1;
	}
	push(l, &f);
	l->open_ranges++;
}

/* A range closed: its Leave is due at its end, written once something later comes. */
static void range_event(struct otf2 *o, struct loc *l, const struct event *ev)
{
	size_t d = ev->depth;
	if (l->nheld)
		release(o, l, d + 1);
	if (l->open_ranges > d + 1)
		drop_stale(o, l, d + 1);
	size_t k = l->depth;
	while (k > 0 && !(l->stack[k - 1].depth >= 0 && l->stack[k - 1].end == T_OPEN))
		k--;
	if (!k || (size_t)l->stack[k - 1].depth != d) {
		/* Its start was never seen: a region of its own, as late as it must be. */
		at(o, l, d, ev->t0, 1);
		OTF2_RegionRef r = otf2_region(o->defs, ev->name, range_cat(ev));
		otf2_enter(o, l, ev->t0, r);
		push(l, &(struct frame){ .region = r, .t0 = ev->t0, .end = ev->t1, .depth = -1,
					 .entered = 1, .flags = ev->flags });
		return;
	}
	struct frame *f = &l->stack[k - 1];
	if (!f->entered && !f->skip)
		enter_pending(o, l);     /* it overlaps the window after all */
	f->end = ev->t1 < f->t0 ? f->t0 : ev->t1;
	f->flags = ev->flags;
	l->open_ranges--;
	/* Calls said to run past the range's end are cut there, to keep the nesting. */
	for (size_t i = k; i < l->depth; i++)
		if (l->stack[i].end > f->end)
			l->stack[i].end = f->end;
}

/* A mark: a region of no length. */
static void mark_event(struct otf2 *o, struct loc *l, const struct event *ev)
{
	size_t open = ev->thread->depth;
	if (l->nheld)
		release(o, l, open);
	at(o, l, open, ev->t0, 1);
	OTF2_RegionRef r = otf2_region(o->defs, ev->name, RC_MARK);
	otf2_enter(o, l, ev->t0, r);
	otf2_leave(o, l, ev->t0, r);
}

/* Calls, ranges, marks and MPI completions, on the location of their thread. */
void otf2_host_event(struct otf2 *o, const struct event *ev)
{
	struct loc *l = ev->thread ? thread_loc(o, ev->thread) : NULL;
	if (!l)
		return;
	switch (ev->kind) {
	case EV_CALL:
		call_event(o, l, ev);
		break;
	case EV_BEGIN:
		begin_event(o, l, ev);
		break;
	case EV_RANGE:
		range_event(o, l, ev);
		break;
	case EV_MARK:
		mark_event(o, l, ev);
		break;
	case EV_MPIREQ:
		mpireq_event(o, l, ev);
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
