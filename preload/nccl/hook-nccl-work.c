/* hook-nccl-work.c — the NCCL and RCCL calls that put work on a device: every collective,
 * send and receive, each one line of data for NCCL_WORK (op, count, datatype, reduction, root
 * or peer, buffers).  The CALL records its op, count, datatype, bytes, reduction, root or
 * peer, communicator and its number there, and stream; outside a group the operation is timed
 * on its stream with two of the runtime's events around the real call, inside one with its
 * group (nccl-group.c).  The thread's guard is up during the real call, so NCCL's ncclBcast
 * calling its own ncclBroadcast, and the library's runtime calls, are not recorded. */
#include <string.h>

#include "hook-nccl.h"
#include "nccl-group.h"

/* ---- work put on a device ---------------------------------------------------------------- */

/* Bytes of one element of each ncclDataType_t (0: unknown). */
static const uint8_t dtype_bytes[] = { 1, 1, 4, 4, 8, 8, 2, 4, 8, 2, 1, 1 };

static inline uint64_t nccl_bytes(uint64_t count, int dtype)
{
	return dtype >= 0 && (size_t)dtype < sizeof(dtype_bytes) ? count * dtype_bytes[dtype] : 0;
}

/* How in-place is told from the buffers (NCCL's definitions). */
enum inplace_rule {
	SAME = 0,          /* send buffer == receive buffer */
	SEND_IN_RECV = 1,  /* send buffer == receive buffer + rank x bytes (AllGather, Gather) */
	RECV_IN_SEND = 2,  /* receive buffer == send buffer + rank x bytes (ReduceScatter, Scatter) */
};

/* One operation, as its wrapper describes it. */
struct nccl_work {
	struct tprof_hook *hook;
	uint8_t op;                     /* enum tprof_nccl_op */
	uint8_t inplace_rule;
	int dtype, redop, peer;         /* redop, peer: -1 when none */
	uint64_t count;
	const void *send, *recv;
	ncclComm_t comm;
	ncclStream_t stream;
};

struct nccl_op {
	struct nccl_call c;
	struct tprof_devpend *p;        /* outside a group: its slot, NULL when untimed */
	int grouped;
	int place;                      /* inside one: its stream's place in the group, or -1 */
	struct tprof_nccl_gop g;
};

static int inplace(const struct nccl_work *w, const struct tprof_nccl_comm *e, uint64_t bytes)
{
	if (!w->send || !w->recv)
		return 0;
	if (w->inplace_rule == SAME)
		return w->send == w->recv;
	if (!e || e->rank < 0)
		return 0;
	uint64_t off = (uint64_t)e->rank * bytes;
	return w->inplace_rule == SEND_IN_RECV ? (uintptr_t)w->send == (uintptr_t)w->recv + off
					       : (uintptr_t)w->recv == (uintptr_t)w->send + off;
}

/* Before the real call: the CALL record, its number on the communicator, and the start of
 * its device timing.  0 when not recording (then call the real function and return). */
static int coll_begin(struct tprof_thread *t, const struct nccl_work *w, struct nccl_op *o,
		      void *real)
{
	struct nccl_call *c = &o->c;
	uint32_t caller;
	if (!nccl_begin(c, t, w->hook, w->op, real, &caller))
		return 0;
	struct tprof_nccl_comm *e = nccl_comm(w->comm);
	int p2p = w->op == TPROF_NCCL_SEND || w->op == TPROF_NCCL_RECV;
	uint32_t seq = p2p ? tprof_nccl_p2p_seq(e, w->peer, w->op == TPROF_NCCL_RECV)
			   : tprof_nccl_coll_seq(e);
	uint64_t bytes = nccl_bytes(w->count, w->dtype);
	nccl_comm_args(c, e);
	c->a->count = w->count;
	c->a->bytes = bytes;
	c->a->seq = seq;
	c->a->dtype = (uint8_t)w->dtype;
	if (w->redop >= 0)
		c->a->redop = w->redop < 0xff ? (uint8_t)w->redop : 0xfe;
	if (inplace(w, e, bytes))
		c->a->flags |= TPROF_NCCLF_INPLACE;
	c->b->stream = (uint64_t)(uintptr_t)w->stream;
	c->b->peer = w->peer;
	o->grouped = tprof_nccl_in_group();
	if (o->grouped) {
		c->a->flags |= TPROF_NCCLF_GROUPED;
		c->b->aux = tprof_nccl_gs.id;
	}
	tprof_call_enter(&c->call);
	uint32_t name = tprof_hook_name(w->hook);
	o->g = (struct tprof_nccl_gop){
		.comm = e,
		.stream = (uint64_t)(uintptr_t)w->stream,
		.bytes = bytes,
		.seq = seq,
		.name = name,
		.op = w->op,
		.dtype = (uint8_t)w->dtype,
	};
	o->p = NULL;
	if (o->grouped) {
		o->place = tprof_nccl_group_add(&o->g);
		if (o->place < 0)
			c->a->flags |= TPROF_NCCLF_UNTIMED;
		return 1;
	}
	if (e && e->rt) {
		int device = e->device >= 0 ? e->device : e->rt->device_of_stream(o->g.stream);
		o->p = tprof_dev_begin(t, e->rt, device, o->g.stream);
	} else if (e) {
		tprof_dev_untimed();
	}
	if (!o->p) {
		c->a->flags |= TPROF_NCCLF_UNTIMED;
		return 1;
	}
	struct tprof_devpend *p = o->p;
	p->corr = c->call.corr;
	p->kind = TPROF_DEVOP_COLLECTIVE;
	p->name = name;
	p->op.launch_t0 = c->call.r ? c->call.r->t0 : tprof_now();
	p->op.bytes = bytes;
	p->op.caller = caller;
	p->op.coll = (struct tprof_devop_coll){
		.comm = e->id,
		.seq = seq,
		.op = w->op,
		.dtype = (uint8_t)w->dtype,
		.nops = 1,
		.rank = e->rank,
		.nranks = e->nranks,
		.group = 0,
	};
	return 1;
}

