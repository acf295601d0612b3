/* pipeline.c — turns records, in time order, into output events: pairs range pushes with
 * pops on each thread (by the level each carries: a range whose begin or end was lost, as a
 * GAP record says, is shown cut, never joined to another), turns step marks into step intervals, hands MPI calls and requests to
 * message matching and collective grouping (runtimes/mpi/pipe.c), device spans to be put in order on
 * their streams (devorder.c) and NCCL calls and collectives to cross-rank matching
 * (runtimes/nccl/coll.c), and hands each event through the window to every output (emit.c).  Keeps
 * only open ranges, open steps, each device stream's latest span and MPI and NCCL operations
 * in flight in memory.  A run of polls (POLL record) becomes one call with its counts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/xalloc.h"
#include "../util/grow.h"
#include "devorder.h"
#include "emit.h"
#include "runtime.h"

/* What is held open, at most: ranges open on a thread, calls of a thread that never
 * returned, ranges by id open in a process.  Past these a record is counted (skipped, beyond
 * the limits) instead of held, so that memory and the outputs' work follow what a trace can
 * show, not what a damaged or made-up stream claims. */
#define RANGE_DEPTH_MAX 4096
#define OPEN_CALLS_MAX 1024
#define ASYNC_OPEN_MAX 1024

static void push(struct pipeline *pl, struct thread *t, uint32_t name, int64_t ns, uint8_t source,
		 int32_t level)
{
	t->stack = util_grow(t->stack, &t->cap, t->depth, sizeof(*t->stack), 16);
	/* A nested range never starts at its parent's nanosecond: viewers that sort by start
	 * time would otherwise be free to put the child outside its parent. */
	if (t->depth && ns <= t->stack[t->depth - 1].t0)
		ns = t->stack[t->depth - 1].t0 + 1;
	t->stack[t->depth++] = (struct open_range){ name, ns, source, level };
	if (pl->want_begins) {
		/* One event for every start, its other fields left zero: no zeroing per range. */
		struct event *ev = &pl->begin;
		ev->kind = EV_BEGIN;
		ev->proc = t->proc;
		ev->thread = t;
		ev->name = name;
		ev->t0 = ns - pl->tr->start_ns;
		ev->depth = (uint32_t)t->depth - 1;
		ev->source = source;
		emit_aside(pl, ev);
	}
}

static void range_event(struct pipeline *pl, struct thread *t, uint32_t name, uint8_t source,
			int64_t t0, int64_t t1, uint32_t depth, unsigned flags)
{
	int64_t base = pl->tr->start_ns;
	struct event *ev = &pl->range;
	ev->kind = EV_RANGE;
	ev->flags = flags;
	ev->proc = t->proc;
	ev->thread = t;
	ev->name = name;
	ev->t0 = t0 - base;
	ev->t1 = (t1 < t0 ? t0 : t1) - base;
	ev->depth = depth;
	ev->source = source;
	emit_event(pl, ev);
}

/* The innermost open range ends at ns (flags: EVF_UNFINISHED, EVF_CUT_END). */
static void pop(struct pipeline *pl, struct thread *t, int64_t ns, unsigned flags)
{
	struct open_range *r = &t->stack[--t->depth];
	if (flags & EVF_CUT_END)
		pl->tr->cut_end++;
	range_event(pl, t, r->name, r->source, r->t0, ns, (uint32_t)t->depth, flags);
}

/* The innermost open range's end was lost: it ends where the latest loss began, if after its
 * start, else at ns (what came first after the loss). */
static void cut_top(struct pipeline *pl, struct thread *t, int64_t ns)
{
	const struct open_range *r = &t->stack[t->depth - 1];
	pop(pl, t, t->gaps && t->gap_ns >= r->t0 ? t->gap_ns : ns, EVF_CUT_END);
}

static uint32_t begin_lost_name;

/* A POP whose range's begin was lost: shown from where the latest loss of a range ended (it
 * was open from there at least). */
