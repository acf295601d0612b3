/* colls.c — the collective and point-to-point entry points.  Each validates its arguments as
 * NCCL does (ncclInvalidArgument with the reason in ncclGetLastError), describes the operation
 * and hands it on: launched on its stream at once, or at the outermost ncclGroupEnd.  It
 * returns without waiting for the operation (or for the peers).  ncclBcast calls
 * ncclBroadcast through the exported symbol, as NCCL does, so an interposer sees both. */
#include "internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct call {
	const char *fn;
	enum sn_kind kind;
	const void *sendbuff;
	void *recvbuff;
	size_t count;
	ncclDataType_t dtype;
	int redop;            /* -1: not a reduction */
	int root;             /* root, peer, or -1 */
	ncclComm_t comm;
	hipStream_t stream;
	const size_t *v[4];   /* all-to-all-v */
};

static int reducing(enum sn_kind k)
{
	return k == SN_ALLREDUCE || k == SN_REDUCE || k == SN_REDUCESCATTER;
}

static int rooted(enum sn_kind k)
{
	return k == SN_BROADCAST || k == SN_REDUCE || k == SN_GATHER || k == SN_SCATTER;
}

/* Whether this rank reads sendbuff / writes recvbuff. */
static int reads_send(const struct call *a, int rank)
{
	if (a->kind == SN_RECV)
		return 0;
	if (a->kind == SN_BROADCAST || a->kind == SN_SCATTER)
		return rank == a->root;
	return 1;
}

static int writes_recv(const struct call *a, int rank)
{
	if (a->kind == SN_SEND)
		return 0;
	if (a->kind == SN_REDUCE || a->kind == SN_GATHER)
		return rank == a->root;
	return 1;
}

/* Elements the operation covers per count (nranks x for per-peer counts). */
static size_t span(const struct call *a, int nranks)
{
	switch (a->kind) {
	case SN_ALLGATHER: case SN_REDUCESCATTER: case SN_ALLTOALL: case SN_GATHER: case SN_SCATTER:
		return (size_t)nranks;
	default:
		return 1;
	}
}

static ncclResult_t check_redop(const struct call *a)
{
	const struct sn_user_op *u;
	if (a->redop >= 0 && a->redop < ncclNumOps)
		return ncclSuccess;
	u = a->redop >= ncclNumOps && a->redop < ncclNumOps + SN_MAX_USER_OPS
		    ? &a->comm->uops[a->redop - ncclNumOps] : NULL;
	if (!u || !u->used)
		return sn_fail(ncclInvalidArgument, "%s : invalid reduction operation %d", a->fn,
			       a->redop);
	if (u->dtype != (int)a->dtype)
		return sn_fail(ncclInvalidArgument,
			       "%s : reduction operation %d was made for datatype %d, not %d",
			       a->fn, a->redop, u->dtype, (int)a->dtype);
	return ncclSuccess;
}

static ncclResult_t check(const struct call *a, size_t es)
{
	int n = a->comm->nranks, i;
	if (!es)
		return sn_fail(ncclInvalidArgument, "%s : invalid type %d", a->fn, (int)a->dtype);
	if (reducing(a->kind) && check_redop(a) != ncclSuccess)
		return ncclInvalidArgument;
	if (rooted(a->kind) && (a->root < 0 || a->root >= n))
		return sn_fail(ncclInvalidArgument,
			       "%s : invalid root %d (root should be in the 0..%d range)", a->fn,
			       a->root, n - 1);
	if ((a->kind == SN_SEND || a->kind == SN_RECV) && (a->root < 0 || a->root >= n))
		return sn_fail(ncclInvalidArgument,
			       "%s : invalid peer %d (peer should be in the 0..%d range)", a->fn,
			       a->root, n - 1);
	if (a->kind == SN_ALLTOALLV) {
		for (i = 0; i < 4; i++)
			if (!a->v[i])
				return sn_fail(ncclInvalidArgument, "%s : count or displacement "
					       "array %d is NULL", a->fn, i);
	} else if (a->count > SIZE_MAX / es / span(a, n)) {
		return sn_fail(ncclInvalidArgument, "%s : count %zu is too large", a->fn, a->count);
	}
	if ((a->count || a->kind == SN_ALLTOALLV) && reads_send(a, a->comm->rank) && !a->sendbuff)
		return sn_fail(ncclInvalidArgument, "%s : sendbuff argument is NULL", a->fn);
	if ((a->count || a->kind == SN_ALLTOALLV) && writes_recv(a, a->comm->rank) && !a->recvbuff)
		return sn_fail(ncclInvalidArgument, "%s : recvbuff argument is NULL", a->fn);
	return ncclSuccess;
}

