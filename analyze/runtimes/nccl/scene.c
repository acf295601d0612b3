/* runtimes/nccl/scene.c — NCCL/RCCL in the scene.
 *
 * An NCCL call gets its arguments (operation, count, datatype, bytes, reduction, root or
 * peer, communicator, rank, size, seq, group).  A collective's device span is held when it
 * arrives, because what a user wants on it — how long after the first rank this one
 * entered, which rank entered last, whether every rank's part was found — is only known
 * when the stage that lines launches up across ranks (runtimes/nccl/coll.c) emits their EV_NCCL.
 * Then each span is written on its (device, stream) track with those facts and the launch
 * arrow from its call (for a group, from ncclGroupEnd), and the ranks are tied together:
 * for collectives, arrows from the start of the span of the rank that started last to the
 * end of every other rank's span (as MPI collectives are drawn), and for each send matched
 * with its receive, an arrow from the sender's span to the receiver's; an arrow between
 * ranks that would end before it starts (the device clocks of two hosts disagree) is left
 * out and counted.  A launch that has no span (untimed, or lost) takes part with its call.
 * Spans still held at the end are written unmatched.  Memory follows the collectives in
 * flight.  Under --parallel every analysis process that read a launch draws its spans (from
 * the instance or a copy of it, runtimes/nccl/copies.c), and the one that matched the instance
 * draws its arrows: an end on a rank read elsewhere binds to that rank's span as the window
 * kept it there (its times travel with the instance) and is drawn there, as a half. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../common/xalloc.h"
#include "../../util/hpool.h"
#include "../registry.h"
#include "nccl.h"

struct held {
	struct hpool_item item;          /* by (proc, corr, stream) in nccl_scene.held */
	uint64_t order;                  /* when it came */
	int proc;
	uint64_t corr, stream;
	struct event ev;                 /* pointers cleared; dev points at di */
	struct device_info di;
};

struct nccl_scene {
	struct hpool held;               /* spans waiting for their instance */
	uint64_t next_order;
	uint64_t backward;               /* arrows between ranks not drawn: they would go back */
};

static void arg_rank_of(struct scene_args *a, const char *key, int32_t rank, char *buf, size_t len)
{
	snprintf(buf, len, "rank %d", rank);
	sa_str(a, key, buf);
}

/* The operation's own arguments but its name: how much, with whom. */
static void op_rest(struct scene_args *a, uint8_t op, uint64_t count, uint8_t dtype,
		    uint64_t bytes, uint8_t redop, int32_t peer, uint64_t comm, uint32_t seq)
{
	if (!nccl_op_is_coll(op) && !nccl_op_is_p2p(op)) {
		if (comm)
			sa_hex(a, "comm", comm);
		return;
	}
	sa_u64(a, "count", count);
	sa_str(a, "dtype", nccl_dtype_name(dtype));
	sa_u64(a, "bytes", bytes);
	const char *r = nccl_redop_name(redop);
	if (r && (op == TPROF_NCCL_ALLREDUCE || op == TPROF_NCCL_REDUCE || op == TPROF_NCCL_REDUCESCATTER))
		sa_str(a, "redop", r);
	if (peer >= 0)
		sa_i64(a, nccl_op_is_p2p(op) ? "peer" : "root", peer);
	sa_hex(a, "comm", comm);
	sa_u64(a, "seq", seq);
}

/* The operation's own arguments: what it is, how much, with whom. */
static void op_args(struct scene_args *a, uint8_t op, uint64_t count, uint8_t dtype,
		    uint64_t bytes, uint8_t redop, int32_t peer, uint64_t comm, uint32_t seq)
{
	sa_str(a, "op", nccl_op_name(op));
	op_rest(a, op, count, dtype, bytes, redop, peer, comm, seq);
}

