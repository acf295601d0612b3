/* hook-nccl.h — the NCCL/RCCL functions tprof wraps, listed once as data, and what their
 * wrappers share.  NCCL (libnccl.so.2) and RCCL (librccl.so.1) export the same nccl* names
 * with the same C prototypes but for the stream type (cudaStream_t or hipStream_t, both
 * pointers: a void * here), so one set of wrappers serves both; names a library lacks
 * (NCCL's ncclAlltoAll against RCCL's ncclAllToAll, ncclAllToAllv, ncclGather before NCCL
 * 2.28) are never resolved and never called.
 *
 * Q entries get a generated wrapper with nothing to record but the call; QC ones record the
 * communicator they are given first (its id, rank, size, device); H entries are written by
 * hand: hook-nccl.c (communicators, unique ids, memory, groups), hook-nccl-work.c
 * (collectives, send/recv). */
#ifndef TPROF_HOOK_NCCL_H
#define TPROF_HOOK_NCCL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../events/api.h"
#include "../events/callstack.h"
#include "nccl-comm.h"
#include "nccl-rt.h"
#include "../core/resolve.h"

typedef int ncclResult_t;
typedef int ncclDataType_t;
typedef int ncclRedOp_t;
typedef void *ncclComm_t;
typedef void *ncclStream_t;         /* cudaStream_t or hipStream_t */
typedef void ncclConfig_t;          /* versioned layout: never looked into */
typedef struct {
	char internal[TPROF_NCCL_UNIQUE_ID_BYTES];
} ncclUniqueId;

enum {
	ncclSuccess = 0,
	ncclSystemError = 2,
	ncclInProgress = 7,
	NCCL_SPLIT_NOCOLOR = -1,
};

/* What a wrapper returns when the library itself cannot be found. */
#define NCCL_NO_LIB ncclSystemError