static void begin_lost(struct pipeline *pl, struct thread *t, int64_t ns, uint8_t source)
{
	if (!begin_lost_name)
		begin_lost_name = strings_add("(begin dropped)", 15);
	pl->tr->cut_begin++;
	int64_t from = t->gap_range_ns ? t->gap_range_ns : t->gap_ns;   /* after a GAP: set */
	int64_t t0 = from < ns ? from : ns;
	if (t->depth && t0 <= t->stack[t->depth - 1].t0)
		t0 = t->stack[t->depth - 1].t0 + 1;
	range_event(pl, t, begin_lost_name, source, t0, ns, (uint32_t)t->depth, EVF_CUT_BEGIN);
}

/* PUSH at `level` (-1: an older recorder's, without one): ranges still open at that level or
 * deeper lost their ends. */
static void on_push(struct pipeline *pl, struct thread *t, uint32_t name, int64_t ns,
		    uint8_t source, int32_t level)
{
	while (level >= 0 && t->depth && t->stack[t->depth - 1].level >= level)
		cut_top(pl, t, ns);
	push(pl, t, name, ns, source, level);
}

/* POP of the range at `level`: deeper ones still open lost their ends; none at that level
 * means its begin was lost (after a GAP record), or it was never recorded. */
static void on_pop(struct pipeline *pl, struct thread *t, int64_t ns, uint8_t source, int32_t level)
{
	if (level < 0) {                /* an older recorder's: the innermost closes */
		if (t->depth)
			pop(pl, t, ns, 0);
		else
			pl->tr->unmatched_pops++;
		return;
	}
	while (t->depth && t->stack[t->depth - 1].level > level)
		cut_top(pl, t, ns);
	if (t->depth && t->stack[t->depth - 1].level == level)
		pop(pl, t, ns, 0);
	else if (t->gaps)
		begin_lost(pl, t, ns, source);
	else
		pl->tr->unmatched_pops++;
}

/* A step open when its process's capture window closed ends there: what follows was not
 * recorded (read/capture.c).  A process's steps end in time order and its window's changes
 * are in time order, so a cursor passes each change once. */
static int64_t capture_closed_before(struct proc *p, int64_t t0, int64_t ns)
{
	size_t m = p->capture_seen;
	while (m < p->ncaptures && p->captures[m].ns < t0)
		m++;
	p->capture_seen = m;
	for (; m < p->ncaptures && p->captures[m].ns < ns; m++)
		if (!p->captures[m].on)
			return p->captures[m].ns;
	return ns;
}

static void step_close(struct pipeline *pl, struct proc *p, int64_t ns, unsigned flags)
{
	if (!p->step.open)
		return;
	ns = capture_closed_before(p, p->step.t0, ns);
	struct event ev = {
		.kind = EV_STEP, .flags = flags, .proc = p, .step = p->step.step,
		.t0 = p->step.t0 - pl->tr->start_ns, .t1 = (ns < p->step.t0 ? p->step.t0 : ns) - pl->tr->start_ns,
	};
	p->step.open = 0;
	emit_event(pl, &ev);
}

/* ---- API calls --------------------------------------------------------------------------- */

