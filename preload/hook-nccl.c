/* hook-nccl.c — NCCL and RCCL (libnccl.so.2, librccl.so.1, found at run time): the hook
 * table, the generated wrappers, and the calls that put work on a device: every collective,
 * send and receive (op, count, datatype, bytes, reduction, root or peer, communicator, its
 * number on the communicator, stream) and the groups they may be made in.  Outside a group
 * an operation is timed on its stream with two of the runtime's events around the real
 * call; inside one it is timed with its group (nccl-group.c).  The thread's guard is up
 * during the real call: what the library calls meanwhile (ncclBcast its ncclBroadcast, the
 * runtime's launches and events) is its own doing, not the program's.  Communicators are
 * wrapped in hook-nccl-comm.c. */
#include <string.h>

#include "hook-nccl.h"
#include "nccl-group.h"

#define NCCL_REAL(kind, name, params, args) name##_fn real_##name;
NCCL_API(NCCL_REAL)
#undef NCCL_REAL

/* ---- generated wrappers ------------------------------------------------------------------ */

#define NCCL_GEN_Q(name, params, args)                                                    \
	TPROF_EXPORT ncclResult_t name params                                              \
	{                                                                                  \
		NCCL_PROLOGUE(name, TPROF_NCCL_OTHER, NCCL_UNPAREN args);                  \
		nccl_start(c);                                                             \
		return nccl_end(c, real args);                                             \
	}
#define NCCL_GEN_QC(name, params, args)                                                   \
	TPROF_EXPORT ncclResult_t name params                                              \
	{                                                                                  \
		NCCL_PROLOGUE(name, TPROF_NCCL_OTHER, NCCL_UNPAREN args);                  \
		nccl_comm_args(c, nccl_comm(comm));                                        \
		nccl_start(c);                                                             \
		return nccl_end(c, real args);                                             \
	}
#define NCCL_GEN_H(name, params, args)
#define NCCL_UNPAREN(...) __VA_ARGS__
#define NCCL_GENERATE(kind, name, params, args) NCCL_GEN_##kind(name, params, args)
NCCL_API(NCCL_GENERATE)
#undef NCCL_GENERATE

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
	nccl_start(c);
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
		o->place = tprof_nccl_group_add(t, &o->g);
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
	p->corr = c->corr;
	p->kind = TPROF_DEVOP_COLLECTIVE;
	p->name = name;
	p->op.launch_t0 = c->r ? c->r->t0 : tprof_now();
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
		tprof_dev_end(o->c.t, o->p, ok);
	return nccl_end(&o->c, rc);
}

#define NCCL_WORK(name, params, args, ...)                                                \
	TPROF_EXPORT ncclResult_t name params                                              \
	{                                                                                  \
		struct tprof_thread *t = &tprof_tls;                                       \
		name##_fn real = get_##name();                                             \
		if (TPROF_UNLIKELY(!real))                                                 \
			return NCCL_NO_LIB;                                                \
		if (!tprof_should_record(t))                                               \
			return real args;                                                  \
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

/* ---- groups ------------------------------------------------------------------------------ */

/* Nesting is followed whenever the program (not the library, not the profiler) calls: the
 * group's operations are timed at its outermost end whatever gets recorded meanwhile. */
TPROF_EXPORT ncclResult_t ncclGroupStart(void)
{
	struct tprof_thread *t = &tprof_tls;
	ncclGroupStart_fn real = get_ncclGroupStart();
	if (TPROF_UNLIKELY(!real))
		return NCCL_NO_LIB;
	struct nccl_call c_, *c = &c_;
	if (t->guard)
		return real();
	if (!tprof_should_record(t) ||
	    !nccl_begin(c, t, NCCL_HOOK(ncclGroupStart), TPROF_NCCL_GROUP_START, (void *)real, NULL)) {
		ncclResult_t rc = real();
		if (rc == ncclSuccess)
			tprof_nccl_group_start(0);
		return rc;
	}
	c->b->aux = tprof_nccl_in_group() ? tprof_nccl_gs.id : c->corr;
	nccl_start(c);
	ncclResult_t rc = real();
	if (rc == ncclSuccess)
		tprof_nccl_group_start(c->corr);
	return nccl_end(c, rc);
}

TPROF_EXPORT ncclResult_t ncclGroupEnd(void)
{
	struct tprof_thread *t = &tprof_tls;
	ncclGroupEnd_fn real = get_ncclGroupEnd();
	if (TPROF_UNLIKELY(!real))
		return NCCL_NO_LIB;
	struct nccl_call c_, *c = &c_;
	if (t->guard)
		return real();
	int rec = tprof_should_record(t) &&
		  nccl_begin(c, t, NCCL_HOOK(ncclGroupEnd), TPROF_NCCL_GROUP_END, (void *)real, NULL);
	if (!rec) {
		ncclResult_t rc = real();
		t->guard++;
		tprof_nccl_group_end(t, 0, tprof_now(), 0, rc == ncclSuccess || rc == ncclInProgress);
		t->guard--;
		return rc;
	}
	c->b->aux = tprof_nccl_gs.id;
	nccl_start(c);
	uint64_t t0 = c->r ? c->r->t0 : tprof_now();
	ncclResult_t rc = real();
	tprof_nccl_group_end(t, c->corr, t0, tprof_hook_name(c->h),
			     rc == ncclSuccess || rc == ncclInProgress);
	return nccl_end(c, rc);
}

/* ---- the table --------------------------------------------------------------------------- */

#define NCCL_ENTRY(kind, name, params, args)                                              \
	[NCCLH_##name] = { #name, NULL, (void *)name, (void **)&real_##name, TPROF_DOM_NCCL, 1, 0, 0 },
struct tprof_hook tprof_nccl_hooks[NCCLH_COUNT] = {
	NCCL_API(NCCL_ENTRY)
};
const size_t tprof_nccl_nhooks = NCCLH_COUNT;
