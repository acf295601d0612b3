/* runtimes/nccl/chrome.c — the NCCL/RCCL part of the Chrome trace.
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
 * flight. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nccl.h"
#include "chrome.h"

struct held {
	struct held *next;
	int proc;
	uint64_t corr, stream;
	struct event ev;                 /* pointers cleared; dev points at di */
	struct device_info di;
};

struct chrome_nccl {
	struct held **b;
	size_t nb, n;
};

static void arg_i64(struct jw *w, int *n, const char *key, int64_t v)
{
	chrome_arg_key(w, n, key);
	jw_i64(w, v);
}

static void arg_us(struct jw *w, int *n, const char *key, int64_t ns)
{
	chrome_arg_key(w, n, key);
	jw_us(w, ns);
}

static void arg_rank_of(struct jw *w, int *n, const char *key, int32_t rank)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "rank %d", rank);
	chrome_arg_str(w, n, key, buf);
}

/* The operation's own arguments but its name: how much, with whom. */
static void op_rest(struct jw *w, int *n, uint8_t op, uint64_t count, uint8_t dtype, uint64_t bytes,
		    uint8_t redop, int32_t peer, uint64_t comm, uint32_t seq)
{
	if (!nccl_op_is_coll(op) && !nccl_op_is_p2p(op)) {
		if (comm)
			chrome_arg_hex(w, n, "comm", comm);
		return;
	}
	chrome_arg_u64(w, n, "count", count);
	chrome_arg_str(w, n, "dtype", nccl_dtype_name(dtype));
	chrome_arg_u64(w, n, "bytes", bytes);
	const char *r = nccl_redop_name(redop);
	if (r && (op == TPROF_NCCL_ALLREDUCE || op == TPROF_NCCL_REDUCE || op == TPROF_NCCL_REDUCESCATTER))
		chrome_arg_str(w, n, "redop", r);
	if (peer >= 0)
		arg_i64(w, n, nccl_op_is_p2p(op) ? "peer" : "root", peer);
	chrome_arg_hex(w, n, "comm", comm);
	chrome_arg_u64(w, n, "seq", seq);
}

/* The operation's own arguments: what it is, how much, with whom. */
static void op_args(struct jw *w, int *n, uint8_t op, uint64_t count, uint8_t dtype, uint64_t bytes,
		    uint8_t redop, int32_t peer, uint64_t comm, uint32_t seq)
{
	chrome_arg_str(w, n, "op", nccl_op_name(op));
	op_rest(w, n, op, count, dtype, bytes, redop, peer, comm, seq);
}

void chrome_nccl_args(struct jw *w, int *n, const struct nccl_info *ni)
{
	const struct tprof_nccl_args *a = &ni->a;
	const struct tprof_nccl_args2 *b = &ni->b;
	op_args(w, n, a->op, a->count, a->dtype, a->bytes, a->redop, ni->has_b ? b->peer : -1,
		a->comm, a->seq);
	if (ni->has_b && (a->comm || nccl_op_is_coll(a->op) || nccl_op_is_p2p(a->op))) {
		arg_i64(w, n, "rank", b->rank);
		arg_i64(w, n, "nranks", b->nranks);
		if (b->device >= 0)
			arg_i64(w, n, "device", b->device);
	}
	if (ni->has_b && (nccl_op_is_coll(a->op) || nccl_op_is_p2p(a->op)))
		chrome_arg_hex(w, n, "stream", b->stream);
	if (ni->has_b && b->aux && (a->op == TPROF_NCCL_GROUP_START || a->op == TPROF_NCCL_GROUP_END ||
				    (a->flags & TPROF_NCCLF_GROUPED)))
		chrome_arg_hex(w, n, "group", b->aux);
	if (ni->has_b && a->op == TPROF_NCCL_COMM_SPLIT && b->aux)
		chrome_arg_hex(w, n, "parent_comm", b->aux);
	if (a->flags & TPROF_NCCLF_INPLACE)
		chrome_arg_str(w, n, "in_place", "true");
	if (a->flags & TPROF_NCCLF_UNTIMED)
		chrome_arg_str(w, n, "untimed", "true");
	if (a->flags & TPROF_NCCLF_RCCL)
		chrome_arg_str(w, n, "library", "RCCL");
}

/* ---- holding spans ----------------------------------------------------------------------- */

