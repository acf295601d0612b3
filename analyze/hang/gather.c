/* hang/gather.c — the hang analysis hearing the pipeline (state.h): every event, of which it
 * keeps what is still in progress where the data ends and what says a process got on, and what
 * the runtimes say of collectives and messages (model/hangs.h).  Memory follows what is in
 * progress: a collective is forgotten once every member has left it, a device stream keeps
 * the oldest HSTREAM_HELD works not seen to end. */
#include <stdlib.h>
#include <string.h>

#include "../../common/xalloc.h"
#include "../model/runtime.h"
#include "../util/grow.h"
#include "ends.h"
#include "state.h"

struct hproc *hang_proc(struct hang *h, const struct proc *p)
{
	if (!p || p->index < 1 || (size_t)p->index > h->nprocs)
		return NULL;
	return &h->procs[p->index - 1];
}

static void progressed(struct hproc *hp, int64_t at, uint32_t name)
{
	if (hp && at > hp->progress) {
		hp->progress = at;
		hp->last_name = name;
	}
}

/* ---- device work ------------------------------------------------------------------------ */

static struct hstream *stream_of(struct hproc *hp, uint64_t stream)
{
	for (size_t i = 0; i < hp->nstreams; i++)
		if (hp->streams[i].stream == stream)
			return &hp->streams[i];
	hp->streams = util_grow(hp->streams, &hp->capstreams, hp->nstreams, sizeof(*hp->streams), 4);
	struct hstream *s = &hp->streams[hp->nstreams++];
	memset(s, 0, sizeof(*s));
	s->stream = stream;
	s->ordinal = (uint32_t)hp->nstreams;
	return s;
}

static void launched(struct hproc *hp, const struct event *ev)
{
	const struct tprof_call_args *a = &ev->call->args;
	if (!ev->call->has_args || (a->shape != TPROF_SHAPE_LAUNCH && a->shape != TPROF_SHAPE_COPY &&
				    a->shape != TPROF_SHAPE_MEMSET))
		return;
	struct hstream *s = stream_of(hp, a->stream);
	if (s->nheld == HSTREAM_HELD) {
		s->more++;
		return;
	}
	s->held[s->nheld++] = (struct hwork){
		.name = a->shape == TPROF_SHAPE_LAUNCH && a->name ? a->name : ev->name, .t0 = ev->t0 };
}

/* Work on a stream ends in the order it was launched: what was launched up to this span's
 * launch has ended. */
static void ran(struct hproc *hp, const struct event *ev)
{
	const struct device_info *di = ev->dev;
	struct hstream *s = stream_of(hp, di->op.stream);
	uint32_t k = 0;
	while (k < s->nheld && s->held[k].t0 <= di->launch_ns)
		k++;
	memmove(s->held, s->held + k, (s->nheld - k) * sizeof(s->held[0]));
	s->nheld -= k;
	if (!s->nheld)
		s->more = 0;     /* those launched after the held ones: not known, said as none */
	s->spans++;
	hp->spans++;
	progressed(hp, ev->t1, 0);
}

/* ---- communicators and collectives --------------------------------------------------------- */

struct hcomm *hang_comm(struct hang *h, uint64_t comm)
{
	for (size_t i = 0; i < h->ncomms; i++)
		if (h->comms[i].comm == comm)
			return &h->comms[i];
	h->comms = util_grow(h->comms, &h->capcomms, h->ncomms, sizeof(*h->comms), 4);
	struct hcomm *c = &h->comms[h->ncomms++];
	memset(c, 0, sizeof(*c));
	c->comm = comm;
	return c;
}

static uint64_t mix(uint64_t a, uint64_t b)
{
	uint64_t x = a * 0x9e3779b97f4a7c15ull ^ b;
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	return x ^ (x >> 31);
}

static struct hmember *member_of(struct hang *h, struct hcomm *c, struct proc *p)
{
	uint64_t key = mix(c->comm, (uint64_t)(p ? p->index : 0));
	size_t at;
	for (struct hmember *m = hpool_first(&h->members, key, &at); m;
	     m = hpool_next(&h->members, key, &at))
		if (m->comm == c->comm && m->proc == p)
			return m;
	struct hmember *m = xcalloc(1, sizeof(*m));
	m->comm = c->comm;
	m->proc = p;
	m->rank = -1;
	hpool_add(&h->members, &m->item, key);
	c->m = util_grow(c->m, &c->capm, c->nm, sizeof(*c->m), 8);
	c->m[c->nm++] = m;
	return m;
}

struct proc *hang_member_proc(const struct hang *h, const struct hcomm *c, int32_t rank)
{
	for (size_t i = 0; i < c->nm; i++)
		if (c->m[i]->rank == rank && c->m[i]->proc)
			return c->m[i]->proc;
	int64_t world = -1;
	if (c->world && rank >= 0 && (uint32_t)rank < c->nworld)
		world = c->world[rank];
	else if (c->ranks_are_world)
		world = rank;
	for (size_t i = 0; world >= 0 && i < h->tr->nprocs; i++)
		if (h->tr->procs[i]->rank == world)
			return h->tr->procs[i];
	return NULL;
}