static void call_event(struct pipeline *pl, struct thread *t, uint32_t local_name, uint8_t domain,
		       uint64_t arg, const uint8_t *ext, unsigned next, int64_t t0, int64_t t1,
		       unsigned flags)
{
	struct proc *p = t->proc;
	struct call_info ci = { .domain = domain, .corr = arg & TPROF_CORR_MASK,
				.ret = (int)(uint16_t)(arg >> TPROF_CALL_RET_SHIFT) };
	int64_t base = pl->tr->start_ns;
	struct event ev = { .kind = EV_CALL, .flags = flags, .proc = p, .thread = t,
			    .name = proc_string(p, local_name), .t0 = t0 - base,
			    .t1 = (t1 < t0 ? t0 : t1) - base, .call = &ci };
	const struct runtime *rt = runtime_of_domain(pl->rts, domain);
	_Alignas(16) unsigned char scratch[RT_SCRATCH];
	if (ci.corr && t->frames_corr == ci.corr) {   /* its stack, written just before it */
		ci.stack = t->frames;
		ci.nstack = t->nframes;
		ci.caller = t->frames_caller;
	}
	if (rt && rt->pipe_call) {
		/* its own argument layout, decoded by its runtime */
		rt->pipe_call(pl, &ev, &ci, ext, next, scratch);
	} else {
		if (next >= 1) {
			memcpy(&ci.args, ext, sizeof(ci.args));
			ci.has_args = 1;
			ci.args.name = proc_string(p, ci.args.name);
		}
		if (next >= 2) {
			memcpy(&ci.dims, ext + TPROF_UNIT, sizeof(ci.dims));
			ci.has_dims = 1;
		}
	}
	struct event orig = ev;   /* the window may clip ev */
	emit_event(pl, &ev);
	if (rt && rt->pipe_called)
		rt->pipe_called(pl, &orig);
}

static void on_call(struct pipeline *pl, struct thread *t, const struct tprof_rec *r, int64_t ns)
{
	unsigned next = r->ext < 2 ? r->ext : 2;
	if (r->t1) {
		int64_t t1 = timebase_global(&t->proc->tb, r->t1,
					     &t->proc->streams[t->stream]->tb_cursor_t1);
		call_event(pl, t, r->name, r->flags, r->arg, (const uint8_t *)(r + 1), next, ns, t1, 0);
		if (t1 > t->last_ns)
			t->last_ns = t1;
		return;
	}
	/* It never returned: it ends where its process's data ends (pipeline_finish). */
	if (t->nopen_calls >= OPEN_CALLS_MAX) {
		pl->tr->over_limit++;
		return;
	}
	t->open_calls = util_grow(t->open_calls, &t->capopen_calls, t->nopen_calls,
				  sizeof(*t->open_calls), 4);
	struct open_call *c = &t->open_calls[t->nopen_calls++];
	c->name = r->name;
	c->t0 = ns;
	c->domain = r->flags;
	c->arg = r->arg;
	c->next = (uint8_t)next;
	memcpy(c->ext, r + 1, next * TPROF_UNIT);
}

/* A run of unsuccessful polls: one EV_CALL named after its functions ("MPI_Test", or
 * "MPI_Iprobe + MPI_Test" when several took turns), their counts and times in ns. */
