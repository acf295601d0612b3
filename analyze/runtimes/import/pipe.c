/* runtimes/import/pipe.c — the records of imported images into events.  IBEGIN and IEND nest
 * on their thread (the import wrote them so): each IEND closes the innermost slice as an
 * EV_RANGE with its depth, category and arguments; IMARK, ICOUNTER, IASYNC and IFLOW become
 * marks, counters, async ranges (b..e matched by id) and flow arrows (s, t, f by id).  The
 * records' bytes are copied while their slice or range is open.
 *
 * Flows pair by id in time order, a start before an end at one time whatever the order the
 * threads' records come in at that time (Kineto's launch and its kernel often share their
 * microsecond); an end that comes first waits for a start of its time.  A start stays after
 * its first end: each later f of its id (Kineto's kernels of one graph launch, which share its
 * correlation) is an arrow from it too, until another start of the id replaces it.  An f without
 * "bp": "e" binds, as in Chrome and Perfetto, to the next slice begun on its thread (at its
 * time or later), and goes to that slice's start; s, t and the other ends bind to the slice
 * that encloses them, and stay inside it.  Threads, open async ranges and flows are
 * found through hash maps: a look costs the same whatever the file names.  What cannot be
 * paired is counted by cause (import/fixes.h). */
#include <stdlib.h>
#include <string.h>

#include "../../../common/events.h"
#include "../../../common/import-records.h"
#include "../../../common/xalloc.h"
#include "../../import/fixes.h"
#include "../../model/emit.h"
#include "../../read/import-image.h"
#include "../../read/trace.h"
#include "../../util/grow.h"
#include "../../util/strings.h"
#include "../../util/u64map.h"
#include "../../model/runtime.h"
#include "import.h"

struct imp_slice {
	uint32_t name;
	int64_t t0;                      /* global ns */
	int64_t at;                      /* its record's, before a nested start moved it */
	struct imp_info info;
	/* info.args points in here: the slot's own, kept for the next slice at its depth (a
	 * malloc and free per slice cost more than the copy) */
	uint8_t *bytes;
	uint32_t room;
};

struct thread_state {
	const struct thread *t;
	struct imp_slice *open;
	size_t depth, cap;
	uint32_t *waiting;               /* arrows whose end binds to the next slice begun here */
	size_t nwaiting, capwaiting;
};

/* An open async range, in a slot that stays its own until it ends (free slots are reused). */
struct imp_async {
	uint64_t key;
	uint64_t id;                     /* the record's (the event's "id" on the outputs) */
	uint32_t below;                  /* the slot of the same key open before it, +1; 0: none */
	int used;
	struct thread *thread;
	uint32_t name;
	int64_t t0;
	struct imp_info info;
	uint8_t *bytes;
};

/* One point of a flow: where it leaves or arrives. */
struct flow_point {
	const struct thread *thread;
	int64_t ns;                      /* where the arrow goes: inside its slice */
	int64_t at;                      /* its record's time */
	uint32_t name;
	struct imp_info info;            /* no args (flows carry none) */
};

/* What a flow id has open: a start waiting for its end; an end that came before any start of
 * its time, waiting for one (it may only pair with a start of the same nanosecond). */
struct imp_flow {
	uint64_t key;
	int has_start, has_end;
	int used;                        /* the start has had an end */
	struct flow_point start, end;
	char end_phase;
};

/* An end waiting for a start of its time: once time has passed it, it never gets one. */
struct wait {
	uint64_t key;
	int64_t at;
};

/* An arrow whose end waits for the next slice of its thread. */
struct arrow {
	struct event ev;
	struct imp_info in;
	struct thread_state *end;
};

struct imp_state {
	struct thread_state *threads;
	size_t nthreads, capthreads, last;
	struct u64map thread_of;         /* thread address -> index */
	struct imp_async *asyncs;
	size_t nasyncs, capasyncs;       /* slots */
	uint32_t *free_async;            /* slots free again */
	size_t nfree_async, capfree_async;
	struct u64map async_of;          /* key -> 1 + slot of the innermost open */
	struct imp_flow *flows;
	size_t nflows, capflows;
	struct u64map flow_of;           /* key -> index */
	struct wait *waits;              /* the ends waiting for a start, in time order */
	size_t nwaits, capwaits, wait_head;
	struct arrow *arrows;            /* waiting for their end's slice; done: ev.kind 0 */
	size_t narrows, caparrows, arrows_open;
	uint64_t flow_ids;
};

