/* coll-steps.c — how a collective moves and reduces its data through the segment, run by the
 * stream's worker without ever blocking (the launch loop calls it again until it is done).
 * Every rank has a staging slot; a collective is cut into steps of at most a slot each, and
 * step t of the communicator is two half-barriers:
 *   1. when every rank has finished reading step t-1, stage my part in my slot, wrote = t;
 *   2. when every rank has wrote >= t, compute my result from the slots, read = t.
 * Collectives on a communicator run one after the other, in the order of their numbers; at
 * its first step each rank publishes what it is doing and when it began, so a mismatched call
 * is an error on every rank (under STANDIN_NCCL_MISMATCH=wait it waits there on every rank, as
 * in NCCL, which does not check, until the timeout) and all ranks agree on when the collective
 * became ready (the latest beginning) and on its modelled end (latency + bytes / bandwidth
 * after that, and after the previous collective's end). */
#include "internal.h"

#include <string.h>

enum { STAGE, CONSUME };

/* Elements per step; "pieces" kinds give every destination its own part of the slot. */
static int pieces(enum sn_kind k)
{
	return k == SN_REDUCESCATTER || k == SN_ALLTOALL || k == SN_SCATTER || k == SN_ALLTOALLV;
}

static size_t step_elems(const struct sn_op *op)
{
	struct sn_seg_hdr *h = op->comm->seg->hdr;
	size_t b = pieces(op->kind) ? (h->slot_bytes / (size_t)h->nranks) & ~(size_t)7 : h->slot_bytes;
	return b / op->esize;
}

static size_t piece_bytes(const struct sn_op *op)
{
	return step_elems(op) * op->esize;
}

/* The longest count that is cut into steps, as far as this rank knows. */
static size_t local_length(const struct sn_op *op)
{
	size_t n = op->count, i, nr = (size_t)op->comm->nranks;
	if (op->kind == SN_ALLTOALLV)
		for (n = 0, i = 0; i < nr; i++) {
			if (op->v[i] > n)
				n = op->v[i];
			if (op->v[2 * nr + i] > n)
				n = op->v[2 * nr + i];
		}
	return n;
}

static size_t steps_for(size_t len, size_t per)
{
	return len ? (len + per - 1) / per : 1;
}

static size_t clamp_len(size_t total, size_t off, size_t per)
{
	return off >= total ? 0 : total - off < per ? total - off : per;
}

static int basic_op(const struct sn_op *op)
{
	return op->premul || op->postdiv ? ncclSum : op->redop;
}

/* Copies n elements into the slot, pre-multiplied when the reduction says so. */
static void put(const struct sn_op *op, void *dst, const void *src, size_t n)
{
	if (!n)
		return;
	if (op->premul)
		sn_scale(dst, src, n, op->dtype, op->scalar);
	else
		memcpy(dst, src, n * op->esize);
}

static void stage(struct sn_op *op, size_t off)
{
	struct ncclComm *c = op->comm;
	unsigned char *slot = sn_seg_slot(c->seg, c->rank);
	const unsigned char *in = op->sendbuff;
	size_t per = step_elems(op), es = op->esize, pb = piece_bytes(op), nr = (size_t)c->nranks;
	size_t len = clamp_len(op->count, off, per), d;
	switch (op->kind) {
	case SN_ALLREDUCE:
	case SN_REDUCE:
		put(op, slot, in + off * es, len);
		break;
	case SN_BROADCAST:
		if (c->rank == op->root)
			memcpy(slot, in + off * es, len * es);
		break;
	case SN_ALLGATHER:
	case SN_GATHER:
		memcpy(slot, in + off * es, len * es);
		break;
	case SN_SCATTER:
		if (c->rank != op->root)
			break;
		/* fall through */
	case SN_REDUCESCATTER:
	case SN_ALLTOALL:
		for (d = 0; d < nr; d++)
			put(op, slot + d * pb, in + (d * op->count + off) * es, len);
		break;
	case SN_ALLTOALLV:
		for (d = 0; d < nr; d++)
			memcpy(slot + d * pb, in + (op->v[nr + d] + off) * es,
			       clamp_len(op->v[d], off, per) * es);
		break;
	default:
		break;
	}
}

