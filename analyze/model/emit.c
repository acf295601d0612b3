/* emit.c — hands events to every output.  The pipeline's own events go through the window
 * (dropped outside it, clipped at its edges) and are counted on their process and thread;
 * messages and collectives, which matching and grouping (runtimes/mpi/match.c, runtimes/mpi/coll.c) derive
 * from several calls, are kept or dropped by a rule of their own; announcements pass as they
 * are.  Kept out of the pipeline, so that the stages the pipeline drives (runtimes/mpi/pipe.c and
 * below) hand the outputs what they find without calling back up into it. */
#include "emit.h"

/* Kinds whose span the window clips (the others keep their times: only their start counts). */
static int emit_clipped_kind(int kind)
{
	return kind == EV_RANGE || kind == EV_STEP || kind == EV_STATE;
}

int emit_kept(const struct window *w, const struct event *ev)
{
	if (!w->active)
		return 1;
	/* A span belongs when it overlaps the window (touching an edge is not enough); an
	 * instant, or a span of no length, when it lies in [start, end). */
	int span = emit_clipped_kind(ev->kind) && ev->t1 > ev->t0;
	return span ? ev->t1 > w->start && ev->t0 < w->end : ev->t0 >= w->start && ev->t0 < w->end;
}

/* An event of the pipeline's own: kept and clipped by the window, then counted. */
void emit_event(struct pipeline *pl, struct event *ev)
{
	const struct window *w = &pl->win;
	if (w->active) {
		if (!emit_kept(w, ev))
			return;
		int clip = emit_clipped_kind(ev->kind);
		if (ev->t0 < w->start) {
			ev->t0 = w->start;
			ev->flags |= EVF_CLIPPED;
		}
		if (clip && ev->t1 > w->end) {
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

/* Messages and collectives: kept when the message's receive completed in the window, or
 * when the collective overlaps it; not clipped (their parts' times stay as they were), not
 * counted as events. */
void emit_derived(struct pipeline *pl, struct event *ev)
{
	const struct window *w = &pl->win;
	if (w->active) {
		if (ev->kind == EV_MESSAGE || ev->kind == EV_RMA
			    ? ev->t1 < w->start || ev->t1 >= w->end
		    : ev->t1 > ev->t0 ? ev->t1 <= w->start || ev->t0 >= w->end
				      : ev->t0 < w->start || ev->t0 >= w->end)
			return;
	}
	for (int i = 0; i < pl->nouts; i++)
		pl->outs[i].ops->event(pl->outs[i].priv, ev);
}

/* Events derived from others or only announcing one (EV_BEGIN): handed to the outputs as
 * they are, neither windowed nor counted; each output decides what to make of them. */
void emit_aside(struct pipeline *pl, const struct event *ev)
{
	for (int i = 0; i < pl->nouts; i++)
		pl->outs[i].ops->event(pl->outs[i].priv, ev);
}