static void on_poll(struct pipeline *pl, struct thread *t, const struct tprof_rec *r, int64_t ns)
{
	struct proc *p = t->proc;
	struct poll_info pi = { 0 };
	size_t cursor = 0;
	int64_t at = timebase_mono(&p->tb, r->t0, &cursor);
	const struct tprof_poll_fn *f = (const struct tprof_poll_fn *)(r + 1);
	for (unsigned i = 0; i < r->ext && i < TPROF_POLL_FNS; i++, f++) {
		struct poll_fn_info *o = &pi.fn[pi.n++];
		o->name = proc_string(p, f->name);
		o->count = f->count;
		/* the timed polls' time, for every poll (files written before: all timed) */
		uint64_t busy = f->timed && f->timed < f->count ?
			(uint64_t)((unsigned __int128)f->busy * f->count / f->timed) : f->busy;
		o->busy = sat_sub(timebase_mono(&p->tb, r->t0 + busy, &cursor), at);
		o->min = sat_sub(timebase_mono(&p->tb, r->t0 + f->min, &cursor), at);
		o->max = sat_sub(timebase_mono(&p->tb, r->t0 + f->max, &cursor), at);
		pi.polls += o->count;
		pi.busy = sat_add(pi.busy, o->busy);
	}
	if (!pi.n)
		return;
	int64_t t1 = timebase_global(&p->tb, r->t1, &p->streams[t->stream]->tb_cursor_t1);
	if (t1 < ns)
		t1 = ns;
	/* time in the calls, scaled from the timed ones, is no more than the run's span */
	if (pi.busy > t1 - ns) {
		pi.busy = t1 - ns;
		for (unsigned i = 0; i < pi.n; i++)
			if (pi.fn[i].busy > pi.busy)
				pi.fn[i].busy = pi.busy;
	}
	if (t1 > t->last_ns)
		t->last_ns = t1;
	struct call_info ci = { .domain = r->flags, .poll = &pi };
	int64_t base = pl->tr->start_ns;
	struct event ev = { .kind = EV_CALL, .proc = p, .thread = t, .t0 = ns - base,
			    .t1 = t1 - base, .call = &ci, .name = pi.fn[0].name };
	if (pi.n > 1) {
		char joined[256];
		size_t len = 0;
		for (unsigned i = 0; i < pi.n && len < sizeof(joined); i++) {
			const char *s = strings_get(pi.fn[i].name);
			len += (size_t)snprintf(joined + len, sizeof(joined) - len, "%s%s",
						i ? " + " : "", s ? s : "?");
		}
		ev.name = strings_add(joined, len < sizeof(joined) ? len : sizeof(joined) - 1);
	}
	emit_event(pl, &ev);
}

static void on_stack(struct thread *t, const struct tprof_rec *r)
{
	uint32_t n = r->t1 < MAX_STACK ? (uint32_t)r->t1 : MAX_STACK;
	if ((uint64_t)n * sizeof(uint32_t) > (uint64_t)r->ext * TPROF_UNIT)
		n = (uint32_t)(r->ext * TPROF_UNIT / sizeof(uint32_t));
	const uint32_t *ids = (const uint32_t *)(r + 1);
	if (!t->frames)
		t->frames = xmallocarray(MAX_STACK, sizeof(*t->frames));
	for (uint32_t i = 0; i < n; i++)
		t->frames[i] = proc_string(t->proc, ids[i]);
	t->nframes = n;
	t->frames_corr = r->arg & TPROF_CORR_MASK;
	t->frames_caller = r->name ? proc_string(t->proc, r->name) : 0;
}

/* ---- device work -------------------------------------------------------------------------- */

static void on_device(struct pipeline *pl, struct proc *p, const struct tprof_rec *r)
{
	if (r->ext < 3)
		return;
	struct device_info di = { .kind = r->flags, .corr = r->arg & TPROF_CORR_MASK };
	memcpy(&di.op, r + 1, sizeof(di.op));
	int64_t base = pl->tr->start_ns;
	size_t cursor = 0;
	di.op.caller = di.op.caller ? proc_string(p, di.op.caller) : 0;
	const struct stream *ls = proc_stream_find(p, di.op.launch_stream);
	di.launcher = ls ? p->threads[ls->index] : NULL;
	di.launch_ns = timebase_global(&p->tb, di.op.launch_t0, &cursor) - base;
	di.launch_kept = emit_kept(&pl->win, &(struct event){ .kind = EV_CALL, .t0 = di.launch_ns,
							       .t1 = di.launch_ns });
	int64_t t0 = timebase_global_mono(&p->tb, di.op.start_ns);
	int64_t t1 = timebase_global_mono(&p->tb, di.op.end_ns);
	if (t1 > p->end_ns)
		p->end_ns = t1;
	struct event ev = { .kind = EV_DEVICE, .proc = p, .name = proc_string(p, r->name),
			    .t0 = t0 - base, .t1 = (t1 < t0 ? t0 : t1) - base, .dev = &di };
	devorder_add(pl, &ev);   /* to the outputs, in order on its stream */
}

/* ---- ranges by id ------------------------------------------------------------------------- */