#define NCCL_API(X)                                                                           \
	/* version, ids, communicators */                                                     \
	X(Q, ncclGetVersion, (int *version), (version))                                       \
	X(H, ncclGetUniqueId, (ncclUniqueId *uniqueId), (uniqueId))                           \
	X(H, ncclCommInitRank, (ncclComm_t *comm, int nranks, ncclUniqueId commId, int rank), \
	  (comm, nranks, commId, rank))                                                       \
	X(H, ncclCommInitRankConfig, (ncclComm_t *comm, int nranks, ncclUniqueId commId,      \
				      int rank, ncclConfig_t *config),                        \
	  (comm, nranks, commId, rank, config))                                               \
	X(H, ncclCommInitAll, (ncclComm_t *comm, int ndev, const int *devlist),               \
	  (comm, ndev, devlist))                                                              \
	X(H, ncclCommInitRankScalable, (ncclComm_t *newcomm, int nranks, int myrank, int nId, \
					ncclUniqueId *commIds, ncclConfig_t *config),         \
	  (newcomm, nranks, myrank, nId, commIds, config))                                    \
	X(H, ncclCommSplit, (ncclComm_t comm, int color, int key, ncclComm_t *newcomm,        \
			     ncclConfig_t *config), (comm, color, key, newcomm, config))      \
	X(H, ncclCommFinalize, (ncclComm_t comm), (comm))                                     \
	X(H, ncclCommDestroy, (ncclComm_t comm), (comm))                                      \
	X(H, ncclCommAbort, (ncclComm_t comm), (comm))                                        \
	X(QC, ncclCommGetAsyncError, (ncclComm_t comm, ncclResult_t *asyncError),             \
	  (comm, asyncError))                                                                 \
	X(QC, ncclCommCount, (const ncclComm_t comm, int *count), (comm, count))              \
	X(QC, ncclCommCuDevice, (const ncclComm_t comm, int *device), (comm, device))         \
	X(QC, ncclCommUserRank, (const ncclComm_t comm, int *rank), (comm, rank))             \
	X(H, ncclCommRegister, (const ncclComm_t comm, void *buff, size_t size, void **handle), \
	  (comm, buff, size, handle))                                                         \
	X(QC, ncclCommDeregister, (const ncclComm_t comm, void *handle), (comm, handle))      \
	X(QC, ncclRedOpCreatePreMulSum, (ncclRedOp_t *op, void *scalar, ncclDataType_t dtype, \
					 int residence, ncclComm_t comm),                     \
	  (op, scalar, dtype, residence, comm))                                               \
	X(QC, ncclRedOpDestroy, (ncclRedOp_t op, ncclComm_t comm), (op, comm))                \
	X(H, ncclMemAlloc, (void **ptr, size_t size), (ptr, size))                            \
	X(Q, ncclMemFree, (void *ptr), (ptr))                                                 \
	/* collectives */                                                                     \
	X(H, ncclAllReduce, (const void *sendbuff, void *recvbuff, size_t count,              \
			     ncclDataType_t datatype, ncclRedOp_t op, ncclComm_t comm,        \
			     ncclStream_t stream),                                            \
	  (sendbuff, recvbuff, count, datatype, op, comm, stream))                            \
	X(H, ncclBroadcast, (const void *sendbuff, void *recvbuff, size_t count,              \
			     ncclDataType_t datatype, int root, ncclComm_t comm,              \
			     ncclStream_t stream),                                            \
	  (sendbuff, recvbuff, count, datatype, root, comm, stream))                          \
	X(H, ncclBcast, (void *buff, size_t count, ncclDataType_t datatype, int root,         \
			 ncclComm_t comm, ncclStream_t stream),                               \
	  (buff, count, datatype, root, comm, stream))                                        \
	X(H, ncclReduce, (const void *sendbuff, void *recvbuff, size_t count,                 \
			  ncclDataType_t datatype, ncclRedOp_t op, int root, ncclComm_t comm, \
			  ncclStream_t stream),                                               \
	  (sendbuff, recvbuff, count, datatype, op, root, comm, stream))                      \
	X(H, ncclAllGather, (const void *sendbuff, void *recvbuff, size_t sendcount,          \
			     ncclDataType_t datatype, ncclComm_t comm, ncclStream_t stream),  \
	  (sendbuff, recvbuff, sendcount, datatype, comm, stream))                            \
	X(H, ncclReduceScatter, (const void *sendbuff, void *recvbuff, size_t recvcount,      \
				 ncclDataType_t datatype, ncclRedOp_t op, ncclComm_t comm,    \
				 ncclStream_t stream),                                        \
	  (sendbuff, recvbuff, recvcount, datatype, op, comm, stream))                        \
	X(H, ncclAlltoAll, (const void *sendbuff, void *recvbuff, size_t count,               \
			    ncclDataType_t datatype, ncclComm_t comm, ncclStream_t stream),   \
	  (sendbuff, recvbuff, count, datatype, comm, stream))                                \
	X(H, ncclAllToAll, (const void *sendbuff, void *recvbuff, size_t count,               \
			    ncclDataType_t datatype, ncclComm_t comm, ncclStream_t stream),   \
	  (sendbuff, recvbuff, count, datatype, comm, stream))                                \
	X(H, ncclAllToAllv, (const void *sendbuff, const size_t sendcounts[],                 \
			     const size_t sdispls[], void *recvbuff, const size_t recvcounts[], \
			     const size_t rdispls[], ncclDataType_t datatype, ncclComm_t comm, \
			     ncclStream_t stream),                                            \
	  (sendbuff, sendcounts, sdispls, recvbuff, recvcounts, rdispls, datatype, comm, stream)) \
	X(H, ncclGather, (const void *sendbuff, void *recvbuff, size_t count,                 \
			  ncclDataType_t datatype, int root, ncclComm_t comm, ncclStream_t stream), \
	  (sendbuff, recvbuff, count, datatype, root, comm, stream))                          \
	X(H, ncclScatter, (const void *sendbuff, void *recvbuff, size_t count,                \
			   ncclDataType_t datatype, int root, ncclComm_t comm, ncclStream_t stream), \
	  (sendbuff, recvbuff, count, datatype, root, comm, stream))                          \
	/* point-to-point */                                                                  \
	X(H, ncclSend, (const void *sendbuff, size_t count, ncclDataType_t datatype, int peer, \
			ncclComm_t comm, ncclStream_t stream),                                \
	  (sendbuff, count, datatype, peer, comm, stream))                                    \
	X(H, ncclRecv, (void *recvbuff, size_t count, ncclDataType_t datatype, int peer,      \
			ncclComm_t comm, ncclStream_t stream),                                \
	  (recvbuff, count, datatype, peer, comm, stream))                                    \
	/* groups */                                                                          \
	X(H, ncclGroupStart, (void), ())                                                      \
	X(H, ncclGroupEnd, (void), ())

