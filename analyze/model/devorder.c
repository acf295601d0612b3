/* devorder.c — device spans ordered and disjoint per stream, none before its launch (see
 * devorder.h).  The recorder writes a device's operations in launch order, each timed on the
 * host's clock through float milliseconds against an anchor event: two operations back to
 * back on a stream may overlap by the rounding, a span may start before the call that
 * launched it by the anchor's error, and operations either side of a re-taken anchor may
 * overlap by the difference of two anchors' errors.  A stream runs its work in the order it
 * was put there, which is the launch order for what one thread launches; so a span first
 * starts no earlier than its launch, then no earlier than the end of the span before it on
 * its stream.  Only two threads racing to one stream can queue operations in the other
 * order than they ran: a span launched from another thread than the one before it, that
 * ends before that one starts, ran first and keeps its place (after the span before those
 * two).  A move keeps the duration (measured on the device between two events, exact but for
 * rounding) and changes the position (where the anchor's error lies).  Memory: one entry per
 * stream. */
#include <stdlib.h>
#include <string.h>

#include "../../common/xalloc.h"
#include "devorder.h"
#include "emit.h"
#include "runtime.h"
#include "../util/fmt.h"
#include "../util/grow.h"
#include "../util/hindex.h"

/* One (process, device, stream): its latest span handed over, and the one before. */
struct lane {
	int proc;
	uint32_t device;
	uint64_t stream;
	int64_t start, end;             /* the latest span */
	uint32_t thread;                /* the tprof stream (thread) that launched it */
	int64_t before;                 /* the end of the span before it */
};

struct devorder {
	struct lane *lanes;             /* in the order first seen */
	size_t n, cap;
	struct hindex by_key;           /* their numbers (index + 1), by (proc, device, stream) */
};

static uint64_t hash(int proc, uint32_t device, uint64_t stream)
{
	uint64_t h = stream ^ ((uint64_t)(uint32_t)proc << 40) ^ ((uint64_t)device << 20);
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	return h;
}

static struct lane *lane_of(struct pipeline *pl, int proc, uint32_t device, uint64_t stream)
{
	struct devorder *o = pl->devorder;
	if (!o)
		o = pl->devorder = xcalloc(1, sizeof(*o));
	uint64_t h = hash(proc, device, stream);
	size_t at;
	for (uint32_t id = hindex_first(&o->by_key, h, &at); id;
	     id = hindex_next(&o->by_key, h, &at)) {
		struct lane *l = &o->lanes[id - 1];
		if (l->proc == proc && l->device == device && l->stream == stream)
			return l;
	}
	o->lanes = util_grow(o->lanes, &o->cap, o->n, sizeof(*o->lanes), 64);
	o->lanes[o->n++] = (struct lane){ .proc = proc, .device = device, .stream = stream,
					  .start = INT64_MIN, .end = INT64_MIN,
					  .before = INT64_MIN };
	hindex_add(&o->by_key, h, (uint32_t)o->n);
	return &o->lanes[o->n - 1];
}

/* A time from the trace start moved by `by`, kept on the axis (util/satarith.h), so that the
 * difference of two such times still fits. */
static int64_t moved(int64_t t, int64_t by, int64_t start)
{
	return sat_sub(time_axis(sat_add(sat_add(t, by), start)), start);
}

/* Moves a span later by `by`, its duration kept (unless it would leave the axis); counts the
 * move when it is larger than the timing's resolution. */
static void move(struct event *ev, int64_t by, int64_t start, uint64_t *count, int64_t *largest)
{
	ev->t0 = moved(ev->t0, by, start);
	ev->t1 = moved(ev->t1, by, start);
	if (by <= DEVORDER_RESOLUTION_NS)
		return;
	(*count)++;
	if (by > *largest)
		*largest = by;
}

/* Where on its stream a span no earlier than its launch goes: after the latest span there,
 * or, when it ran before that one (see above), between it and the span before it. */
static void place(struct devorder_totals *tot, struct lane *l, struct event *ev, uint32_t thread,
		  int64_t start)
{
	int64_t at = ev->t0, dur = sat_sub(ev->t1, ev->t0);
	int raced = 0;
	if (at < l->end && thread != l->thread && ev->t1 <= l->start) {
		int64_t a = at < l->before ? l->before : at;
		if (sat_add(a, dur) <= l->start) {
			at = a;
			raced = 1;
		}
	}
	if (!raced && at < l->end)
		at = l->end;
	if (at > ev->t0)
		move(ev, sat_sub(at, ev->t0), start, &tot->after_prev, &tot->after_prev_max);
	if (raced) {
		l->before = ev->t1;
		return;
	}
	l->before = l->end;
	l->start = ev->t0;
	l->end = ev->t1;
	l->thread = thread;
}

void devorder_add(struct pipeline *pl, struct event *ev)
{
	struct devorder_totals *tot = &pl->tr->devorder;
	const struct device_info *di = ev->dev;
	/* A launch time of 0 is none (a trace written without one). */
	if (di->op.launch_t0 && ev->t0 < di->launch_ns)
		move(ev, sat_sub(di->launch_ns, ev->t0), pl->tr->start_ns, &tot->to_launch,
		     &tot->to_launch_max);
	place(tot, lane_of(pl, ev->proc->index, di->op.device, di->op.stream), ev,
	      di->op.launch_stream, pl->tr->start_ns);
	int64_t end = time_axis(sat_add(ev->t1, pl->tr->start_ns));
	if (end > ev->proc->end_ns)
		ev->proc->end_ns = end;
	struct event orig = *ev;   /* the window may clip ev */
	emit_event(pl, ev);
	for (unsigned i = 0; i < pl->rts->n; i++)
		if (pl->rts->all[i]->pipe_device)
			pl->rts->all[i]->pipe_device(pl, &orig);
}

void devorder_finish(struct pipeline *pl)
{
	struct devorder *o = pl->devorder;
	if (!o)
		return;
	free(o->lanes);
	hindex_free(&o->by_key);
	free(o);
	pl->devorder = NULL;
}

void devorder_report(const struct trace *tr)
{
	const struct devorder_totals *t = &tr->devorder;
	char a[32], b[32];
	if (t->after_prev)
		diag_note("device spans: %llu moved later by more than 1 us (largest %s) so as not "
			  "to overlap the span before them on their stream; durations kept",
			  (unsigned long long)t->after_prev, fmt_dur(t->after_prev_max, a, 32));
	if (t->to_launch)
		diag_note("device spans: %llu moved later by more than 1 us (largest %s) so as not "
			  "to start before the call that launched them; durations kept",
			  (unsigned long long)t->to_launch, fmt_dur(t->to_launch_max, b, 32));
}