/* Open ranges by id: an array, and a map from each id to its oldest open range (a later one
 * of the same id, a "dup", is found by a search once the oldest has ended); made at the
 * process's first. */
static struct proc_asyncs *asyncs_of(struct proc *p)
{
	if (!p->asyncs)
		p->asyncs = xcalloc(1, sizeof(*p->asyncs));
	return p->asyncs;
}

static void async_begin(struct pipeline *pl, struct proc *p, struct thread *t, uint32_t name,
			uint64_t id, int64_t ns)
{
	struct proc_asyncs *as = asyncs_of(p);
	if (as->n >= ASYNC_OPEN_MAX) {
		as->over++;
		pl->tr->over_limit++;
		return;
	}
	as->v = util_grow(as->v, &as->cap, as->n, sizeof(*as->v), 16);
	int dup = u64map_get(&as->of, id) != NULL;
	if (dup)
		as->dups++;
	else
		u64map_put(&as->of, id, (uint32_t)as->n);
	as->v[as->n++] = (struct open_async){ id, name, ns, t, (uint8_t)dup };
}

/* Removes entry i (which the map names, when not a dup) and lets another of its id take its
 * place in the map. */
static void async_remove(struct proc_asyncs *as, size_t i)
{
	uint64_t id = as->v[i].id;
	int was_dup = as->v[i].dup;
	if (was_dup)
		as->dups--;
	else
		u64map_del(&as->of, id);
	size_t last = --as->n;
	if (i != last) {
		as->v[i] = as->v[last];
		if (!as->v[i].dup)
			u64map_put(&as->of, as->v[i].id, (uint32_t)i);
	}
	if (!was_dup && as->dups) {
		/* the next range of that id, in order of beginning: the earliest t0 */
		size_t best = SIZE_MAX;
		for (size_t k = 0; k < as->n; k++)
			if (as->v[k].dup && as->v[k].id == id &&
			    (best == SIZE_MAX || as->v[k].t0 < as->v[best].t0))
				best = k;
		if (best != SIZE_MAX) {
			as->v[best].dup = 0;
			as->dups--;
			u64map_put(&as->of, id, (uint32_t)best);
		}
	}
}

static void async_event(struct pipeline *pl, struct proc *p, const struct open_async *a,
			int64_t ns, unsigned flags)
{
	struct event ev = { .kind = EV_ASYNC, .flags = flags, .proc = p, .thread = a->thread,
			    .name = a->name, .step = a->id, .t0 = a->t0 - pl->tr->start_ns,
			    .t1 = (ns < a->t0 ? a->t0 : ns) - pl->tr->start_ns };
	emit_event(pl, &ev);
}

/* Range `id` ends at ns, on thread t (NULL: at the end of its process's data).  An end with
 * no begin is one whose begin was lost when a GAP record said an ABEGIN was. */
static void async_end(struct pipeline *pl, struct proc *p, struct thread *t, uint64_t id,
		      int64_t ns, unsigned flags)
{
	struct proc_asyncs *as = p->asyncs;
	uint32_t *at = as ? u64map_get(&as->of, id) : NULL;
	if (!at) {
		if (as && as->over) {
			as->over--;
			pl->tr->over_limit++;
		} else if (t && as && as->lost_abegins) {
			as->lost_abegins--;
			pl->tr->cut_begin++;
			if (!begin_lost_name)
				begin_lost_name = strings_add("(begin dropped)", 15);
			struct open_async a = { id, begin_lost_name,
						as->abegin_gap_ns < ns ? as->abegin_gap_ns : ns, t, 0 };
			async_event(pl, p, &a, ns, EVF_CUT_BEGIN);
		} else {
			pl->tr->unmatched_pops++;
		}
		return;
	}
	struct open_async a = as->v[*at];
	async_remove(as, *at);
	async_event(pl, p, &a, ns, flags);
}

/* At the end of p's data: ranges by id still open.  When GAP records said AEND records were
 * lost, those begun before the latest such loss are shown cut there (as many as were lost);
 * the others are unfinished. */