/* The nccl-tests "size" of the operation: the larger of its send and receive buffers. */
static uint64_t model_bytes(const struct sn_op *op)
{
	size_t n = (size_t)op->comm->nranks, i, s = 0, r = 0;
	if (op->kind != SN_ALLTOALLV)
		return (uint64_t)op->count * op->esize *
		       (op->kind >= SN_ALLGATHER && op->kind <= SN_SCATTER ? n : 1);
	for (i = 0; i < n; i++) {
		s += op->v[i];
		r += op->v[2 * n + i];
	}
	return (uint64_t)(s > r ? s : r) * op->esize;
}

/* How the reduction is computed: NCCL's average is a pre-multiplied sum (by 1/nranks) for
 * floating-point types and a sum divided afterwards for integers. */
static void set_reduction(struct sn_op *op)
{
	struct ncclComm *c = op->comm;
	if (op->redop == ncclAvg) {
		if (sn_dtype_is_float(op->dtype)) {
			op->premul = 1;
			sn_from_double(op->scalar, op->dtype, 1.0 / c->nranks);
		} else {
			op->postdiv = 1;
		}
	} else if (op->redop >= ncclNumOps) {
		const struct sn_user_op *u = &c->uops[op->redop - ncclNumOps];
		op->premul = 1;
		if (u->residence == ncclScalarHostImmediate)
			memcpy(op->scalar, u->value, op->esize);
	}
}

static ncclResult_t enqueue(const struct call *a)
{
	struct sn_op *op;
	size_t es = sn_dtype_size(a->dtype), i, n;
	ncclResult_t r;
	sn_init();
	r = sn_comm_check(a->comm, a->fn);
	if (r == ncclSuccess)
		r = check(a, es);
	if (r != ncclSuccess)
		return sn_group_error(r);
	op = calloc(1, sizeof(*op));
	n = (size_t)a->comm->nranks;
	if (op && a->kind == SN_ALLTOALLV) {
		op->v = malloc(4 * n * sizeof(size_t));
		if (op->v)
			for (i = 0; i < 4; i++)
				memcpy(op->v + i * n, a->v[i], n * sizeof(size_t));
	}
	if (!op || (a->kind == SN_ALLTOALLV && !op->v)) {
		free(op);
		return sn_group_error(sn_fail(ncclSystemError, "standin-nccl: out of memory"));
	}
	op->kind = a->kind;
	op->comm = a->comm;
	op->sendbuff = a->sendbuff;
	op->recvbuff = a->recvbuff;
	op->count = a->count;
	op->dtype = a->dtype;
	op->esize = es;
	op->redop = reducing(a->kind) ? a->redop : -1;
	op->root = a->root;
	op->stream = a->stream;
	op->model_bytes = model_bytes(op);
	if (reducing(a->kind))
		set_reduction(op);
	return sn_group_error(sn_submit(op));
}

#define CALL(fn_, kind_, send_, recv_, count_, dtype_, redop_, root_, comm_, stream_, ...)    \
	enqueue(&(struct call){.fn = fn_, .kind = kind_, .sendbuff = send_, .recvbuff = recv_,   \
			       .count = count_, .dtype = dtype_, .redop = redop_, .root = root_,  \
			       .comm = comm_, .stream = stream_, __VA_ARGS__})

SN_API(ncclResult_t, ncclAllReduce, const void *sendbuff, void *recvbuff, size_t count,
       ncclDataType_t datatype, ncclRedOp_t op, ncclComm_t comm, hipStream_t stream)
{
	return CALL("AllReduce", SN_ALLREDUCE, sendbuff, recvbuff, count, datatype, op, -1, comm,
		    stream);
}

