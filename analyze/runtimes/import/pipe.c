/* runtimes/import/pipe.c — the records of imported images into events.  IBEGIN and IEND nest
 * on their thread (the import wrote them so): each IEND closes the innermost slice as an
 * EV_RANGE with its depth, category and arguments; IMARK, ICOUNTER, IASYNC and IFLOW become
 * marks, counters, async ranges (b..e matched by id) and flow arrows (s, t, f by id).  The
 * records' bytes are copied while their slice or range is open. */
#include <stdlib.h>
#include <string.h>

#include "../../../common/events.h"
#include "../../../common/import.h"
#include "../../model/emit.h"
#include "../../read/impimage.h"
#include "../../read/trace.h"
#include "../../util/strings.h"
#include "import.h"
#include "../../util/grow.h"

struct imp_slice {
	uint32_t name;
	int64_t t0;                      /* global ns */
	struct imp_info info;
	uint8_t *bytes;                  /* info.args points in here */
};

struct thread_state {
	const struct thread *t;
	struct imp_slice *open;
	size_t depth, cap;
};

struct imp_async {
	uint64_t id;
	const struct proc *proc;
	struct thread *thread;
	uint32_t name;
	int64_t t0;
	struct imp_info info;
	uint8_t *bytes;
};

struct imp_flow {
	uint64_t id;
	const struct proc *proc;
	const struct thread *thread;
	int64_t ns;
	uint32_t name;
};

struct imp_state {
	struct thread_state *threads;
	size_t nthreads, capthreads, last;
	struct imp_async *asyncs;
	size_t nasyncs, capasyncs;
	struct imp_flow *flows;
	size_t nflows, capflows;
	uint64_t flow_ids;
};

static struct imp_state *state(struct pipeline *pl)
{
	if (!pl->imp && !(pl->imp = calloc(1, sizeof(*pl->imp))))
		abort();
	return pl->imp;
}

static struct thread_state *thread_state(struct imp_state *st, const struct thread *t)
{
	if (st->last < st->nthreads && st->threads[st->last].t == t)
		return &st->threads[st->last];
	for (size_t i = 0; i < st->nthreads; i++)
		if (st->threads[i].t == t)
			return &st->threads[st->last = i];
	st->threads = util_grow(st->threads, &st->capthreads, st->nthreads,
			 sizeof(*st->threads), 16);
	st->threads[st->nthreads] = (struct thread_state){ .t = t };
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
		if (!(*bytes = malloc(in.args_len)))
			abort();
		memcpy(*bytes, in.args, in.args_len);
		in.args = *bytes;
	}
	return in;
}

static void begin(struct pipeline *pl, struct thread *t, const struct tprof_rec *r, int64_t ns)
{
	struct thread_state *ts = thread_state(state(pl), t);
	ts->open = util_grow(ts->open, &ts->cap, ts->depth, sizeof(*ts->open), 16);
	/* as the profile's own ranges: a child never starts at its parent's nanosecond */
	if (ts->depth && ns <= ts->open[ts->depth - 1].t0)
		ns = ts->open[ts->depth - 1].t0 + 1;
	struct imp_slice *o = &ts->open[ts->depth++];
	o->name = proc_string(t->proc, r->name);
	o->t0 = ns;
	o->info = keep_info(info_of(t->proc, r), &o->bytes);
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
	free(o->bytes);
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

static struct imp_async *find_async(struct imp_state *st, const struct proc *p, uint64_t id)
{
	for (size_t i = st->nasyncs; i-- > 0;)
		if (st->asyncs[i].id == id && st->asyncs[i].proc == p)
			return &st->asyncs[i];
	return NULL;
}

static void async_end(struct pipeline *pl, struct imp_async *a, int64_t ns, unsigned flags)
{
	int64_t base = pl->tr->start_ns;
	struct event ev = { .kind = EV_ASYNC, .flags = flags, .proc = a->thread->proc,
			    .thread = a->thread, .name = a->name, .t0 = a->t0 - base,
			    .t1 = (ns < a->t0 ? a->t0 : ns) - base, .step = a->id, .imp = &a->info };
	emit_event(pl, &ev);
	free(a->bytes);
	struct imp_state *st = pl->imp;
	*a = st->asyncs[--st->nasyncs];
}

static void async(struct pipeline *pl, struct thread *t, const struct tprof_rec *r, int64_t ns)
{
	struct imp_state *st = state(pl);
	char ph = (char)r->flags;
	if (ph == 'b' || ph == 'S') {
		st->asyncs = util_grow(st->asyncs, &st->capasyncs, st->nasyncs,
				 sizeof(*st->asyncs), 16);
		struct imp_async *a = &st->asyncs[st->nasyncs++];
		a->id = r->arg;
		a->proc = t->proc;
		a->thread = t;
		a->name = proc_string(t->proc, r->name);
		a->t0 = ns;
		a->info = keep_info(info_of(t->proc, r), &a->bytes);
		return;
	}
	if (ph == 'e' || ph == 'F') {
		struct imp_async *a = find_async(st, t->proc, r->arg);
		if (a)
			async_end(pl, a, ns, 0);
		else
			pl->tr->unmatched_pops++;
		return;
	}
	mark(pl, t, r, ns);   /* n, T, p: a moment of the range, on the thread */
}

static void flow(struct pipeline *pl, struct thread *t, const struct tprof_rec *r, int64_t ns)
{
	struct imp_state *st = state(pl);
	char ph = (char)(r->flags & 0x7f);
	struct imp_flow *f = NULL;
	for (size_t i = 0; i < st->nflows; i++)
		if (st->flows[i].id == r->arg && st->flows[i].proc->host == t->proc->host) {
			f = &st->flows[i];
			break;
		}
	if (ph == 's') {
		if (!f) {
			st->flows = util_grow(st->flows, &st->capflows, st->nflows,
					 sizeof(*st->flows), 16);
			f = &st->flows[st->nflows++];
		}
		*f = (struct imp_flow){ r->arg, t->proc, t, ns, proc_string(t->proc, r->name) };
		return;
	}
	if (!f)
		return;   /* its start is not in the trace */
	struct imp_info in = info_of(t->proc, r);
	in.from = f->thread;
	in.flow_id = ++st->flow_ids;
	int64_t base = pl->tr->start_ns;
	struct event ev = { .kind = EV_FLOW, .proc = t->proc, .thread = t, .name = f->name,
			    .t0 = f->ns - base, .t1 = (ns < f->ns ? f->ns : ns) - base, .imp = &in };
	emit_derived(pl, &ev);
	if (ph == 't') {   /* a step: the arrow goes on from here */
		f->thread = t;
		f->proc = t->proc;
		f->ns = ns;
	} else {
		*f = st->flows[--st->nflows];
	}
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
	struct imp_state *st = pl->imp;
	if (!st)
		return;
	for (size_t i = 0; i < st->nthreads; i++) {
		struct thread_state *ts = &st->threads[i];
		struct thread *t = (struct thread *)ts->t;
		while (ts->depth)
			end(pl, t, t->proc->end_ns, 0, EVF_UNFINISHED);
		free(ts->open);
	}
	while (st->nasyncs) {
		struct imp_async *a = &st->asyncs[st->nasyncs - 1];
		async_end(pl, a, a->thread->proc->end_ns, EVF_UNFINISHED);
	}
	free(st->threads);
	free(st->asyncs);
	free(st->flows);
	free(st);
	pl->imp = NULL;
}