/* This runtime's state in the pipeline. */
static struct imp_state **slot(struct pipeline *pl)
{
	return (struct imp_state **)pipeline_state(pl, &runtime_import);
}

static struct imp_state *state(struct pipeline *pl)
{
	struct imp_state **s = slot(pl);
	if (!*s)
		*s = xcalloc(1, sizeof(**s));
	return *s;
}

static void fix(struct pipeline *pl, enum imp_fix cause, const struct thread *t,
		uint64_t offset)
{
	const struct import_image *im = t->proc->imp;
	if (pl->tr->imp_fixes)
		imp_fix(pl->tr->imp_fixes, cause, im ? im->source : 0, offset);
}

static struct thread_state *thread_state(struct imp_state *st, const struct thread *t)
{
	if (st->last < st->nthreads && st->threads[st->last].t == t)
		return &st->threads[st->last];
	uint32_t *v = u64map_get(&st->thread_of, (uint64_t)(uintptr_t)t);
	if (v)
		return &st->threads[st->last = *v];
	st->threads = util_grow(st->threads, &st->capthreads, st->nthreads,
				sizeof(*st->threads), 16);
	st->threads[st->nthreads] = (struct thread_state){ .t = t };
	u64map_put(&st->thread_of, (uint64_t)(uintptr_t)t, (uint32_t)st->nthreads);
	return &st->threads[st->last = st->nthreads++];
}

/* The head and args of a record, as an imp_info whose args point into r (valid while r is). */
static struct imp_info info_of(const struct proc *p, const struct tprof_rec *r)
{
	struct imp_info in = { .phase = (uint8_t)(r->flags & 0x7f) };
	struct tprof_imp_head h;
	if (r->ext < 1)
		return in;
	memcpy(&h, r + 1, sizeof(h));
	in.cat = proc_string(p, h.cat);
	in.id = proc_string(p, h.id);
	in.offset = h.offset;
	in.args_cut = !!(h.flags & TPROF_IMP_ARGS_CUT);
	in.is_step = !!(h.flags & TPROF_IMP_STEP);
	in.step = r->arg;
	size_t room = (size_t)(r->ext - 1) * TPROF_UNIT;
	in.args_len = h.args_len <= room ? h.args_len : (uint32_t)room;
	in.args = in.args_len ? (const uint8_t *)(r + 2) : NULL;
	return in;
}

/* The info with its args copied (freed with *bytes). */
static struct imp_info keep_info(struct imp_info in, uint8_t **bytes)
{
	*bytes = NULL;
	if (in.args_len) {
		*bytes = xmalloc(in.args_len);
		memcpy(*bytes, in.args, in.args_len);
		in.args = *bytes;
	}
	return in;
}

/* The info's args copied into a slot's own bytes, grown when too small (and kept); in place,
 * where a struct passed and returned by value was copied twice. */
static void keep_args_in(struct imp_info *in, uint8_t **bytes, uint32_t *room)
{
	if (in->args_len) {
		if (in->args_len > *room) {
			uint32_t n = in->args_len < 64 ? 64 : in->args_len;
			free(*bytes);
			*bytes = xmalloc(n);
			*room = n;
		}
		memcpy(*bytes, in->args, in->args_len);
		in->args = *bytes;
	}
}

/* ---- flows -------------------------------------------------------------------------------- */

static void emit_arrow(struct pipeline *pl, struct event *ev, struct imp_info *in)
{
	ev->imp = in;
	emit_derived(pl, ev);
}