void nccl_scene_call_args(struct scene_args *sa, const struct event *ev)
{
	const struct nccl_info *ni = nccl_info_of(ev);
	if (!ni)
		return;
	const struct tprof_nccl_args *a = &ni->a;
	const struct tprof_nccl_args2 *b = &ni->b;
	op_args(sa, a->op, a->count, a->dtype, a->bytes, a->redop, ni->has_b ? b->peer : -1,
		a->comm, a->seq);
	if (ni->has_b && (a->comm || nccl_op_is_coll(a->op) || nccl_op_is_p2p(a->op))) {
		sa_i64(sa, "rank", b->rank);
		sa_i64(sa, "nranks", b->nranks);
		if (b->device >= 0)
			sa_i64(sa, "device", b->device);
	}
	if (ni->has_b && (nccl_op_is_coll(a->op) || nccl_op_is_p2p(a->op)))
		sa_hex(sa, "stream", b->stream);
	if (ni->has_b && b->aux && (a->op == TPROF_NCCL_GROUP_START || a->op == TPROF_NCCL_GROUP_END ||
				    (a->flags & TPROF_NCCLF_GROUPED)))
		sa_hex(sa, "group", b->aux);
	if (ni->has_b && a->op == TPROF_NCCL_COMM_SPLIT && b->aux)
		sa_hex(sa, "parent_comm", b->aux);
	if (a->flags & TPROF_NCCLF_INPLACE)
		sa_str(sa, "in_place", "true");
	if (a->flags & TPROF_NCCLF_UNTIMED)
		sa_str(sa, "untimed", "true");
	if (a->flags & TPROF_NCCLF_RCCL)
		sa_str(sa, "library", "RCCL");
}

/* ---- holding spans ----------------------------------------------------------------------- */

static uint64_t held_hash(int proc, uint64_t corr, uint64_t stream)
{
	uint64_t h = ((uint64_t)(uint32_t)proc * 0x9e3779b97f4a7c15ull) ^
		     (corr * 0xc2b2ae3d27d4eb4full) ^ (stream * 0x165667b19e3779f9ull);
	return h ^ (h >> 29);
}

static struct nccl_scene *state(struct scene *sc, unsigned self)
{
	void **p = scene_runtime_state(sc, self);
	if (!*p)
		*p = xcalloc(1, sizeof(struct nccl_scene));
	return *p;
}

static void hold(struct nccl_scene *s, const struct event *ev)
{
	struct held *h = xcalloc(1, sizeof(*h));
	h->proc = ev->proc->index;
	h->corr = ev->dev->corr;
	h->stream = ev->dev->op.stream;
	h->ev = *ev;
	h->di = *ev->dev;
	h->ev.dev = &h->di;
	h->order = ++s->next_order;
	hpool_add(&s->held, &h->item, held_hash(h->proc, h->corr, h->stream));
}

/* The latest span held of (proc, corr, stream), taken out. */
static struct held *take(struct nccl_scene *s, int proc, uint64_t corr, uint64_t stream)
{
	uint64_t hash = held_hash(proc, corr, stream);
	struct held *h = NULL;
	size_t at;
	for (struct held *x = hpool_first(&s->held, hash, &at); x;
	     x = hpool_next(&s->held, hash, &at))
		if (x->proc == proc && x->corr == corr && x->stream == stream &&
		    (!h || x->order > h->order))
			h = x;
	if (h)
		hpool_remove(&s->held, &h->item);
	return h;
}

/* ---- drawing ----------------------------------------------------------------------------- */

static struct track span_track(struct scene *sc, const struct held *h)
{
	return tracks_device(scene_tracks(sc), h->ev.proc, h->di.op.device, h->di.op.stream, 0);
}

/* The operations of a group that ran on this stream. */
static void group_ops(struct scene_args *a, const struct nccl_launch *l, uint64_t stream)
{
	sa_arr(a, "ops");
	for (uint32_t i = 0; i < l->nops; i++) {
		const struct nccl_op *o = &l->ops[i];
		if (o->stream != stream)
			continue;
		/* An object of its own: "op" first, then the rest as in an "args". */
		sa_obj(a, NULL);
		op_args(a, o->op, o->count, o->dtype, o->bytes, o->redop, o->peer, o->comm, o->seq);
		if (!o->matched)
			sa_bool(a, "matched", 0);
		sa_end(a);
	}
	sa_end(a);
}