#define NCCL_DECLARE(kind, name, params, args)                                            \
	TPROF_REAL_EXTERN(ncclResult_t, name, params, tprof_resolve)
NCCL_API(NCCL_DECLARE)
#undef NCCL_DECLARE

/* The wrappers themselves, exported under the library's names. */
#define NCCL_PROTO(kind, name, params, args) TPROF_EXPORT ncclResult_t name params;
NCCL_API(NCCL_PROTO)
#undef NCCL_PROTO

#define NCCL_INDEX(kind, name, params, args) NCCLH_##name,
enum nccl_hook_index {
	NCCL_API(NCCL_INDEX)
	NCCLH_COUNT
};
#undef NCCL_INDEX

extern struct tprof_hook tprof_nccl_hooks[];
#define NCCL_HOOK(name) (&tprof_nccl_hooks[NCCLH_##name])

/* ---- one recorded call ------------------------------------------------------------------- */

/* An NCCL call being recorded (struct tprof_call, events/api.h): its arguments go to `a` and
 * `b`, in the CALL record or scratch space. */
struct nccl_call {
	struct tprof_call call;
	struct tprof_nccl_args *a;
	struct tprof_nccl_args2 *b;
};

/* Reserves the CALL (two argument units) with `op`, the library's flags and no communicator
 * yet; the correlation id is taken even when the call is filtered out (groups and device
 * records refer to it).  With `caller` set and TPROF_CALLSTACK on, the call's stack is
 * written first (STACK) and its calling function's name id put there.  0 when this thread
 * cannot record now: call the real function. */
static inline int nccl_begin(struct nccl_call *c, struct tprof_thread *t, struct tprof_hook *h,
			     uint8_t op, void *real, uint32_t *caller)
{
	if (TPROF_UNLIKELY(tprof_thread_enter(t) < 0))
		return 0;
	uint64_t corr = tprof_next_corr(t);
	if (caller) {
		*caller = 0;
		if (TPROF_UNLIKELY(tprof_g.cfg.callstack)) {
			t->guard++;
			*caller = tprof_callstack(t, corr);
			t->guard--;
		}
	}
	uint8_t flags = tprof_nccl_lib_flags(real);
	void *u[2];
	tprof_call_begin(&c->call, t, h, 2, 2, u);
	c->call.corr = corr;
	c->a = u[0];
	c->b = u[1];
	c->a->op = op;
	c->a->redop = 0xff;
	c->a->flags = flags;
	c->b->peer = -1;
	c->b->rank = -1;
	c->b->device = -1;
	return 1;
}

/* Fills the communicator's part of the arguments from its entry (NULL: unknown). */
static inline void nccl_comm_args(struct nccl_call *c, const struct tprof_nccl_comm *e)
{
	if (!e)
		return;
	c->a->comm = e->id;
	c->b->rank = e->rank;
	c->b->nranks = e->nranks;
	c->b->device = e->device;
}

/* The entry of a communicator handle: from the table, or (slow path, hook-nccl.c) one
 * made now for a communicator the wrappers did not see created; NULL for no communicator. */
struct tprof_nccl_comm *nccl_comm_describe(ncclComm_t comm);
static inline struct tprof_nccl_comm *nccl_comm(ncclComm_t comm)
{
	struct tprof_nccl_comm *e = tprof_nccl_comm_find(comm);
	return TPROF_LIKELY(e != NULL) || !tprof_handle_is_key(comm) ? e : nccl_comm_describe(comm);
}

#endif