/* After it: the end event (or the operation counted in its group) and the call's end.
 * ncclInProgress (a nonblocking communicator) means the operation was taken. */
static ncclResult_t coll_end(struct nccl_op *o, ncclResult_t rc)
{
	int ok = rc == ncclSuccess || rc == ncclInProgress;
	if (o->grouped)
		tprof_nccl_group_added(o->place, &o->g, ok);
	else
		tprof_dev_end(o->c.call.t, o->p, ok);
	return tprof_call_leave(&o->c.call, rc);
}

#define NCCL_WORK(name, params, args, ...)                                                \
	TPROF_EXPORT ncclResult_t name params                                              \
	{                                                                                  \
		struct tprof_thread *t = &tprof_tls;                                       \
		name##_fn real = get_##name();                                             \
		if (!tprof_wrapper_records(t, real))                                       \
			return real ? real args : NCCL_NO_LIB;                             \
		struct nccl_work w = { .hook = NCCL_HOOK(name), .comm = comm,              \
				       .stream = stream, __VA_ARGS__ };                    \
		struct nccl_op o;                                                          \
		if (!coll_begin(t, &w, &o, (void *)real))                                  \
			return real args;                                                  \
		return coll_end(&o, real args);                                            \
	}

/* Each entry names its op, count, datatype, reduction and root or peer (-1: none). */
#define OP(x) .op = TPROF_NCCL_##x
#define NONE -1
#define BUFS(s_, r_, rule_) .send = (s_), .recv = (r_), .inplace_rule = (rule_)

NCCL_WORK(ncclAllReduce, (const void *sendbuff, void *recvbuff, size_t count,
			  ncclDataType_t datatype, ncclRedOp_t op, ncclComm_t comm,
			  ncclStream_t stream),
	  (sendbuff, recvbuff, count, datatype, op, comm, stream),
	  OP(ALLREDUCE), .count = count, .dtype = datatype, .redop = op, .peer = NONE,
	  BUFS(sendbuff, recvbuff, SAME))
NCCL_WORK(ncclBroadcast, (const void *sendbuff, void *recvbuff, size_t count,
			  ncclDataType_t datatype, int root, ncclComm_t comm, ncclStream_t stream),
	  (sendbuff, recvbuff, count, datatype, root, comm, stream),
	  OP(BROADCAST), .count = count, .dtype = datatype, .redop = NONE, .peer = root,
	  BUFS(sendbuff, recvbuff, SAME))
NCCL_WORK(ncclBcast, (void *buff, size_t count, ncclDataType_t datatype, int root,
		      ncclComm_t comm, ncclStream_t stream),
	  (buff, count, datatype, root, comm, stream),
	  OP(BROADCAST), .count = count, .dtype = datatype, .redop = NONE, .peer = root,
	  BUFS(buff, buff, SAME))
NCCL_WORK(ncclReduce, (const void *sendbuff, void *recvbuff, size_t count,
		       ncclDataType_t datatype, ncclRedOp_t op, int root, ncclComm_t comm,
		       ncclStream_t stream),
	  (sendbuff, recvbuff, count, datatype, op, root, comm, stream),
	  OP(REDUCE), .count = count, .dtype = datatype, .redop = op, .peer = root,
	  BUFS(sendbuff, recvbuff, SAME))