/* The arrows waiting on ts's next slice go to t0 (global ns), the start of that slice. */
static void bind_waiting(struct pipeline *pl, struct imp_state *st, struct thread_state *ts,
			 int64_t t0)
{
	for (size_t i = 0; i < ts->nwaiting; i++) {
		struct arrow *a = &st->arrows[ts->waiting[i]];
		int64_t t1 = t0 - pl->tr->start_ns;
		a->ev.t1 = t1 < a->ev.t0 ? a->ev.t0 : t1;
		emit_arrow(pl, &a->ev, &a->in);
		a->ev.kind = 0;
		st->arrows_open--;
	}
	ts->nwaiting = 0;
	if (!st->arrows_open)
		st->narrows = 0;
}

/* An arrow from `from` to `to` (an end of phase ph, bound to its enclosing slice when bp_e,
 * else to the next slice begun on its thread). */
static void arrow(struct pipeline *pl, const struct flow_point *from, const struct flow_point *to,
		  int bp_e)
{
	struct imp_state *st = state(pl);
	int64_t base = pl->tr->start_ns;
	struct imp_info in = to->info;
	in.from = from->thread;
	in.flow_id = ++st->flow_ids;
	struct event ev = { .kind = EV_FLOW, .proc = to->thread->proc,
			    .thread = (struct thread *)to->thread, .name = from->name,
			    .t0 = from->ns - base,
			    .t1 = (to->ns < from->ns ? from->ns : to->ns) - base };
	if (bp_e) {
		emit_arrow(pl, &ev, &in);
		return;
	}
	struct thread_state *ts = thread_state(st, to->thread);
	st->arrows = util_grow(st->arrows, &st->caparrows, st->narrows, sizeof(*st->arrows), 16);
	st->arrows[st->narrows] = (struct arrow){ ev, in, ts };
	ts->waiting = util_grow(ts->waiting, &ts->capwaiting, ts->nwaiting, sizeof(*ts->waiting),
				4);
	ts->waiting[ts->nwaiting++] = (uint32_t)st->narrows++;
	st->arrows_open++;
}

/* A flow id's key: ids pair within one host. */
static uint64_t flow_key(const struct thread *t, uint64_t id)
{
	return id ^ ((uint64_t)t->proc->host * 0x9e3779b97f4a7c15ull);
}

static struct imp_flow *flow_entry(struct imp_state *st, uint64_t key, int make)
{
	uint32_t *v = u64map_get(&st->flow_of, key);
	if (v || !make)
		return v ? &st->flows[*v] : NULL;
	st->flows = util_grow(st->flows, &st->capflows, st->nflows, sizeof(*st->flows), 16);
	struct imp_flow *f = &st->flows[st->nflows];
	memset(f, 0, sizeof(*f));
	f->key = key;
	u64map_put(&st->flow_of, key, (uint32_t)st->nflows++);
	return f;
}

/* The entry goes once nothing waits on it (the last one moved into its place). */
static void flow_done(struct imp_state *st, struct imp_flow *f)
{
	if (f->has_start || f->has_end)
		return;
	size_t i = (size_t)(f - st->flows);
	u64map_del(&st->flow_of, f->key);
	if (i != --st->nflows) {
		st->flows[i] = st->flows[st->nflows];
		u64map_put(&st->flow_of, st->flows[i].key, (uint32_t)i);
	}
}

/* A point bound to the innermost slice open on its thread stays inside it: a nested slice that
 * began at its parent's nanosecond was started 1 ns later. */
static int64_t inside(struct thread_state *ts, int64_t ns)
{
	return ts->depth && ns < ts->open[ts->depth - 1].t0 ? ts->open[ts->depth - 1].t0 : ns;
}

/* The ends that waited for a start before ns: alone (counted), and forgotten. */
static void expire(struct pipeline *pl, struct imp_state *st, int64_t ns)
{
	while (st->wait_head < st->nwaits && st->waits[st->wait_head].at < ns) {
		const struct wait *w = &st->waits[st->wait_head++];
		struct imp_flow *f = flow_entry(st, w->key, 0);
		if (f && f->has_end && f->end.at == w->at) {
			fix(pl, IMP_FIX_FLOW_ALONE, f->end.thread, f->end.info.offset);
			f->has_end = 0;
			flow_done(st, f);
		}
	}
	if (st->wait_head == st->nwaits) {
		st->wait_head = st->nwaits = 0;
	} else if (st->wait_head > 1024 && st->wait_head * 2 > st->nwaits) {
		st->nwaits -= st->wait_head;
		memmove(st->waits, st->waits + st->wait_head, st->nwaits * sizeof(*st->waits));
		st->wait_head = 0;
	}
}

