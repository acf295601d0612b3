/* render/otf2/loc.c — the locations of the OTF2 archive and the records written on them.  A
 * track of the scene becomes a location the first time an item is drawn on it (a thread's,
 * a device stream's, a NeuronCore lane's, as tracks_info says); a process's steps, counters
 * and ranges across threads get locations of their own.  A location keeps what it still
 * owes (a thread's open regions and the MPI completions waiting for their call, the slices of
 * other tracks waiting to be put in start order) until the end of the output frees it.
 * Records: times that never go back on a location, Enter and Leave.  Below the item writers
 * and the definition writers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../common/xalloc.h"
#include "../../util/grow.h"
#include "../../util/u64map.h"
#include "../../parallel/par.h"
#include "state.h"

/* ---- locations ---------------------------------------------------------------------------- */

/* A process's state: at its place in the trace's list, which is its number less one in one
 * analysis process (under --parallel the numbers are the job's). */
struct pstate *otf2_pstate(struct otf2 *o, const struct proc *p)
{
	size_t i = (size_t)p->index - 1;
	if (i < o->nprocs && o->tr->procs[i] == p)
		return &o->ps[i];
	return &o->ps[*u64map_get(&o->ps_of, (uint64_t)p->index)];
}

void otf2_locs_new(struct otf2 *o, const struct trace *tr)
{
	o->nprocs = tr->nprocs;
	o->ps = xcalloc(tr->nprocs ? tr->nprocs : 1, sizeof(*o->ps));
	for (size_t i = 0; i < tr->nprocs; i++) {
		const struct proc *p = tr->procs[i];
		u64map_put(&o->ps_of, (uint64_t)p->index, (uint32_t)i);
		struct pstate *ps = &o->ps[i];
		ps->nthreads = p->nstreams;
		ps->threads = xcalloc(p->nstreams ? p->nstreams : 1, sizeof(*ps->threads));
	}
}

struct loc *otf2_loc_new(struct otf2 *o, enum loc_kind kind, const struct proc *p)
{
	struct loc *l = xcalloc(1, sizeof(*l));
	o->locs = util_grow(o->locs, &o->caplocs, o->nlocs, sizeof(*o->locs), 64);
	l->id = o->nlocs;
	l->ref = (OTF2_LocationRef)o->nlocs * (OTF2_LocationRef)par_size() + (OTF2_LocationRef)par_rank();
	o->locs[o->nlocs++] = l;
	l->kind = kind;
	l->proc = p;
	return l;
}

static void loc_free(struct loc *l)
{
	for (size_t i = 0; i < l->depth; i++)
		otf2_saved_free(&l->stack[i].leave);
	for (size_t i = 0; i < l->nheap; i++)
		otf2_saved_free(&l->heap[i].enter);
	free(l->stack);
	free(l->held);
	free(l->heap);
	free(l->holds);
	free(l->kept);
	free(l->name);
	free(l);
}

void otf2_locs_free(struct otf2 *o)
{
	for (size_t i = 0; i < o->nlocs; i++)
		loc_free(o->locs[i]);
	free(o->locs);
	hindex_free(&o->locs_by_track);
	for (size_t i = 0; i < o->nprocs; i++) {
		free(o->ps[i].threads);
		free(o->ps[i].lanes);
		free(o->ps[i].devs);
		free(o->ps[i].ncs);
		free(o->ps[i].others);
	}
	free(o->ps);
	u64map_free(&o->ps_of);
	free(o->rank_refs);
}

/* ---- tracks ------------------------------------------------------------------------------- */

static struct loc *track_find(struct otf2 *o, struct track t)
{
	uint64_t h = tracks_hash(t);
	size_t at;
	for (uint32_t id = hindex_first(&o->locs_by_track, h, &at); id;
	     id = hindex_next(&o->locs_by_track, h, &at)) {
		struct loc *l = o->locs[id - 1];
		if (l->track.pid == t.pid && l->track.tid == t.tid)
			return l;
	}
	return NULL;
}

static void append(struct loc ***v, size_t *n, struct loc *l)
{
	*v = xreallocarray(*v, *n + 1, sizeof(**v));
	(*v)[(*n)++] = l;
}