NCCL_WORK(ncclAllGather, (const void *sendbuff, void *recvbuff, size_t sendcount,
			  ncclDataType_t datatype, ncclComm_t comm, ncclStream_t stream),
	  (sendbuff, recvbuff, sendcount, datatype, comm, stream),
	  OP(ALLGATHER), .count = sendcount, .dtype = datatype, .redop = NONE, .peer = NONE,
	  BUFS(sendbuff, recvbuff, SEND_IN_RECV))
NCCL_WORK(ncclReduceScatter, (const void *sendbuff, void *recvbuff, size_t recvcount,
			      ncclDataType_t datatype, ncclRedOp_t op, ncclComm_t comm,
			      ncclStream_t stream),
	  (sendbuff, recvbuff, recvcount, datatype, op, comm, stream),
	  OP(REDUCESCATTER), .count = recvcount, .dtype = datatype, .redop = op, .peer = NONE,
	  BUFS(sendbuff, recvbuff, RECV_IN_SEND))
NCCL_WORK(ncclAlltoAll, (const void *sendbuff, void *recvbuff, size_t count,
			 ncclDataType_t datatype, ncclComm_t comm, ncclStream_t stream),
	  (sendbuff, recvbuff, count, datatype, comm, stream),
	  OP(ALLTOALL), .count = count, .dtype = datatype, .redop = NONE, .peer = NONE,
	  BUFS(sendbuff, recvbuff, SAME))
NCCL_WORK(ncclAllToAll, (const void *sendbuff, void *recvbuff, size_t count,
			 ncclDataType_t datatype, ncclComm_t comm, ncclStream_t stream),
	  (sendbuff, recvbuff, count, datatype, comm, stream),
	  OP(ALLTOALL), .count = count, .dtype = datatype, .redop = NONE, .peer = NONE,
	  BUFS(sendbuff, recvbuff, SAME))
NCCL_WORK(ncclGather, (const void *sendbuff, void *recvbuff, size_t count,
		       ncclDataType_t datatype, int root, ncclComm_t comm, ncclStream_t stream),
	  (sendbuff, recvbuff, count, datatype, root, comm, stream),
	  OP(GATHER), .count = count, .dtype = datatype, .redop = NONE, .peer = root,
	  BUFS(sendbuff, recvbuff, SEND_IN_RECV))
NCCL_WORK(ncclScatter, (const void *sendbuff, void *recvbuff, size_t count,
			ncclDataType_t datatype, int root, ncclComm_t comm, ncclStream_t stream),
	  (sendbuff, recvbuff, count, datatype, root, comm, stream),
	  OP(SCATTER), .count = count, .dtype = datatype, .redop = NONE, .peer = root,
	  BUFS(sendbuff, recvbuff, RECV_IN_SEND))
NCCL_WORK(ncclSend, (const void *sendbuff, size_t count, ncclDataType_t datatype, int peer,
		     ncclComm_t comm, ncclStream_t stream),
	  (sendbuff, count, datatype, peer, comm, stream),
	  OP(SEND), .count = count, .dtype = datatype, .redop = NONE, .peer = peer)
NCCL_WORK(ncclRecv, (void *recvbuff, size_t count, ncclDataType_t datatype, int peer,
		     ncclComm_t comm, ncclStream_t stream),
	  (recvbuff, count, datatype, peer, comm, stream),
	  OP(RECV), .count = count, .dtype = datatype, .redop = NONE, .peer = peer)

/* RCCL's AllToAllv: the count recorded is the largest of its send and receive counts. */
static size_t alltoallv_count(ncclComm_t comm, const size_t *sendcounts, const size_t *recvcounts)
{
	struct tprof_nccl_comm *e = nccl_comm(comm);
	size_t most = 0;
	for (int i = 0; e && i < e->nranks; i++) {
		if (sendcounts && sendcounts[i] > most)
			most = sendcounts[i];
		if (recvcounts && recvcounts[i] > most)
			most = recvcounts[i];
	}
	return most;
}

NCCL_WORK(ncclAllToAllv, (const void *sendbuff, const size_t sendcounts[], const size_t sdispls[],
			  void *recvbuff, const size_t recvcounts[], const size_t rdispls[],
			  ncclDataType_t datatype, ncclComm_t comm, ncclStream_t stream),
	  (sendbuff, sendcounts, sdispls, recvbuff, recvcounts, rdispls, datatype, comm, stream),
	  OP(ALLTOALLV), .count = alltoallv_count(comm, sendcounts, recvcounts),
	  .dtype = datatype, .redop = NONE, .peer = NONE, BUFS(sendbuff, recvbuff, SAME))