/* dst = the reduction of the n elements at `offset` in every rank's slot. */
static void reduce_slots(struct sn_op *op, void *dst, size_t offset, size_t n)
{
	struct ncclComm *c = op->comm;
	int q;
	if (!n)
		return;
	memcpy(dst, sn_seg_slot(c->seg, 0) + offset, n * op->esize);
	for (q = 1; q < c->nranks; q++)
		sn_accumulate(dst, sn_seg_slot(c->seg, q) + offset, n, op->dtype, basic_op(op));
	if (op->postdiv)
		sn_divide(dst, n, op->dtype, c->nranks);
}

static void consume(struct sn_op *op, size_t off)
{
	struct ncclComm *c = op->comm;
	unsigned char *out = op->recvbuff;
	size_t per = step_elems(op), es = op->esize, pb = piece_bytes(op), nr = (size_t)c->nranks;
	size_t len = clamp_len(op->count, off, per), me = (size_t)c->rank, q;
	switch (op->kind) {
	case SN_ALLREDUCE:
		reduce_slots(op, out + off * es, 0, len);
		break;
	case SN_REDUCE:
		if (c->rank == op->root)
			reduce_slots(op, out + off * es, 0, len);
		break;
	case SN_BROADCAST:
		memcpy(out + off * es, sn_seg_slot(c->seg, op->root), len * es);
		break;
	case SN_GATHER:
		if (c->rank != op->root)
			break;
		/* fall through */
	case SN_ALLGATHER:
		for (q = 0; q < nr; q++)
			memcpy(out + (q * op->count + off) * es, sn_seg_slot(c->seg, (int)q), len * es);
		break;
	case SN_REDUCESCATTER:
		reduce_slots(op, out + off * es, me * pb, len);
		break;
	case SN_ALLTOALL:
		for (q = 0; q < nr; q++)
			memcpy(out + (q * op->count + off) * es,
			       sn_seg_slot(c->seg, (int)q) + me * pb, len * es);
		break;
	case SN_SCATTER:
		memcpy(out + off * es, sn_seg_slot(c->seg, op->root) + me * pb, len * es);
		break;
	case SN_ALLTOALLV:
		for (q = 0; q < nr; q++)
			memcpy(out + (op->v[3 * nr + q] + off) * es,
			       sn_seg_slot(c->seg, (int)q) + me * pb,
			       clamp_len(op->v[2 * nr + q], off, per) * es);
		break;
	default:
		break;
	}
}

static void publish_desc(struct sn_op *op)
{
	struct sn_coll_desc *d = &sn_seg_rank(op->comm->seg, op->comm->rank)->desc;
	d->seq = op->seq;
	d->kind = op->kind;
	d->dtype = op->dtype;
	d->redop = basic_op(op);
	d->root = op->root;
	d->count = op->kind == SN_ALLTOALLV ? local_length(op) : op->count;
	d->arrival = op->t_start;
}

/* At the first step: every rank called the same collective?  0 when they did (it sets the
 * ready time, the modelled end and, for all-to-all-v, the number of steps); when not, -1 (said
 * on stderr), or 1 under STANDIN_NCCL_MISMATCH=wait: the collective waits for the first rank
 * that differs as for a peer that never arrives. */