static void flow(struct pipeline *pl, struct thread *t, const struct tprof_rec *r, int64_t ns)
{
	struct imp_state *st = state(pl);
	expire(pl, st, ns);
	char ph = (char)(r->flags & 0x7f);
	/* s and t bind to their enclosing slice; f too with "bp": "e" */
	int bp_e = ph != 'f' || (r->flags & TPROF_IMP_BIND_ENCLOSING);
	struct thread_state *ts = thread_state(st, t);
	/* the next slice begun at its own time came first (begins before the rest): that one */
	if (!bp_e && ts->depth && ts->open[ts->depth - 1].at == ns)
		bp_e = 1;
	struct flow_point here = { t, inside(ts, ns), ns, proc_string(t->proc, r->name),
				   info_of(t->proc, r) };
	here.info.args = NULL;
	here.info.args_len = 0;
	struct imp_flow *f = flow_entry(st, flow_key(t, r->arg), 1);
	if (ph == 's') {
		int paired = 0;
		if (f->has_end && f->end.at == ns) {
			/* its end came first at this same time: a start before an end */
			arrow(pl, &here, &f->end, f->end_phase & 0x80);
			paired = 1;
		} else if (f->has_end) {
			fix(pl, IMP_FIX_FLOW_ALONE, f->end.thread, f->end.info.offset);
		}
		f->has_end = 0;
		if (paired && f->has_start && !f->used)
			;       /* the end was a step: it goes on from there */
		else if (!paired) {
			if (f->has_start && !f->used)
				fix(pl, IMP_FIX_FLOW_AGAIN, f->start.thread, f->start.info.offset);
			f->start = here;
			f->has_start = 1;
			f->used = 0;
		} else {        /* an f: its start stays for the ends after it */
			f->start = here;
			f->has_start = 1;
			f->used = 1;
		}
		flow_done(st, f);
		return;
	}
	/* f or t: an end (and t a start again) */
	if (f->has_start) {
		arrow(pl, &f->start, &here, bp_e);
		f->used = 1;
	} else {
		if (f->has_end)
			fix(pl, IMP_FIX_FLOW_ALONE, f->end.thread, f->end.info.offset);
		f->end = here;
		f->end_phase = (char)(ph | (bp_e ? 0x80 : 0));
		f->has_end = 1;
		st->waits = util_grow(st->waits, &st->capwaits, st->nwaits, sizeof(*st->waits), 16);
		st->waits[st->nwaits++] = (struct wait){ f->key, ns };
	}
	if (ph == 't') {        /* a step: the arrow goes on from here */
		f->start = here;
		f->has_start = 1;
		f->used = 0;
	}
	flow_done(st, f);
}

/* ---- slices, marks, counters, async ranges ------------------------------------------------ */

static void begin(struct pipeline *pl, struct thread *t, const struct tprof_rec *r, int64_t ns)
{
	struct imp_state *st = state(pl);
	struct thread_state *ts = thread_state(st, t);
	/* new slots zeroed: no bytes yet */
	ts->open = util_grow_index(ts->open, &ts->cap, ts->depth, sizeof(*ts->open), 1, 0);
	struct imp_slice *o = &ts->open[ts->depth++];
	int64_t at = ns;
	o->info = info_of(t->proc, r);
	keep_args_in(&o->info, &o->bytes, &o->room);
	/* as the profile's own ranges: a child never starts at its parent's nanosecond */
	if (ts->depth > 1 && ns <= ts->open[ts->depth - 2].t0) {
		ns = ts->open[ts->depth - 2].t0 + 1;
		fix(pl, IMP_FIX_NESTED_START, t, o->info.offset);
	}
	o->name = proc_string(t->proc, r->name);
	o->at = at;
	o->t0 = ns;
	if (ts->nwaiting)
		bind_waiting(pl, st, ts, ns);
	if (pl->want_begins) {
		struct event ev = { .kind = EV_BEGIN, .proc = t->proc, .thread = t, .name = o->name,
				    .t0 = ns - pl->tr->start_ns, .depth = (uint32_t)ts->depth - 1,
				    .imp = &o->info };
		emit_aside(pl, &ev);
	}
}