/* A location for a track seen the first time, of the kind the track is. */
static struct loc *track_new(struct otf2 *o, const struct scene_item *it)
{
	struct track_info ti;
	struct pstate *ps = otf2_pstate(o, it->proc);
	struct loc *l;
	if (tracks_info(o->tracks, it->track, &ti) < 0) {
		l = otf2_loc_new(o, LOC_OTHER, it->proc);
		append(&ps->others, &ps->nothers, l);
	} else if (!strcmp(ti.kind, "thread")) {
		const struct thread *th = ti.thread;
		if (th->stream >= ps->nthreads)
			return NULL;
		l = otf2_loc_new(o, LOC_THREAD, it->proc);
		l->th = th;
		ps->threads[th->stream] = l;
	} else if (!strcmp(ti.kind, "device")) {
		l = otf2_loc_new(o, LOC_DEVICE, it->proc);
		l->device = (uint32_t)ti.device;
		append(&ps->devs, &ps->ndevs, l);
	} else if (!strcmp(ti.kind, "neuroncore")) {
		l = otf2_loc_new(o, LOC_NEURONCORE, it->proc);
		l->device = (uint32_t)ti.device;
		append(&ps->ncs, &ps->nncs, l);
	} else {
		l = otf2_loc_new(o, LOC_OTHER, it->proc);
		append(&ps->others, &ps->nothers, l);
	}
	l->track = it->track;
	hindex_add(&o->locs_by_track, tracks_hash(l->track), (uint32_t)l->id + 1);
	return l;
}

struct loc *otf2_track_loc(struct otf2 *o, const struct scene_item *it)
{
	struct loc *l = o->last_loc;
	if (l && l->track.pid == it->track.pid && l->track.tid == it->track.tid)
		return l;
	if ((l = track_find(o, it->track)))
		return o->last_loc = l;
	return o->last_loc = track_new(o, it);
}

static void name_track(void *ctx, const char *what, int64_t pid, int64_t tid, const char *key,
		       const char *s, int64_t num)
{
	struct otf2 *o = ctx;
	(void)key, (void)num;
	if (strcmp(what, "thread_name"))
		return;
	struct loc *l = track_find(o, (struct track){ pid, tid });
	if (l && !l->name)
		l->name = xstrdup(s);
}

void otf2_locs_name(struct otf2 *o)
{
	tracks_metadata(o->tracks, o->tr, name_track, o);
}

/* ---- records ------------------------------------------------------------------------------ */

/* OTF2 wants each location's times never to go back: a record due before the latest one
 * written there is written at that latest time. */
OTF2_TimeStamp otf2_time(struct otf2 *o, struct loc *l, int64_t t)
{
	if (t < l->last)
		t = l->last;
	l->last = t;
	if (t > o->max_t)
		o->max_t = t;
	/* realtime ns, never below 0 (OTF2's are unsigned: a trace made to start before 1970
	 * must not wrap around) */
	int64_t abs = sat_add(o->tr->start_ns, t);
	return abs > 0 ? (OTF2_TimeStamp)abs : 0;
}

void otf2_enter(struct otf2 *o, struct loc *l, int64_t t, OTF2_RegionRef r)
{
	struct rec rec = { .kind = REC_ENTER, .ts = otf2_time(o, l, t), .u.region = r };
	otf2_record(o, l, &rec);
}

void otf2_leave(struct otf2 *o, struct loc *l, int64_t t, OTF2_RegionRef r)
{
	struct rec rec = { .kind = REC_LEAVE, .ts = otf2_time(o, l, t), .u.region = r };
	otf2_record(o, l, &rec);
}

/* Calls are cut at the window's end, so that they nest in the ranges the window cut there. */
int64_t otf2_call_end(struct otf2 *o, const struct scene_item *it, int *clipped)
{
	int64_t t1 = it->t1 < it->t0 ? it->t0 : it->t1;
	*clipped = 0;
	if (o->win->active && t1 > o->win->end && it->ev && it->ev->kind == EV_CALL) {
		t1 = o->win->end > it->t0 ? o->win->end : it->t0;
		*clipped = 1;
	}
	return t1;
}