static void span_args(struct scene_args *a, const struct held *h, const struct nccl_inst *in,
		      const struct nccl_launch *l, char *rank1, char *rank2)
{
	const struct device_info *di = &h->di;
	sa_u64(a, "device", di->op.device);
	sa_hex(a, "stream", di->op.stream);
	if (di->corr)
		sa_u64(a, "correlation", di->corr);
	const struct tprof_devop_coll *dc = &di->op.coll;
	if (!l || !l->nops) {
		/* Only the DEVICE record's own facts. */
		sa_str(a, "op", nccl_op_name(dc->op));
		sa_hex(a, "comm", dc->comm);
		sa_u64(a, "seq", dc->seq);
		sa_i64(a, "rank", dc->rank);
		sa_i64(a, "nranks", dc->nranks);
	} else if (!l->group) {
		const struct nccl_op *o = &l->ops[0];
		op_args(a, o->op, o->count, o->dtype, o->bytes, o->redop, o->peer, o->comm, o->seq);
		sa_i64(a, "rank", o->rank);
		sa_i64(a, "nranks", o->nranks);
	} else {
		sa_hex(a, "group", l->group);
		sa_i64(a, "rank", l->rank);
		sa_i64(a, "nranks", l->nranks);
		group_ops(a, l, di->op.stream);
	}
	int64_t dur = h->ev.t1 - h->ev.t0;
	if (l && l->nops && dur > 0 && l->nspans == 1) {
		sa_double(a, "algbw_GBps", l->algbytes / (double)dur);
		sa_double(a, "busbw_GBps", l->busbytes / (double)dur);
	}
	if (!in) {
		sa_bool(a, "matched", 0);
		return;
	}
	sa_u64(a, "nccl_instance", in->id);
	sa_u64(a, "ranks_seen", in->nl);
	sa_u64(a, "ranks_expected", in->ranks_expected);
	if (l && l->thread && in->last_rank >= 0) {
		sa_us(a, "entered_after_first_us", l->t0 - in->first_entry);
		arg_rank_of(a, "last_to_enter", in->last_rank, rank1, 32);
	}
	if (in->timed) {
		sa_us(a, "started_after_first_us", l ? l->dev_t0 - in->first_start : 0);
		arg_rank_of(a, "last_to_start", in->last_start_rank, rank2, 32);
	}
	sa_bool(a, "matched", !in->incomplete);
	if (in->unmatched)
		sa_u64(a, "unmatched_ops", in->unmatched);
}

/* Draws a held span (of launch l of instance in, or of none) and its launch arrow. */
static void write_span(struct scene *sc, struct held *h, const struct nccl_inst *in,
		       const struct nccl_launch *l, unsigned k)
{
	struct track tr = span_track(sc, h);
	struct scene_args a;
	char rank1[32], rank2[32];
	a.n = 0;
	span_args(&a, h, in, l, rank1, rank2);
	scene_args_flags(&a, h->ev.flags);
	struct scene_item it = { .kind = SI_SLICE, .cat = "collective",
				 .name = l && l->group && l->nops ? l->label : h->ev.name,
				 .track = tr, .proc = h->ev.proc, .t0 = h->ev.t0, .t1 = h->ev.t1,
				 .args = &a, .ev = &h->ev };
	scene_item(sc, &it);
	const struct device_info *di = &h->di;
	if (di->corr && di->launcher && di->launch_kept)
		scene_launch_flow(sc, h->ev.proc, di->corr, k,
				  tracks_thread(scene_tracks(sc), di->launcher, 1), tr, di->launch_ns,
				  h->ev.t0, h->ev.t1);
}