static int check_descs(struct sn_op *op)
{
	struct ncclComm *c = op->comm;
	const struct sn_coll_desc *mine = &sn_seg_rank(c->seg, c->rank)->desc;
	uint64_t ready = 0, longest = 0;
	int q;
	for (q = 0; q < c->nranks; q++) {
		const struct sn_coll_desc *d = &sn_seg_rank(c->seg, q)->desc;
		if (d->seq != mine->seq || d->kind != mine->kind || d->dtype != mine->dtype ||
		    d->redop != mine->redop || d->root != mine->root ||
		    (op->kind != SN_ALLTOALLV && d->count != mine->count)) {
			if (sn_cfg.mismatch_wait) {
				op->waiting_on = q;
				return 1;
			}
			sn_warn("rank %d of comm %016llx: collective #%u is %s(count %llu, %s, root "
				"%d) here but %s(count %llu, %s, root %d) on rank %d",
				c->rank, (unsigned long long)c->hash, mine->seq,
				sn_kind_name(mine->kind), (unsigned long long)mine->count,
				sn_dtype_name(mine->dtype), mine->root, sn_kind_name(d->kind),
				(unsigned long long)d->count, sn_dtype_name(d->dtype), d->root, q);
			return -1;
		}
		if (d->arrival > ready)
			ready = d->arrival;
		if (d->count > longest)
			longest = d->count;
	}
	if (op->kind == SN_ALLTOALLV)
		op->nsteps = steps_for(longest, step_elems(op));
	op->t_ready = ready;
	op->deadline = (ready > c->busy_until ? ready : c->busy_until) + sn_model_ns(op->model_bytes);
	c->busy_until = op->deadline;
	return 0;
}

/* 1 when all ranks q have field >= want; otherwise remembers one that has not. */
static int all_reached(struct sn_op *op, int which, uint64_t want)
{
	struct ncclComm *c = op->comm;
	int q;
	for (q = 0; q < c->nranks; q++) {
		struct sn_seg_rank *k = sn_seg_rank(c->seg, q);
		if (atomic_load(which ? &k->wrote : &k->read) < want) {
			op->waiting_on = q;
			return 0;
		}
	}
	op->waiting_on = -1;
	return 1;
}

static void begin(struct sn_op *op)
{
	struct ncclComm *c = op->comm;
	op->started = 1;
	op->t_start = sn_now_ns();
	op->step_base = c->steps;
	op->step = 0;
	op->phase = STAGE;
	op->nsteps = steps_for(local_length(op), step_elems(op));
	if (op->premul && op->redop >= ncclNumOps) {
		const struct sn_user_op *u = &c->uops[op->redop - ncclNumOps];
		if (u->residence == ncclScalarDevice && u->ptr)
			memcpy(op->scalar, u->ptr, op->esize); /* read when the op runs */
	}
}

int sn_coll_progress(struct sn_op *op)
{
	struct ncclComm *c = op->comm;
	int moved = 0, mismatch;
	if (!op->started) {
		if (atomic_load(&c->coll_done) != op->seq - 1)
			return 0; /* an earlier collective of the communicator is running */
		begin(op);
		if (atomic_load(&c->async_err) != ncclSuccess || atomic_load(&c->abort)) {
			sn_op_finish(op, atomic_load(&c->abort) ? SN_ABORTED : SN_SKIPPED);
			return 1;
		}
		moved = 1;
	}
	for (;;) {
		uint64_t t = op->step_base + op->step + 1;
		size_t off = op->step * step_elems(op);
		struct sn_seg_rank *me = sn_seg_rank(c->seg, c->rank);
		if (op->phase == STAGE) {
			if (!all_reached(op, 0, t - 1))
				return moved;
			if (op->step == 0)
				publish_desc(op);
			stage(op, off);
			atomic_store(&me->wrote, t);
			sn_bell_ring(c->seg);
			op->phase = CONSUME;
			moved = 1;
		}
		if (!all_reached(op, 1, t))
			return moved;
		if (op->step == 0 && (mismatch = check_descs(op)) != 0) {
			if (mismatch > 0)
				return moved; /* STANDIN_NCCL_MISMATCH=wait: until the timeout */
			atomic_store(&me->read, t);
			c->steps = t;
			sn_op_finish(op, SN_MISMATCH);
			return 1;
		}
		consume(op, off);
		atomic_store(&me->read, t);
		sn_bell_ring(c->seg);
		op->phase = STAGE;
		if (++op->step == op->nsteps) {
			c->steps = t;
			sn_op_finish(op, SN_OK);
			return 1;
		}
	}
}
