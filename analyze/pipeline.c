/* pipeline.c — turns records, in time order, into output events: pairs range pushes with
 * pops on each thread, turns step marks into step intervals, applies the window, and hands
 * each event to every output.  Keeps only open ranges and open steps in memory. */
#include <stdlib.h>
#include <string.h>

#include "output.h"

static void emit(struct pipeline *pl, struct event *ev)
{
	const struct window *w = &pl->win;
	if (w->active) {
		/* A span belongs when it overlaps the window (touching an edge is not enough); an
		 * instant, or a span of no length, when it lies in [start, end). */
		int span = (ev->kind == EV_RANGE || ev->kind == EV_STEP) && ev->t1 > ev->t0;
		if (span ? ev->t1 <= w->start || ev->t0 >= w->end : ev->t0 < w->start || ev->t0 >= w->end)
			return;
		if (ev->t0 < w->start) {
			ev->t0 = w->start;
			ev->flags |= EVF_CLIPPED;
		}
		if ((ev->kind == EV_RANGE || ev->kind == EV_STEP) && ev->t1 > w->end) {
			ev->t1 = w->end;
			ev->flags |= EVF_CLIPPED;
		}
	}
	if (ev->thread)
		ev->thread->seen = 1;
	if (ev->kind == EV_STEP)
		ev->proc->had_steps = 1;
	ev->proc->events++;
	pl->tr->events++;
	for (int i = 0; i < pl->nouts; i++)
		pl->outs[i].ops->event(pl->outs[i].priv, ev);
}

static void push(struct thread *t, uint32_t name, int64_t ns)
{
	if (t->depth == t->cap) {
		size_t n = t->cap ? t->cap * 2 : 16;
		struct open_range *ns_ = realloc(t->stack, n * sizeof(*ns_));
		if (!ns_)
			abort();
		t->stack = ns_;
		t->cap = n;
	}
	/* A nested range never starts at its parent's nanosecond: viewers that sort by start
	 * time would otherwise be free to put the child outside its parent. */
	if (t->depth && ns <= t->stack[t->depth - 1].t0)
		ns = t->stack[t->depth - 1].t0 + 1;
	t->stack[t->depth++] = (struct open_range){ name, ns };
}

static void pop(struct pipeline *pl, struct thread *t, int64_t ns, unsigned flags)
{
	struct open_range *r = &t->stack[--t->depth];
	int64_t base = pl->tr->start_ns;
	struct event ev = {
		.kind = EV_RANGE, .flags = flags, .proc = t->proc, .thread = t, .name = r->name,
		.t0 = r->t0 - base, .t1 = (ns < r->t0 ? r->t0 : ns) - base, .depth = (uint32_t)t->depth,
	};
	emit(pl, &ev);
}

static void step_close(struct pipeline *pl, struct proc *p, int64_t ns, unsigned flags)
{
	if (!p->step.open)
		return;
	struct event ev = {
		.kind = EV_STEP, .flags = flags, .proc = p, .step = p->step.step,
		.t0 = p->step.t0 - pl->tr->start_ns, .t1 = (ns < p->step.t0 ? p->step.t0 : ns) - pl->tr->start_ns,
	};
	p->step.open = 0;
	emit(pl, &ev);
}

void pipeline_record(struct pipeline *pl, struct stream *s, const struct tprof_rec *r, int64_t ns)
{
	struct thread *t = s->thread;
	struct proc *p = s->proc;
	struct event ev = { .proc = p, .thread = t, .t0 = ns - pl->tr->start_ns };

	if (ns < t->first_ns)
		t->first_ns = ns;
	if (ns > t->last_ns)
		t->last_ns = ns;
	if (ns > p->end_ns)
		p->end_ns = ns;
	t->events++;
	switch (r->kind) {
	case TPROF_K_PUSH:
		push(t, proc_string(p, r->name), ns);
		return;
	case TPROF_K_POP:
		if (!t->depth) {
			pl->tr->unmatched_pops++;
			return;
		}
		pop(pl, t, ns, 0);
		return;
	case TPROF_K_MARK:
		ev.kind = EV_MARK;
		ev.name = proc_string(p, r->name);
		emit(pl, &ev);
		return;
	case TPROF_K_COUNTER:
		ev.kind = EV_COUNTER;
		ev.name = proc_string(p, r->name);
		memcpy(&ev.value, &r->arg, sizeof(ev.value));
		emit(pl, &ev);
		return;
	case TPROF_K_STEP:
		step_close(pl, p, ns, 0);
		p->step = (struct step_open){ .step = r->arg, .t0 = ns, .open = 1 };
		return;
	default:
		pl->tr->unknown_kinds++;
		return;
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
			while (t && t->depth)
				pop(pl, t, p->end_ns, EVF_UNFINISHED);
		}
		step_close(pl, p, p->end_ns, p->ended ? 0 : EVF_UNFINISHED);
		if (p->end_ns > tr->end_ns)
			tr->end_ns = p->end_ns;
	}
}