static size_t hslot(size_t nb, int proc, uint64_t corr, uint64_t stream)
{
	uint64_t h = ((uint64_t)(uint32_t)proc * 0x9e3779b97f4a7c15ull) ^ (corr * 0xc2b2ae3d27d4eb4full) ^
		     (stream * 0x165667b19e3779f9ull);
	return (h ^ (h >> 29)) & (nb - 1);
}

static void grow(struct chrome_nccl *s)
{
	size_t nb = s->nb ? s->nb * 2 : 256;
	struct held **b = calloc(nb, sizeof(*b));
	if (!b)
		abort();
	for (size_t i = 0; i < s->nb; i++)
		for (struct held *h = s->b[i], *next; h; h = next) {
			next = h->next;
			size_t j = hslot(nb, h->proc, h->corr, h->stream);
			h->next = b[j];
			b[j] = h;
		}
	free(s->b);
	s->b = b;
	s->nb = nb;
}

int chrome_nccl_hold(struct chrome *c, const struct event *ev)
{
	if (!c->nccl && !(c->nccl = calloc(1, sizeof(*c->nccl))))
		abort();
	struct chrome_nccl *s = c->nccl;
	if ((s->n + 1) * 2 > s->nb)
		grow(s);
	struct held *h = calloc(1, sizeof(*h));
	if (!h)
		abort();
	h->proc = ev->proc->index;
	h->corr = ev->dev->corr;
	h->stream = ev->dev->op.stream;
	h->ev = *ev;
	h->di = *ev->dev;
	h->ev.dev = &h->di;
	size_t j = hslot(s->nb, h->proc, h->corr, h->stream);
	h->next = s->b[j];
	s->b[j] = h;
	s->n++;
	return 1;
}

static struct held *take(struct chrome *c, int proc, uint64_t corr, uint64_t stream)
{
	struct chrome_nccl *s = c->nccl;
	if (!s || !s->nb)
		return NULL;
	for (struct held **p = &s->b[hslot(s->nb, proc, corr, stream)]; *p; p = &(*p)->next)
		if ((*p)->proc == proc && (*p)->corr == corr && (*p)->stream == stream) {
			struct held *h = *p;
			*p = h->next;
			s->n--;
			return h;
		}
	return NULL;
}

/* ---- writing ----------------------------------------------------------------------------- */

static struct track span_track(struct chrome *c, const struct held *h)
{
	return tracks_device(c->tracks, h->ev.proc, h->di.op.device, h->di.op.stream, 0);
}

/* The arrow from the launching call to the span, as HIP launches have. */
static void launch_flow(struct chrome *c, const struct held *h, unsigned k)
{
	const struct device_info *di = &h->di;
	if (!di->corr || !di->launcher)
		return;
	char id[64];
	if (k)
		snprintf(id, sizeof(id), "\"%d:%" PRIu64 ".%u\"", h->proc, di->corr, k);
	else
		snprintf(id, sizeof(id), "\"%d:%" PRIu64 "\"", h->proc, di->corr);
	chrome_launch_flow(c, tracks_thread(c->tracks, di->launcher, 1), span_track(c, h), id,
			   di->launch_ns, h->ev.t0, h->ev.t1);
}

/* The operations of a group that ran on this stream. */
static void group_ops(struct jw *w, int *n, const struct nccl_launch *l, uint64_t stream)
{
	chrome_arg_key(w, n, "ops");
	jw_lit(w, "[");
	int first = 1;
	for (uint32_t i = 0; i < l->nops; i++) {
		const struct nccl_op *o = &l->ops[i];
		if (o->stream != stream)
			continue;
		if (!first)
			jw_lit(w, ",");
		first = 0;
		/* An object of its own: "op" first, then the rest as in an "args". */
		jw_lit(w, "{\"op\":");
		chrome_str(w, nccl_op_name(o->op));
		int m = 1;
		op_rest(w, &m, o->op, o->count, o->dtype, o->bytes, o->redop, o->peer, o->comm, o->seq);
		if (!o->matched) {
			chrome_arg_key(w, &m, "matched");
			jw_lit(w, "false");
		}
		jw_lit(w, "}");
	}
	jw_lit(w, "]");
}