static void async_finish(struct pipeline *pl, struct proc *p)
{
	struct proc_asyncs *as = p->asyncs;
	while (as && as->n) {
		struct open_async a = as->v[--as->n];
		if (as->lost_aends && a.t0 <= as->aend_gap_ns) {
			as->lost_aends--;
			pl->tr->cut_end++;
			async_event(pl, p, &a, as->aend_gap_ns, EVF_CUT_END);
		} else {
			async_event(pl, p, &a, p->end_ns, EVF_UNFINISHED);
		}
	}
}

/* ---- records lost ------------------------------------------------------------------------- */

/* A GAP record: records of this thread were lost from ns on (until its t1).  Ranges at or
 * deeper than the lowest level a lost PUSH or POP touched lost their ends there (they are
 * shown up to where the loss began, the part known); the process's open step ended there when
 * a STEP was lost; lost ABEGIN and AEND records are noted for their ranges. */
static void on_gap(struct pipeline *pl, struct thread *t, const struct tprof_rec *r, int64_t ns)
{
	struct proc *p = t->proc;
	struct tprof_gap g;
	memset(&g, 0, sizeof(g));
	if (r->ext >= 1)
		memcpy(&g, r + 1, sizeof(g));
	t->gaps = 1;
	t->gap_ns = ns;
	t->gap_lost += r->arg;
	if (g.low) {
		int64_t until = timebase_global(&p->tb, r->t1, &p->streams[t->stream]->tb_cursor_t1);
		t->gap_range_ns = until > ns ? until : ns;
		while (t->depth && (int64_t)t->stack[t->depth - 1].level >= (int64_t)g.low - 1)
			cut_top(pl, t, ns);
	}
	if (g.abegins) {
		asyncs_of(p)->lost_abegins += g.abegins;
		p->asyncs->abegin_gap_ns = ns;
	}
	if (g.aends) {
		asyncs_of(p)->lost_aends += g.aends;
		p->asyncs->aend_gap_ns = ns;
	}
	if (g.steps && p->step.open) {
		pl->tr->cut_steps++;
		step_close(pl, p, ns, EVF_CUT_END);
	}
}

/* A mark or a counter sample.  Kept out of pipeline_record's common path: zeroing a whole
 * struct event for every record (ranges, calls) costs more than the rest of their handling. */
static __attribute__((noinline)) void instant(struct pipeline *pl, struct proc *p,
					      struct thread *t, enum ev_kind kind, uint32_t name,
					      uint8_t source, double value, int64_t ns)
{
	struct event *ev = &pl->instant;
	ev->kind = kind;
	ev->flags = 0;
	ev->proc = p;
	ev->thread = t;
	ev->name = name;
	ev->source = source;
	ev->value = value;
	ev->t0 = ns - pl->tr->start_ns;
	emit_event(pl, ev);
}

/* A PUSH's or POP's level (arg - 1), -1 when an older recorder wrote none. */
static inline int32_t level_of(uint64_t arg)
{
	return arg == 0 ? -1 : arg - 1 > INT32_MAX ? INT32_MAX : (int32_t)(arg - 1);
}