static void end(struct pipeline *pl, struct thread *t, int64_t ns, unsigned clipped,
		unsigned flags)
{
	struct thread_state *ts = thread_state(state(pl), t);
	if (!ts->depth) {
		pl->tr->unmatched_pops++;
		return;
	}
	struct imp_slice *o = &ts->open[--ts->depth];
	o->info.clipped = (uint8_t)clipped;
	int64_t base = pl->tr->start_ns;
	struct event ev = { .kind = EV_RANGE, .flags = flags, .proc = t->proc, .thread = t,
			    .name = o->name, .t0 = o->t0 - base,
			    .t1 = (ns < o->t0 ? o->t0 : ns) - base, .depth = (uint32_t)ts->depth,
			    .imp = &o->info };
	emit_event(pl, &ev);
	/* A step of a process the profile did not record is a step of its own (the recorded
	 * one's are tprof's, to which the import aligned it). */
	if (o->info.is_step && !(t->proc->imp && t->proc->imp->home)) {
		struct event st = { .kind = EV_STEP, .flags = flags, .proc = t->proc,
				    .step = o->info.step, .t0 = ev.t0, .t1 = ev.t1 };
		emit_event(pl, &st);
		t->proc->had_steps = 1;
	}
}

static void mark(struct pipeline *pl, struct thread *t, const struct tprof_rec *r, int64_t ns)
{
	struct imp_info in = info_of(t->proc, r);
	/* depth: the imported slices open on the thread around it */
	struct event ev = { .kind = EV_MARK, .proc = t->proc, .thread = t,
			    .name = proc_string(t->proc, r->name), .t0 = ns - pl->tr->start_ns,
			    .depth = (uint32_t)thread_state(state(pl), t)->depth, .imp = &in };
	ev.t1 = ev.t0;
	emit_event(pl, &ev);
}

static void counter(struct pipeline *pl, struct thread *t, const struct tprof_rec *r, int64_t ns)
{
	double v;
	memcpy(&v, &r->arg, sizeof(v));
	struct imp_info in = info_of(t->proc, r);
	struct event ev = { .kind = EV_COUNTER, .proc = t->proc, .thread = t,
			    .name = proc_string(t->proc, r->name), .t0 = ns - pl->tr->start_ns,
			    .value = v, .imp = &in };
	emit_event(pl, &ev);
}

/* Async ranges pair by (process, id); one opened again before it ends nests. */
static uint64_t async_key(const struct proc *p, uint64_t id)
{
	return id ^ ((uint64_t)(uintptr_t)p * 0x9e3779b97f4a7c15ull);
}

static void async_end(struct pipeline *pl, struct imp_async *a, int64_t ns, unsigned flags)
{
	struct imp_state *st = *slot(pl);
	int64_t base = pl->tr->start_ns;
	struct event ev = { .kind = EV_ASYNC, .flags = flags, .proc = a->thread->proc,
			    .thread = a->thread, .name = a->name, .t0 = a->t0 - base,
			    .t1 = (ns < a->t0 ? a->t0 : ns) - base, .step = a->id, .imp = &a->info };
	emit_event(pl, &ev);
	free(a->bytes);
	if (a->below)
		u64map_put(&st->async_of, a->key, a->below);
	else
		u64map_del(&st->async_of, a->key);
	a->used = 0;
	st->free_async = util_grow(st->free_async, &st->capfree_async, st->nfree_async,
				   sizeof(*st->free_async), 16);
	st->free_async[st->nfree_async++] = (uint32_t)(a - st->asyncs);
}