SN_API(ncclResult_t, ncclBroadcast, const void *sendbuff, void *recvbuff, size_t count,
       ncclDataType_t datatype, int root, ncclComm_t comm, hipStream_t stream)
{
	return CALL("Broadcast", SN_BROADCAST, sendbuff, recvbuff, count, datatype, -1, root,
		    comm, stream);
}

SN_API(ncclResult_t, ncclBcast, void *buff, size_t count, ncclDataType_t datatype, int root,
       ncclComm_t comm, hipStream_t stream)
{
	return ncclBroadcast(buff, buff, count, datatype, root, comm, stream);
}

SN_API(ncclResult_t, ncclReduce, const void *sendbuff, void *recvbuff, size_t count,
       ncclDataType_t datatype, ncclRedOp_t op, int root, ncclComm_t comm, hipStream_t stream)
{
	return CALL("Reduce", SN_REDUCE, sendbuff, recvbuff, count, datatype, op, root, comm,
		    stream);
}

SN_API(ncclResult_t, ncclAllGather, const void *sendbuff, void *recvbuff, size_t sendcount,
       ncclDataType_t datatype, ncclComm_t comm, hipStream_t stream)
{
	return CALL("AllGather", SN_ALLGATHER, sendbuff, recvbuff, sendcount, datatype, -1, -1,
		    comm, stream);
}

SN_API(ncclResult_t, ncclReduceScatter, const void *sendbuff, void *recvbuff, size_t recvcount,
       ncclDataType_t datatype, ncclRedOp_t op, ncclComm_t comm, hipStream_t stream)
{
	return CALL("ReduceScatter", SN_REDUCESCATTER, sendbuff, recvbuff, recvcount, datatype,
		    op, -1, comm, stream);
}

#ifdef STANDIN_RCCL
SN_API(ncclResult_t, ncclAllToAll, const void *sendbuff, void *recvbuff, size_t count,
       ncclDataType_t datatype, ncclComm_t comm, hipStream_t stream)
{
	return CALL("AllToAll", SN_ALLTOALL, sendbuff, recvbuff, count, datatype, -1, -1, comm,
		    stream);
}

SN_API(ncclResult_t, ncclAllToAllv, const void *sendbuff, const size_t sendcounts[],
       const size_t sdispls[], void *recvbuff, const size_t recvcounts[],
       const size_t rdispls[], ncclDataType_t datatype, ncclComm_t comm, hipStream_t stream)
{
	return CALL("AllToAllv", SN_ALLTOALLV, sendbuff, recvbuff, 0, datatype, -1, -1, comm,
		    stream, .v = {sendcounts, sdispls, recvcounts, rdispls});
}
#else
SN_API(ncclResult_t, ncclAlltoAll, const void *sendbuff, void *recvbuff, size_t count,
       ncclDataType_t datatype, ncclComm_t comm, hipStream_t stream)
{
	return CALL("AlltoAll", SN_ALLTOALL, sendbuff, recvbuff, count, datatype, -1, -1, comm,
		    stream);
}
#endif

SN_API(ncclResult_t, ncclGather, const void *sendbuff, void *recvbuff, size_t count,
       ncclDataType_t datatype, int root, ncclComm_t comm, hipStream_t stream)
{
	return CALL("Gather", SN_GATHER, sendbuff, recvbuff, count, datatype, -1, root, comm,
		    stream);
}

SN_API(ncclResult_t, ncclScatter, const void *sendbuff, void *recvbuff, size_t count,
       ncclDataType_t datatype, int root, ncclComm_t comm, hipStream_t stream)
{
	return CALL("Scatter", SN_SCATTER, sendbuff, recvbuff, count, datatype, -1, root, comm,
		    stream);
}

SN_API(ncclResult_t, ncclSend, const void *sendbuff, size_t count, ncclDataType_t datatype,
       int peer, ncclComm_t comm, hipStream_t stream)
{
	return CALL("Send", SN_SEND, sendbuff, NULL, count, datatype, -1, peer, comm, stream);
}

SN_API(ncclResult_t, ncclRecv, void *recvbuff, size_t count, ncclDataType_t datatype, int peer,
       ncclComm_t comm, hipStream_t stream)
{
	return CALL("Recv", SN_RECV, NULL, recvbuff, count, datatype, -1, peer, comm, stream);
}
