/* p2p.c — ncclSend / ncclRecv as the stream's worker runs them, without blocking: the n-th
 * send from rank a to rank b meets the n-th receive of b from a (NCCL's matching) through the
 * ring of the pair (a -> b) in the segment.  Each side posts its message number, size and the
 * time it began; the sender streams the bytes into the ring as space frees up, the receiver
 * drains it, so sends and receives of a group progress together and a ring of them cannot
 * deadlock.  Both agree that the message was ready when the later of the two began, and
 * model its end as latency + bytes / bandwidth after that. */
#include "internal.h"

#include <string.h>

enum { POST, MOVE, PEER };

static int mismatch(struct sn_op *op, uint64_t theirs)
{
	struct ncclComm *c = op->comm;
	sn_warn("rank %d of comm %016llx: %s #%u with rank %d is %llu bytes here and %llu there",
		c->rank, (unsigned long long)c->hash, sn_kind_name(op->kind), op->seq, op->root,
		(unsigned long long)(op->count * op->esize), (unsigned long long)theirs);
	sn_op_finish(op, SN_MISMATCH);
	return 1;
}

static void set_ready(struct sn_op *op, uint64_t their_arrival)
{
	op->t_ready = their_arrival > op->t_start ? their_arrival : op->t_start;
	op->deadline = op->t_ready + sn_model_ns(op->model_bytes);
}

/* Copies what fits of the message into the ring. */
static int push(struct sn_op *op, struct sn_seg_chan *ch, unsigned char *ring, uint64_t cap)
{
	uint64_t total = op->count * op->esize;
	int moved = 0;
	while (op->moved < total) {
		uint64_t head = atomic_load(&ch->head), tail = atomic_load(&ch->tail);
		uint64_t room = cap - (head - tail), at = head % cap, n = total - op->moved;
		if (!room) {
			op->waiting_on = op->root;
			break;
		}
		if (n > room)
			n = room;
		if (n > cap - at)
			n = cap - at;
		memcpy(ring + at, (const unsigned char *)op->sendbuff + op->moved, n);
		op->moved += n;
		atomic_store(&ch->head, head + n);
		sn_bell_ring(op->comm->seg);
		moved = 1;
	}
	return moved;
}

/* Copies what has arrived of the message out of the ring. */
static int pull(struct sn_op *op, struct sn_seg_chan *ch, unsigned char *ring, uint64_t cap)
{
	uint64_t total = op->count * op->esize;
	int moved = 0;
	while (op->moved < total) {
		uint64_t head = atomic_load(&ch->head), tail = atomic_load(&ch->tail);
		uint64_t at = tail % cap, n = total - op->moved;
		if (head == tail) {
			op->waiting_on = op->root;
			break;
		}
		if (n > head - tail)
			n = head - tail;
		if (n > cap - at)
			n = cap - at;
		memcpy((unsigned char *)op->recvbuff + op->moved, ring + at, n);
		op->moved += n;
		atomic_store(&ch->tail, tail + n);
		sn_bell_ring(op->comm->seg);
		moved = 1;
	}
	return moved;
}

static int send_progress(struct sn_op *op, struct sn_seg_chan *ch, unsigned char *ring,
			 uint64_t cap)
{
	int moved = 0;
	uint32_t m = op->seq;
	if (op->phase == POST) {
		ch->sdesc[m & 1].bytes = op->count * op->esize;
		ch->sdesc[m & 1].arrival = op->t_start;
		atomic_store(&ch->send_posted, m);
		sn_bell_ring(op->comm->seg);
		op->phase = MOVE;
		moved = 1;
	}
	if (op->phase == MOVE) {
		moved |= push(op, ch, ring, cap);
		if (op->moved < op->count * op->esize)
			return moved;
		op->phase = PEER;
	}
	if (atomic_load(&ch->recv_posted) < m) {
		op->waiting_on = op->root;
		return moved;
	}
	if (ch->rdesc[m & 1].bytes != op->count * op->esize)
		return mismatch(op, ch->rdesc[m & 1].bytes);
	set_ready(op, ch->rdesc[m & 1].arrival);
	sn_op_finish(op, SN_OK);
	return 1;
}

static int recv_progress(struct sn_op *op, struct sn_seg_chan *ch, unsigned char *ring,
			 uint64_t cap)
{
	int moved = 0;
	uint32_t m = op->seq;
	if (op->phase == POST) {
		ch->rdesc[m & 1].bytes = op->count * op->esize;
		ch->rdesc[m & 1].arrival = op->t_start;
		atomic_store(&ch->recv_posted, m);
		sn_bell_ring(op->comm->seg);
		op->phase = PEER;
		moved = 1;
	}
	if (op->phase == PEER) {
		if (atomic_load(&ch->send_posted) < m) {
			op->waiting_on = op->root;
			return moved;
		}
		if (ch->sdesc[m & 1].bytes != op->count * op->esize)
			return mismatch(op, ch->sdesc[m & 1].bytes);
		set_ready(op, ch->sdesc[m & 1].arrival);
		op->phase = MOVE;
		moved = 1;
	}
	moved |= pull(op, ch, ring, cap);
	if (op->moved < op->count * op->esize)
		return moved;
	sn_op_finish(op, SN_OK);
	return 1;
}

int sn_p2p_progress(struct sn_op *op)
{
	struct ncclComm *c = op->comm;
	int send = op->kind == SN_SEND, src = send ? c->rank : op->root;
	int dst = send ? op->root : c->rank;
	_Atomic uint32_t *done = send ? &c->send_done[op->root] : &c->recv_done[op->root];
	uint64_t cap = c->seg->hdr->chan_bytes;
	struct sn_seg_chan *ch = sn_seg_chan(c->seg, src, dst);
	unsigned char *ring = sn_seg_chan_data(c->seg, src, dst);
	if (!op->started) {
		if (atomic_load(done) != op->seq - 1)
			return 0; /* an earlier message with that peer is in flight */
		op->started = 1;
		op->t_start = sn_now_ns();
		op->phase = POST;
		if (atomic_load(&c->async_err) != ncclSuccess || atomic_load(&c->abort)) {
			sn_op_finish(op, atomic_load(&c->abort) ? SN_ABORTED : SN_SKIPPED);
			return 1;
		}
	}
	return send ? send_progress(op, ch, ring, cap) : recv_progress(op, ch, ring, cap);
}