void hang_check_alike(struct hang *h, uint64_t comm, uint32_t comm_name, uint32_t seq,
			const struct hang_member *m, size_t n)
{
	uint32_t differ = 0;
	const struct hang_member *first = NULL;
	for (size_t i = 1; i < n; i++)
		if (m[i].name != m[0].name || (m[i].size && m[0].size && m[i].size != m[0].size)) {
			differ++;
			if (!first)
				first = &m[i];
		}
	if (!differ)
		return;
	h->mismatches++;
	if (h->nmismatch < MISMATCH_HELD)
		h->mismatch[h->nmismatch++] = (struct hmismatch){
			.comm = comm, .comm_name = comm_name, .seq = seq, .a = m[0], .b = *first,
			.differ = differ, .members = (uint32_t)n };
}

static uint64_t coll_key(uint64_t comm, uint32_t seq)
{
	return mix(comm, seq);
}

static struct hcoll *coll_of(struct hang *h, const struct hang_coll *hc, int make)
{
	uint64_t key = coll_key(hc->comm, hc->seq);
	size_t at;
	for (struct hcoll *o = hpool_first(&h->colls, key, &at); o; o = hpool_next(&h->colls, key, &at))
		if (o->comm == hc->comm && o->seq == hc->seq)
			return o;
	if (!make)
		return NULL;
	struct hcoll *o = xcalloc(1, sizeof(*o));
	o->comm = hc->comm;
	o->seq = hc->seq;
	o->size = hc->size;
	o->comm_name = hc->comm_name;
	o->on_device = hc->on_device;
	hpool_add(&h->colls, &o->item, key);
	return o;
}

static void coll_free(struct hang *h, struct hcoll *o)
{
	hpool_remove(&h->colls, &o->item);
	free(o->m);
	free(o);
}

static void sink_coll(void *ctx, const struct hang_coll *hc)
{
	struct hang *h = ctx;
	struct hcomm *c = hang_comm(h, hc->comm);
	if (hc->comm_name)
		c->name = hc->comm_name;
	if (hc->size)
		c->size = hc->size;
	if (hc->world) {
		c->world = hc->world;
		c->nworld = hc->nworld;
	}
	c->ranks_are_world |= hc->ranks_are_world;
	c->on_device |= hc->on_device;
	size_t left = 0;
	for (uint32_t i = 0; i < hc->nm; i++) {
		const struct hang_member *x = &hc->m[i];
		struct hmember *m = member_of(h, c, x->proc);
		if (x->rank >= 0)
			m->rank = x->rank;
		if (hc->seq >= m->entered) {
			m->entered = hc->seq;
			m->entered_name = x->name;
			m->entered_t0 = x->t0;
		}
		if (x->t1 >= 0 && hc->seq >= m->left) {
			m->left = hc->seq;
			m->left_name = x->name;
			m->left_t1 = x->t1;
		}
		left += x->t1 >= 0;
	}
	struct hcoll *o = coll_of(h, hc, 0);
	if (!o && hc->size && hc->nm == hc->size && left == hc->nm) {
		/* the whole collective at once, every member out of it */
		hang_check_alike(h, hc->comm, hc->comm_name, hc->seq, hc->m, hc->nm);
		return;
	}
	if (!o)
		o = coll_of(h, hc, 1);
	o->m = util_grow(o->m, &o->capm, o->nm, sizeof(*o->m), hc->nm);
	memcpy(o->m + o->nm, hc->m, hc->nm * sizeof(*hc->m));
	o->nm += hc->nm;
	o->left += left;
	if (hc->size)
		o->size = hc->size;
	if (o->size && o->nm >= o->size && o->left >= o->nm) {
		hang_check_alike(h, o->comm, o->comm_name, o->seq, o->m, o->nm);
		coll_free(h, o);
	}
}