static void span_args(struct chrome *c, int *n, const struct held *h, const struct nccl_inst *in,
		      const struct nccl_launch *l)
{
	struct jw *w = &c->w;
	const struct device_info *di = &h->di;
	chrome_arg_u64(w, n, "device", di->op.device);
	chrome_arg_hex(w, n, "stream", di->op.stream);
	if (di->corr)
		chrome_arg_u64(w, n, "correlation", di->corr);
	const struct tprof_devop_coll *dc = &di->op.coll;
	if (!l || !l->nops) {
		/* Only the DEVICE record's own facts. */
		chrome_arg_str(w, n, "op", nccl_op_name(dc->op));
		chrome_arg_hex(w, n, "comm", dc->comm);
		chrome_arg_u64(w, n, "seq", dc->seq);
		arg_i64(w, n, "rank", dc->rank);
		arg_i64(w, n, "nranks", dc->nranks);
	} else if (!l->group) {
		const struct nccl_op *o = &l->ops[0];
		op_args(w, n, o->op, o->count, o->dtype, o->bytes, o->redop, o->peer, o->comm, o->seq);
		arg_i64(w, n, "rank", o->rank);
		arg_i64(w, n, "nranks", o->nranks);
	} else {
		chrome_arg_hex(w, n, "group", l->group);
		arg_i64(w, n, "rank", l->rank);
		arg_i64(w, n, "nranks", l->nranks);
		group_ops(w, n, l, di->op.stream);
	}
	int64_t dur = h->ev.t1 - h->ev.t0;
	if (l && l->nops && dur > 0 && l->nspans == 1) {
		chrome_arg_key(w, n, "algbw_GBps");
		jw_double(w, l->algbytes / (double)dur);
		chrome_arg_key(w, n, "busbw_GBps");
		jw_double(w, l->busbytes / (double)dur);
	}
	if (!in) {
		chrome_arg_key(w, n, "matched");
		jw_lit(w, "false");
		return;
	}
	chrome_arg_u64(w, n, "nccl_instance", in->id);
	chrome_arg_u64(w, n, "ranks_seen", in->nl);
	chrome_arg_u64(w, n, "ranks_expected", in->ranks_expected);
	if (l && l->thread && in->last_rank >= 0) {
		arg_us(w, n, "entered_after_first_us", l->t0 - in->first_entry);
		arg_rank_of(w, n, "last_to_enter", in->last_rank);
	}
	if (in->timed) {
		arg_us(w, n, "started_after_first_us", l ? l->dev_t0 - in->first_start : 0);
		arg_rank_of(w, n, "last_to_start", in->last_start_rank);
	}
	chrome_arg_key(w, n, "matched");
	jw_raw(w, in->incomplete ? "false" : "true", in->incomplete ? 5 : 4);
	if (in->unmatched)
		chrome_arg_u64(w, n, "unmatched_ops", in->unmatched);
}

/* Writes a held span (of launch l of instance in, or of none) and its launch arrow. */
static void write_span(struct chrome *c, struct held *h, const struct nccl_inst *in,
		       const struct nccl_launch *l, unsigned k)
{
	struct jw *w = &c->w;
	struct track tr = span_track(c, h);
	chrome_head(c, tr, "X", "collective", h->ev.t0);
	jw_lit(w, ",\"dur\":");
	jw_us(w, h->ev.t1 - h->ev.t0);
	jw_lit(w, ",\"name\":");
	chrome_name(w, l && l->group && l->nops ? l->label : h->ev.name);
	int n = 0;
	span_args(c, &n, h, in, l);
	chrome_arg_flags(w, &n, h->ev.flags);
	chrome_end_args(w, n);
	launch_flow(c, h, k);
}

/* Where an arrow of launch l binds: its span on `stream` (any span when none is there), or
 * its call when it has no span written. */
struct anchor {
	int ok;
	struct track tr;
	int64_t t0, t1;
};

static struct anchor anchor_of(struct chrome *c, const struct nccl_launch *l, struct anchor *spans,
			       uint64_t stream)
{
	for (uint32_t k = 0; k < l->nspans; k++)
		if (spans[k].ok && l->spans[k].stream == stream)
			return spans[k];
	for (uint32_t k = 0; k < l->nspans; k++)
		if (spans[k].ok)
			return spans[k];
	if (l->thread)
		return (struct anchor){ 1, tracks_thread(c->tracks, l->thread, 1), l->t0, l->t1 };
	return (struct anchor){ 0 };
}