/* Where an arrow of launch l binds: its span on `stream` (any span when none is there), or
 * its call when it has no span drawn (and the call is). */
struct anchor {
	int ok;
	struct flow_end at;
	int64_t t0, t1;
};

static struct anchor anchor_of(const struct nccl_launch *l, const struct anchor *spans,
			       uint64_t stream)
{
	for (uint32_t k = 0; k < l->nspans; k++)
		if (spans[k].ok && l->spans[k].stream == stream)
			return spans[k];
	for (uint32_t k = 0; k < l->nspans; k++)
		if (spans[k].ok)
			return spans[k];
	if (l->thread && l->call_kept)
		return (struct anchor){ 1, flow_end_thread(l->thread), l->t0, l->t1 };
	return (struct anchor){ 0 };
}

/* Draws the spans of launch l held here (a launch another analysis process read is drawn
 * there, when the window kept its spans); sp: where each was drawn. */
static void launch_spans(struct scene *sc, struct nccl_scene *s, const struct nccl_inst *in,
			 const struct nccl_launch *l, struct anchor *sp)
{
	for (uint32_t k = 0; k < l->nspans; k++) {
		const struct nccl_span *x = &l->spans[k];
		if (l->proc->remote) {
			if (x->kept)
				sp[k] = (struct anchor){ 1, flow_end_stream(l->proc, x->device, x->stream),
							 x->t0, x->t1 };
			continue;
		}
		struct held *h = take(s, l->proc->index, l->corr, x->stream);
		if (!h)
			continue;
		write_span(sc, h, in, l, k);
		sp[k] = (struct anchor){ 1, flow_end_stream(h->ev.proc, h->di.op.device, h->di.op.stream),
					 h->ev.t0, h->ev.t1 };
		free(h);
	}
}

/* Launch i's anchor for a collective's arrow: on its first span's stream. */
static struct anchor coll_anchor(const struct nccl_inst *in, uint32_t i, const struct anchor *sp,
				 const uint32_t *first)
{
	const struct nccl_launch *l = &in->l[i];
	return anchor_of(l, sp + first[i], l->nspans ? l->spans[0].stream : 0);
}

/* Collectives: from the start of the last rank to start to the end of every other. */
static void coll_arrows(struct scene *sc, struct nccl_scene *s, const struct nccl_inst *in,
			const struct anchor *sp, const uint32_t *first)
{
	uint32_t last = 0;
	int have = 0;
	struct anchor la = { 0 };
	for (uint32_t i = 0; i < in->nl; i++) {
		struct anchor a = coll_anchor(in, i, sp, first);
		if (a.ok && (!have || a.t0 > la.t0)) {
			la = a;
			last = i;
			have = 1;
		}
	}
	char rank[32];
	for (uint32_t i = 0; i < in->nl && have; i++) {
		struct anchor a = coll_anchor(in, i, sp, first);
		int64_t from = scene_flow_ts(la.t0, la.t0, la.t1), to = scene_flow_ts(a.t1, a.t0, a.t1);
		if (i == last || !a.ok)
			continue;
		if (to < from) {
			s->backward++;   /* the device clocks of two hosts disagree */
			continue;
		}
		struct scene_args fa;
		fa.n = 0;
		sa_u64(&fa, "nccl_instance", in->id);
		arg_rank_of(&fa, "last_to_start", in->l[last].rank, rank, sizeof(rank));
		char key[48];
		snprintf(key, sizeof(key), "n%llu.%u", (unsigned long long)in->id, i);
		scene_flow_between(sc, key, "nccl", "collective", la.at, from, a.at, to, a.t0, a.t1,
				   &fa);
	}
}