static int coll_order(const void *a, const void *b)
{
	const struct hcoll *x = *(const struct hcoll *const *)a, *y = *(const struct hcoll *const *)b;
	if (x->comm != y->comm)
		return x->comm < y->comm ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

struct hcoll **hang_open_colls(const struct hang *h, size_t *n)
{
	*n = h->colls.n;
	struct hcoll **v = xcalloc(*n ? *n : 1, sizeof(*v));
	for (size_t i = 0; i < *n; i++)
		v[i] = (struct hcoll *)h->colls.v[i];
	qsort(v, *n, sizeof(*v), coll_order);
	return v;
}

/* A send, by its call's thread and entry. */
static uint64_t send_key(const struct hang_p2p *p)
{
	return (uint64_t)p->t0 * 0x9e3779b97f4a7c15ull ^ (uint64_t)(uintptr_t)p->thread;
}

/* One send said twice: as the blocking call in progress that makes it, and as a send the
 * matching found nobody received. */
static int same_send(const struct hang_p2p *a, const struct hang_p2p *b)
{
	return a->proc == b->proc && a->thread == b->thread && a->t0 == b->t0 &&
	       a->peer == b->peer && a->tag == b->tag && a->comm == b->comm;
}

static void sink_p2p(void *ctx, const struct hang_p2p *p)
{
	struct hang *h = ctx;
	if (p->kind == HANG_SEND && p->thread) {
		uint32_t *at = u64map_get(&h->sending, send_key(p));
		if (at && same_send(&h->p2p[*at], p)) {
			/* the call in progress says it (with its name): keep that one */
			if (p->blocking && !h->p2p[*at].blocking)
				h->p2p[*at] = *p;
			return;
		}
	}
	h->p2p = util_grow(h->p2p, &h->capp2p, h->np2p, sizeof(*h->p2p), 16);
	if (p->kind == HANG_SEND && p->thread)
		u64map_put(&h->sending, send_key(p), (uint32_t)h->np2p);
	h->p2p[h->np2p++] = *p;
}

/* ---- the events ------------------------------------------------------------------------- */

static void in_progress(struct hproc *hp, const struct event *ev)
{
	const struct call_info *ci = ev->call;
	hp->calls = util_grow(hp->calls, &hp->capcalls, hp->ncalls, sizeof(*hp->calls), 4);
	struct hcall *c = &hp->calls[hp->ncalls++];
	*c = (struct hcall){ .thread = ev->thread, .name = ev->name, .domain = ci->domain,
			     .t0 = ev->t0, .caller = ci->caller };
	if (ci->has_args && ci->args.shape == TPROF_SHAPE_SYNC) {
		c->waits_device = 1;
		c->stream = ci->args.stream;
	}
}

static void hear(struct hang *h, const struct event *ev)
{
	struct hproc *hp = hang_proc(h, ev->proc);
	const struct runtime *rt = NULL;
	switch (ev->kind) {
	case EV_CALL:
		if (!hp || !ev->call)
			break;
		rt = runtime_of_domain(h->rts, ev->call->domain);
		if (ev->flags & EVF_UNFINISHED)
			in_progress(hp, ev);
		else if (!ev->call->poll)
			progressed(hp, ev->t1, ev->name);
		launched(hp, ev);
		break;
	case EV_DEVICE:
		if (hp && ev->dev)
			ran(hp, ev);
		break;
	case EV_STEP:
		if (hp && (!hp->has_step || ev->step >= hp->step)) {
			hp->has_step = 1;
			hp->step = ev->step;
			hp->step_t0 = ev->t0;
		}
		progressed(hp, ev->t0, 0);
		if (!(ev->flags & EVF_UNFINISHED))
			progressed(hp, ev->t1, 0);
		break;
	case EV_RANGE:
	case EV_ASYNC:
		progressed(hp, ev->t0, 0);
		if (!(ev->flags & EVF_UNFINISHED))
			progressed(hp, ev->t1, 0);
		break;
	case EV_MARK:
		progressed(hp, ev->t0, 0);
		break;
	default:
		break;
	}
	if (ev->kind != EV_CALL) {
		for (unsigned i = 0; i < h->rts->n && !rt; i++)
			if (h->rts->all[i]->hang_events & RT_KIND(ev->kind) &&
			    ev->kind != EV_CALL)
				rt = h->rts->all[i];
	}
	if (rt && rt->hangs && (rt->hang_events & RT_KIND(ev->kind)))
		rt->hangs(ev, &h->sink);
}

void hang_gather_begin(struct hang *h, const struct trace *tr)
{
	h->tr = tr;
	h->nprocs = tr->nprocs;
	h->procs = xcalloc(h->nprocs ? h->nprocs : 1, sizeof(*h->procs));
	for (size_t i = 0; i < tr->nprocs; i++) {
		struct hproc *hp = hang_proc(h, tr->procs[i]);
		if (hp) {
			hp->p = tr->procs[i];
			hp->progress = INT64_MIN;
			hp->alive = -1;
		}
	}
}

void hang_gather_event(struct hang *h, const struct event *ev)
{
	hear(h, ev);
}

void hang_gather_init(struct hang *h)
{
	h->sink = (struct hang_sink){ h, sink_coll, sink_p2p };
}

void hang_gather_free(struct hang *h)
{
	for (size_t i = 0; i < h->nprocs; i++) {
		free(h->procs[i].calls);
		free(h->procs[i].streams);
	}
	free(h->procs);
	for (size_t i = 0; i < h->members.n; i++)
		free(h->members.v[i]);
	hpool_free(&h->members);
	for (size_t i = 0; i < h->ncomms; i++)
		free(h->comms[i].m);
	free(h->comms);
	while (h->colls.n)
		coll_free(h, (struct hcoll *)h->colls.v[0]);
	hpool_free(&h->colls);
	free(h->p2p);
	u64map_free(&h->sending);
	hang_ends_free(h->ends);
}