void chrome_nccl_inst(struct chrome *c, const struct event *ev)
{
	const struct nccl_inst *in = ev->ncclinst;
	struct jw *w = &c->w;
	uint32_t nspans = 0;
	for (uint32_t i = 0; i < in->nl; i++)
		nspans += in->l[i].nspans;
	/* Where each launch's spans were written (spans the window dropped were not held). */
	struct anchor *sp = calloc(nspans ? nspans : 1, sizeof(*sp));
	uint32_t *first = calloc(in->nl ? in->nl : 1, sizeof(*first));
	if (!sp || !first)
		abort();
	uint32_t at = 0;
	int any_coll = 0;
	for (uint32_t i = 0; i < in->nl; i++) {
		const struct nccl_launch *l = &in->l[i];
		first[i] = at;
		for (uint32_t k = 0; k < l->nops; k++)
			any_coll |= nccl_op_is_coll(l->ops[k].op);
		for (uint32_t k = 0; k < l->nspans; k++, at++) {
			struct held *h = take(c, l->proc->index, l->corr, l->spans[k].stream);
			if (!h)
				continue;
			write_span(c, h, in, l, k);
			sp[at] = (struct anchor){ 1, span_track(c, h), h->ev.t0, h->ev.t1 };
			free(h);
		}
	}
	/* Collectives: from the start of the last rank to start to the end of every other. */
	uint32_t last = 0;
	int have = 0;
	struct anchor la = { 0 };
	for (uint32_t i = 0; i < in->nl && any_coll; i++) {
		struct anchor a = anchor_of(c, &in->l[i], sp + first[i], in->l[i].nspans ? in->l[i].spans[0].stream : 0);
		if (a.ok && (!have || a.t0 > la.t0)) {
			la = a;
			last = i;
			have = 1;
		}
	}
	for (uint32_t i = 0; i < in->nl && have; i++) {
		struct anchor a = anchor_of(c, &in->l[i], sp + first[i], in->l[i].nspans ? in->l[i].spans[0].stream : 0);
		int64_t from = chrome_flow_ts(la.t0, la.t0, la.t1), to = chrome_flow_ts(a.t1, a.t0, a.t1);
		if (i == last || !a.ok)
			continue;
		if (to < from) {
			c->backward++;   /* the device clocks of two hosts disagree */
			continue;
		}
		char id[48];
		int n = 0;
		snprintf(id, sizeof(id), "\"n%" PRIu64 ".%u\"", in->id, i);
		chrome_flow(c, la.tr, "s", "nccl", "collective", id, from);
		chrome_arg_u64(w, &n, "nccl_instance", in->id);
		arg_rank_of(w, &n, "last_to_start", in->l[last].rank);
		chrome_end_args(w, n);
		chrome_flow(c, a.tr, "f", "nccl", "collective", id, to);
		jw_lit(w, "}");
	}
	/* Sends matched with their receives. */
	for (uint32_t k = 0; k < in->nlinks; k++) {
		const struct nccl_link *lk = &in->links[k];
		struct anchor a = anchor_of(c, &in->l[lk->from], sp + first[lk->from], lk->from_stream);
		struct anchor b = anchor_of(c, &in->l[lk->to], sp + first[lk->to], lk->to_stream);
		if (!a.ok || !b.ok)
			continue;
		int64_t from = chrome_flow_ts(a.t0, a.t0, a.t1);
		int64_t to = chrome_flow_ts(b.t1, b.t0, b.t1);
		if (to < from) {
			c->backward++;
			continue;
		}
		char id[48];
		int n = 0;
		snprintf(id, sizeof(id), "\"p%" PRIu64 ".%u\"", in->id, k);
		chrome_flow(c, a.tr, "s", "nccl", "send", id, from);
		chrome_arg_u64(w, &n, "bytes", lk->bytes);
		arg_i64(w, &n, "src", lk->src);
		arg_i64(w, &n, "dst", lk->dst);
		chrome_arg_u64(w, &n, "seq", lk->seq);
		chrome_end_args(w, n);
		chrome_flow(c, b.tr, "f", "nccl", "send", id, to);
		jw_lit(w, "}");
	}
	free(sp);
	free(first);
}

void chrome_nccl_flush(struct chrome *c)
{
	struct chrome_nccl *s = c->nccl;
	if (!s)
		return;
	for (size_t i = 0; i < s->nb; i++)
		for (struct held *h = s->b[i], *next; h; h = next) {
			next = h->next;
			if (!c->failed)
				write_span(c, h, NULL, NULL, 0);
			free(h);
		}
	free(s->b);
	free(s);
	c->nccl = NULL;
}