/* Sends matched with their receives. */
static void send_arrows(struct scene *sc, struct nccl_scene *s, const struct nccl_inst *in,
			const struct anchor *sp, const uint32_t *first)
{
	for (uint32_t k = 0; k < in->nlinks; k++) {
		const struct nccl_link *lk = &in->links[k];
		struct anchor a = anchor_of(&in->l[lk->from], sp + first[lk->from], lk->from_stream);
		struct anchor b = anchor_of(&in->l[lk->to], sp + first[lk->to], lk->to_stream);
		if (!a.ok || !b.ok)
			continue;
		int64_t from = scene_flow_ts(a.t0, a.t0, a.t1);
		int64_t to = scene_flow_ts(b.t1, b.t0, b.t1);
		if (to < from) {
			s->backward++;
			continue;
		}
		struct scene_args fa;
		fa.n = 0;
		sa_u64(&fa, "bytes", lk->bytes);
		sa_i64(&fa, "src", lk->src);
		sa_i64(&fa, "dst", lk->dst);
		sa_u64(&fa, "seq", lk->seq);
		char key[48];
		snprintf(key, sizeof(key), "p%llu.%u", (unsigned long long)in->id, k);
		scene_flow_between(sc, key, "nccl", "send", a.at, from, b.at, to, b.t0, b.t1, &fa);
	}
}

/* An instance: its spans read here drawn, and, where it was matched (not in a copy: under
 * --parallel, the analysis processes that read its other launches hold copies), the arrows
 * between its ranks, an end in a process read elsewhere drawn there. */
static void instance(struct scene *sc, struct nccl_scene *s, const struct event *ev)
{
	const struct nccl_inst *in = nccl_inst_of(ev);
	uint32_t nspans = 0;
	for (uint32_t i = 0; i < in->nl; i++)
		nspans += in->l[i].nspans;
	struct anchor *sp = xcalloc(nspans ? nspans : 1, sizeof(*sp));
	uint32_t *first = xcalloc(in->nl ? in->nl : 1, sizeof(*first));
	uint32_t at = 0;
	int any_coll = 0;
	for (uint32_t i = 0; i < in->nl; i++) {
		const struct nccl_launch *l = &in->l[i];
		first[i] = at;
		for (uint32_t k = 0; k < l->nops; k++)
			any_coll |= nccl_op_is_coll(l->ops[k].op);
		launch_spans(sc, s, in, l, sp + at);
		at += l->nspans;
	}
	if (!in->copy && any_coll)
		coll_arrows(sc, s, in, sp, first);
	if (!in->copy)
		send_arrows(sc, s, in, sp, first);
	free(sp);
	free(first);
}

int nccl_scene_event(struct scene *sc, const struct event *ev, unsigned self)
{
	if (ev->kind == EV_DEVICE) {
		if (ev->dev->kind != TPROF_DEVOP_COLLECTIVE)
			return 0;
		hold(state(sc, self), ev);   /* drawn with its EV_NCCL */
		return 1;
	}
	if (ev->kind == EV_NCCL) {
		instance(sc, state(sc, self), ev);
		return 1;
	}
	return 0;
}

static int by_order(const void *a, const void *b)
{
	const struct held *x = (const struct held *)*(struct hpool_item *const *)a;
	const struct held *y = (const struct held *)*(struct hpool_item *const *)b;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Spans still held are drawn unmatched, in the order they came. */
void nccl_scene_end(struct scene *sc, unsigned self)
{
	void **p = scene_runtime_state(sc, self);
	struct nccl_scene *s = *p;
	if (!s)
		return;
	if (s->held.n > 1)
		qsort(s->held.v, s->held.n, sizeof(*s->held.v), by_order);
	for (size_t i = 0; i < s->held.n; i++) {
		write_span(sc, (struct held *)s->held.v[i], NULL, NULL, 0);
		free(s->held.v[i]);
	}
	if (s->backward)
		diag_note("NCCL: %llu arrows between ranks not drawn: each would end before it "
			  "starts (the device clocks of two hosts disagree)",
			  (unsigned long long)s->backward);
	hpool_free(&s->held);
	free(s);
	*p = NULL;
}