void pipeline_record(struct pipeline *pl, struct stream *s, const struct tprof_rec *r, int64_t ns)
{
	struct thread *t = s->thread;
	struct proc *p = s->proc;

	if (__builtin_expect(r->kind == TPROF_K_GAP, 0)) {
		on_gap(pl, t, r, ns);
		return;
	}
	if (ns < t->first_ns)
		t->first_ns = ns;
	if (ns > t->last_ns)
		t->last_ns = ns;
	if (ns > p->end_ns)
		p->end_ns = ns;
	t->events++;
	switch (r->kind) {
	case TPROF_K_PUSH:
		if (t->depth >= RANGE_DEPTH_MAX) {
			t->over++;
			pl->tr->over_limit++;
			return;
		}
		on_push(pl, t, proc_string(p, r->name), ns, r->flags, level_of(r->arg));
		return;
	case TPROF_K_POP:
		if (t->over) {
			t->over--;
			pl->tr->over_limit++;
			return;
		}
		on_pop(pl, t, ns, r->flags, level_of(r->arg));
		return;
	case TPROF_K_MARK:
		instant(pl, p, t, EV_MARK, proc_string(p, r->name), r->flags, 0.0, ns);
		return;
	case TPROF_K_CALL:
		on_call(pl, t, r, ns);
		return;
	case TPROF_K_DEVICE:
		on_device(pl, p, r);
		return;
	case TPROF_K_STACK:
		on_stack(t, r);
		return;
	case TPROF_K_POLL:
		on_poll(pl, t, r, ns);
		return;
	case TPROF_K_ABEGIN:
		async_begin(pl, p, t, proc_string(p, r->name), r->arg, ns);
		return;
	case TPROF_K_AEND:
		async_end(pl, p, t, r->arg, ns, 0);
		return;
	case TPROF_K_COUNTER: {
		double v;
		memcpy(&v, &r->arg, sizeof(v));
		instant(pl, p, t, EV_COUNTER, proc_string(p, r->name), 0, v, ns);
		return;
	}
	case TPROF_K_STEP:
		step_close(pl, p, ns, 0);
		if (!(r->flags & TPROF_STEP_END))
			p->step = (struct step_open){ .step = r->arg, .t0 = ns, .open = 1 };
		return;
	default: {
		const struct runtime *rt = runtime_of_record(pl->rts, r->kind);
		if (rt)
			rt->pipe_record(pl, t, r, ns);
		else
			pl->tr->unknown_kinds++;
		return;
	}
	}
}

/* Whatever is still open ends where its process's data ends. */
void pipeline_finish(struct pipeline *pl)
{
	struct trace *tr = pl->tr;
	for (size_t i = 0; i < tr->nprocs; i++) {
		struct proc *p = tr->procs[i];
		for (size_t s = 1; s < p->nstreams; s++) {
			struct thread *t = p->threads[s];
			/* Records lost after the last GAP record (none came after them): open
			 * ranges may have lost their ends there; shown up to the thread's last
			 * record, cut, rather than unfinished to the end of the process. */
			uint64_t lost = 0;
			for (int r = 1; t && r < 8; r++)
				lost += drops_of(t->drops)->count[r];
			while (t && t->depth && lost > t->gap_lost && t->stack[t->depth - 1].level >= 0)
				pop(pl, t, t->last_ns, EVF_CUT_END);
			while (t && t->depth)
				pop(pl, t, p->end_ns, EVF_UNFINISHED);
			for (size_t k = 0; t && k < t->nopen_calls; k++) {
				const struct open_call *c = &t->open_calls[k];
				call_event(pl, t, c->name, c->domain, c->arg, c->ext, c->next, c->t0,
					   p->end_ns, EVF_UNFINISHED);
			}
		}
		async_finish(pl, p);
		step_close(pl, p, p->end_ns, p->ended ? 0 : EVF_UNFINISHED);
		if (p->end_ns > tr->end_ns)
			tr->end_ns = p->end_ns;
	}
	for (unsigned i = 0; i < pl->rts->n; i++)
		if (pl->rts->all[i]->pipe_finish)
			pl->rts->all[i]->pipe_finish(pl);
	devorder_finish(pl);
	devorder_report(tr);
	if (tr->cut_begin || tr->cut_end || tr->cut_steps)
		diag_note("records dropped: %llu ranges shown with their begin dropped, %llu with their "
			  "end dropped, %llu steps ended where the next one's start was dropped",
			  (unsigned long long)tr->cut_begin, (unsigned long long)tr->cut_end,
			  (unsigned long long)tr->cut_steps);
}