static void async(struct pipeline *pl, struct thread *t, const struct tprof_rec *r, int64_t ns)
{
	struct imp_state *st = state(pl);
	char ph = (char)r->flags;
	uint64_t key = async_key(t->proc, r->arg);
	if (ph == 'b' || ph == 'S') {
		size_t slot;
		if (st->nfree_async) {
			slot = st->free_async[--st->nfree_async];
		} else {
			st->asyncs = util_grow(st->asyncs, &st->capasyncs, st->nasyncs,
					       sizeof(*st->asyncs), 16);
			slot = st->nasyncs++;
		}
		struct imp_async *a = &st->asyncs[slot];
		uint32_t *top = u64map_get(&st->async_of, key);
		a->key = key;
		a->id = r->arg;
		a->below = top ? *top : 0;
		a->used = 1;
		a->thread = t;
		a->name = proc_string(t->proc, r->name);
		a->t0 = ns;
		a->info = keep_info(info_of(t->proc, r), &a->bytes);
		u64map_put(&st->async_of, key, (uint32_t)slot + 1);
		return;
	}
	if (ph == 'e' || ph == 'F') {
		uint32_t *top = u64map_get(&st->async_of, key);
		if (top)
			async_end(pl, &st->asyncs[*top - 1], ns, 0);
		else
			fix(pl, IMP_FIX_ASYNC_ALONE, t, info_of(t->proc, r).offset);
		return;
	}
	mark(pl, t, r, ns);   /* n, T, p: a moment of the range, on the thread */
}

void imp_pipe_record(struct pipeline *pl, struct thread *t, const struct tprof_rec *r, int64_t ns)
{
	switch (r->kind) {
	case TPROF_K_IBEGIN:
		begin(pl, t, r, ns);
		break;
	case TPROF_K_IEND:
		end(pl, t, ns, r->flags & TPROF_IMP_CLIPPED, 0);
		break;
	case TPROF_K_IMARK:
		mark(pl, t, r, ns);
		break;
	case TPROF_K_ICOUNTER:
		counter(pl, t, r, ns);
		break;
	case TPROF_K_IASYNC:
		async(pl, t, r, ns);
		break;
	case TPROF_K_IFLOW:
		flow(pl, t, r, ns);
		break;
	default:
		break;
	}
}

void imp_pipe_finish(struct pipeline *pl)
{
	struct imp_state *st = *slot(pl);
	if (!st)
		return;
	for (size_t i = 0; i < st->nthreads; i++) {
		struct thread_state *ts = &st->threads[i];
		struct thread *t = (struct thread *)ts->t;
		while (ts->depth)
			end(pl, t, t->proc->end_ns, 0, EVF_UNFINISHED);
		for (size_t k = 0; k < ts->cap; k++)
			free(ts->open[k].bytes);
		free(ts->open);
	}
	/* arrows whose end no slice came after: where the end is */
	for (size_t i = 0; i < st->narrows; i++)
		if (st->arrows[i].ev.kind)
			emit_arrow(pl, &st->arrows[i].ev, &st->arrows[i].in);
	for (size_t i = 0; i < st->nthreads; i++)
		free(st->threads[i].waiting);
	for (size_t i = st->nasyncs; i-- > 0;) {
		struct imp_async *a = &st->asyncs[i];
		if (!a->used)
			continue;
		fix(pl, IMP_FIX_ASYNC_OPEN, a->thread, a->info.offset);
		async_end(pl, a, a->thread->proc->end_ns, EVF_UNFINISHED);
	}
	for (size_t i = 0; i < st->nflows; i++) {
		const struct imp_flow *f = &st->flows[i];
		if (f->has_start && !f->used)
			fix(pl, IMP_FIX_FLOW_OPEN, f->start.thread, f->start.info.offset);
		if (f->has_end)
			fix(pl, IMP_FIX_FLOW_ALONE, f->end.thread, f->end.info.offset);
	}
	u64map_free(&st->thread_of);
	u64map_free(&st->async_of);
	u64map_free(&st->flow_of);
	free(st->threads);
	free(st->asyncs);
	free(st->free_async);
	free(st->flows);
	free(st->waits);
	free(st->arrows);
	free(st);
	*slot(pl) = NULL;
}
