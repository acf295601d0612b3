/* render/otf2/loc.c — the locations of the OTF2 archive and the records every kind of event
 * writes on them.  A location is made with its event writer the first time something goes
 * there; it keeps what it still owes (a host thread's open regions and the MPI completions
 * waiting for their call, a device stream's work waiting to be put in start order) until
 * the end of the output frees it.  Records: times that never go back on a location, Enter
 * and Leave, and the attributes that go with the next record written.  Below the event
 * writers and the definition writers; above the definitions registry (render/otf2/defs.c),
 * whose attribute and string refs the attributes name. */
#include <stdio.h>
#include <stdlib.h>

#include "../../runtimes/nrt/nrt.h"
#include "state.h"

/* ---- locations ---------------------------------------------------------------------------- */

struct pstate *otf2_pstate(struct otf2 *o, const struct proc *p)
{
	return &o->ps[p->index - 1];
}

void otf2_locs_new(struct otf2 *o, const struct trace *tr)
{
	o->nprocs = tr->nprocs;
	o->ps = calloc(tr->nprocs ? tr->nprocs : 1, sizeof(*o->ps));
	if (!o->ps)
		abort();
	for (size_t i = 0; i < tr->nprocs; i++) {
		const struct proc *p = tr->procs[i];
		struct pstate *ps = otf2_pstate(o, p);
		ps->nthreads = p->nstreams;
		ps->threads = calloc(p->nstreams ? p->nstreams : 1, sizeof(*ps->threads));
		if (!ps->threads)
			abort();
	}
}

struct loc *otf2_loc_new(struct otf2 *o, enum loc_kind kind, struct proc *p)
{
	struct loc *l = calloc(1, sizeof(*l));
	if (!l)
		abort();
	if (o->nlocs == o->caplocs) {
		o->caplocs = o->caplocs ? o->caplocs * 2 : 64;
		o->locs = realloc(o->locs, o->caplocs * sizeof(*o->locs));
		if (!o->locs)
			abort();
	}
	l->id = o->nlocs;
	o->locs[o->nlocs++] = l;
	l->kind = kind;
	l->proc = p;
	l->w = OTF2_Archive_GetEvtWriter(o->ar, l->id);
	if (!l->w && !o->failed) {
		diag_error("writing the OTF2 archive in %s: no event writer for location %llu", o->dir,
			   (unsigned long long)l->id);
		o->failed = 1;
	}
	return l;
}

static void loc_free(struct loc *l)
{
	free(l->stack);
	free(l->held);
	free(l->heap);
	free(l);
}

void otf2_locs_free(struct otf2 *o)
{
	for (size_t i = 0; i < o->nlocs; i++)
		loc_free(o->locs[i]);
	free(o->locs);
	for (size_t i = 0; i < o->nprocs; i++) {
		free(o->ps[i].threads);
		free(o->ps[i].lanes);
		free(o->ps[i].devs);
		free(o->ps[i].ncs);
	}
	free(o->ps);
	free(o->rank_locs);
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
	return (OTF2_TimeStamp)o->tr->start_ns + (OTF2_TimeStamp)t;
}

void otf2_enter(struct otf2 *o, struct loc *l, int64_t t, OTF2_RegionRef r)
{
	if (!o->failed)
		otf2_check(o, OTF2_EvtWriter_Enter(l->w, o->attrs, otf2_time(o, l, t), r));
}

void otf2_leave(struct otf2 *o, struct loc *l, int64_t t, OTF2_RegionRef r)
{
	if (!o->failed)
		otf2_check(o, OTF2_EvtWriter_Leave(l->w, o->attrs, otf2_time(o, l, t), r));
}

/* ---- attributes --------------------------------------------------------------------------- */

/* Attributes go with the next record written, which empties the list. */
void otf2_attr_flags(struct otf2 *o, unsigned flags)
{
	if (flags & EVF_UNFINISHED)
		OTF2_AttributeList_AddUint8(o->attrs, otf2_attr(o->defs, A_UNFINISHED), 1);
	if (flags & EVF_CLIPPED)
		OTF2_AttributeList_AddUint8(o->attrs, otf2_attr(o->defs, A_CLIPPED), 1);
}

static const char *const copy_kinds[] = { "HtoH", "HtoD", "DtoH", "DtoD", "default", "peer" };

void otf2_attr_copy(struct otf2 *o, uint64_t bytes, uint32_t kind)
{
	OTF2_AttributeList_AddUint64(o->attrs, otf2_attr(o->defs, A_BYTES), bytes);
	OTF2_AttributeList_AddStringRef(o->attrs, otf2_attr(o->defs, A_COPY_KIND),
					otf2_str(o->defs, copy_kinds[kind < 6 ? kind : 4]));
}

void otf2_attr_dims(struct otf2 *o, const struct tprof_launch_dims *d)
{
	char buf[64];
	snprintf(buf, sizeof(buf), "[%u,%u,%u]", d->grid[0], d->grid[1], d->grid[2]);
	OTF2_AttributeList_AddStringRef(o->attrs, otf2_attr(o->defs, A_GRID), otf2_str(o->defs, buf));
	snprintf(buf, sizeof(buf), "[%u,%u,%u]", d->block[0], d->block[1], d->block[2]);
	OTF2_AttributeList_AddStringRef(o->attrs, otf2_attr(o->defs, A_BLOCK), otf2_str(o->defs, buf));
	OTF2_AttributeList_AddUint64(o->attrs, otf2_attr(o->defs, A_SHMEM), d->shmem);
}

void otf2_attr_nrt(struct otf2 *o, const struct call_info *ci, int32_t nc)
{
	const struct nrt_info *ni = ci->nrt;
	OTF2_AttributeList *a = o->attrs;
	struct otf2_defs *d = o->defs;
	const char *status = nrt_status_name(ci->ret);
	char buf[40];
	if (nc >= 0)
		OTF2_AttributeList_AddInt32(a, otf2_attr(d, A_NC), nc);
	if (ni->model)
		OTF2_AttributeList_AddStringRef(a, otf2_attr(d, A_MODEL), otf2_tstr(d, ni->model));
	else if (ni->a.name)
		OTF2_AttributeList_AddStringRef(a, otf2_attr(d, A_TENSOR), otf2_tstr(d, ni->a.name));
	if (ni->a.op >= TPROF_NRT_TENSOR_ALLOC && ni->a.op <= TPROF_NRT_TENSOR_MEMSET)
		OTF2_AttributeList_AddStringRef(a, otf2_attr(d, A_PLACEMENT),
						otf2_str(d, nrt_placement_name(ni->a.placement)));
	if (ni->has_exec) {
		OTF2_AttributeList_AddUint64(a, otf2_attr(d, A_IN_BYTES), ni->x.in_bytes);
		OTF2_AttributeList_AddUint64(a, otf2_attr(d, A_OUT_BYTES), ni->x.out_bytes);
		if (ni->a.extra)
			OTF2_AttributeList_AddUint32(a, otf2_attr(d, A_REPEAT), ni->a.extra);
	} else if (ni->a.bytes) {
		OTF2_AttributeList_AddUint64(a, otf2_attr(d, A_BYTES), ni->a.bytes);
	}
	if (!status) {
		snprintf(buf, sizeof(buf), "NRT_STATUS %d", ci->ret);
		status = buf;
	}
	OTF2_AttributeList_AddStringRef(a, otf2_attr(d, A_STATUS), otf2_str(d, status));
}
