/* hook-nccl-comm.c — NCCL/RCCL communicators: unique ids, creation (InitRank, InitRankConfig,
 * InitRankScalable, InitAll, Split), their end (Finalize, Destroy, Abort), and the calls that
 * register or allocate memory.  A communicator made through these wrappers is entered in
 * the table of nccl-comm.c with its id (the same on every rank), its rank, size and device
 * (asked of the library itself, after the real call), and the runtime whose events time its
 * work; one the wrappers never saw made gets an entry of its own at its first use. */
#include "hook-nccl.h"

/* Called with the guard up, after the real call made `comm`: its entry, with what the
 * library says of it where it can (a nonblocking communicator still being made cannot). */
static struct tprof_nccl_comm *comm_made(ncclComm_t comm, uint64_t id, int rank, int nranks)
{
	struct tprof_nccl_comm d = { .id = id, .rank = rank, .nranks = nranks, .device = -1 };
	int v;
	if (get_ncclCommUserRank() && real_ncclCommUserRank(comm, &v) == ncclSuccess)
		d.rank = v;
	if (get_ncclCommCount() && real_ncclCommCount(comm, &v) == ncclSuccess)
		d.nranks = v;
	if (get_ncclCommCuDevice() && real_ncclCommCuDevice(comm, &v) == ncclSuccess)
		d.device = v;
	d.rt = tprof_nccl_runtime();
	return tprof_nccl_comm_add(comm, &d);
}

struct tprof_nccl_comm *nccl_comm_describe(ncclComm_t comm)
{
	struct tprof_thread *t = &tprof_tls;
	t->guard++;
	struct tprof_nccl_comm *e = comm_made(comm, tprof_nccl_id_local(), -1, 0);
	t->guard--;
	return e;
}

/* What a creating call records once the library answered. */
static void made(struct nccl_call *c, ncclResult_t rc, ncclComm_t *out, uint64_t id, int rank,
		 int nranks)
{
	if ((rc != ncclSuccess && rc != ncclInProgress) || !out || !*out)
		return;
	nccl_comm_args(c, comm_made(*out, id, rank, nranks));
}

static inline int taken(ncclResult_t rc)
{
	return rc == ncclSuccess || rc == ncclInProgress;
}

/* ---- unique ids and creation ------------------------------------------------------------- */

TPROF_EXPORT ncclResult_t ncclGetUniqueId(ncclUniqueId *uniqueId)
{
	NCCL_PROLOGUE(ncclGetUniqueId, TPROF_NCCL_OTHER, uniqueId);
	nccl_start(c);
	ncclResult_t rc = real(uniqueId);
	if (rc == ncclSuccess && uniqueId)
		c->a->comm = tprof_nccl_id_unique(uniqueId->internal);
	return nccl_end(c, rc);
}

#define NCCL_INIT_RANK(name, params, ...)                                                  \
	TPROF_EXPORT ncclResult_t name params                                               \
	{                                                                                   \
		NCCL_PROLOGUE(name, TPROF_NCCL_COMM_INIT, __VA_ARGS__);                     \
		uint64_t id = tprof_nccl_id_unique(commId.internal);                        \
		c->a->comm = id;                                                            \
		c->b->rank = rank;                                                          \
		c->b->nranks = nranks;                                                      \
		nccl_start(c);                                                              \
		ncclResult_t rc = real(__VA_ARGS__);                                        \
		made(c, rc, comm, id, rank, nranks);                                        \
		return nccl_end(c, rc);                                                     \
	}

NCCL_INIT_RANK(ncclCommInitRank, (ncclComm_t *comm, int nranks, ncclUniqueId commId, int rank),
	       comm, nranks, commId, rank)
NCCL_INIT_RANK(ncclCommInitRankConfig, (ncclComm_t *comm, int nranks, ncclUniqueId commId,
					int rank, ncclConfig_t *config),
	       comm, nranks, commId, rank, config)

TPROF_EXPORT ncclResult_t ncclCommInitRankScalable(ncclComm_t *newcomm, int nranks, int myrank,
						   int nId, ncclUniqueId *commIds,
						   ncclConfig_t *config)
{
	NCCL_PROLOGUE(ncclCommInitRankScalable, TPROF_NCCL_COMM_INIT, newcomm, nranks, myrank, nId,
		      commIds, config);
	uint64_t id = tprof_nccl_id_uniques(commIds, nId);
	c->a->comm = id;
	c->b->rank = myrank;
	c->b->nranks = nranks;
	nccl_start(c);
	ncclResult_t rc = real(newcomm, nranks, myrank, nId, commIds, config);
	made(c, rc, newcomm, id, myrank, nranks);
	return nccl_end(c, rc);
}

/* One process holds every rank: one id for the communicator, an entry per rank. */
TPROF_EXPORT ncclResult_t ncclCommInitAll(ncclComm_t *comm, int ndev, const int *devlist)
{
	NCCL_PROLOGUE(ncclCommInitAll, TPROF_NCCL_COMM_INIT, comm, ndev, devlist);
	uint64_t id = tprof_nccl_id_local();
	c->a->comm = id;
	c->b->nranks = ndev;
	nccl_start(c);
	ncclResult_t rc = real(comm, ndev, devlist);
	for (int i = 0; taken(rc) && comm && i < ndev; i++)
		if (comm[i])
			comm_made(comm[i], id, i, ndev);
	return nccl_end(c, rc);
}

/* Every rank of the parent takes part, NCCL_SPLIT_NOCOLOR ones included (they get no
 * communicator), so the parent's split count agrees across ranks. */
TPROF_EXPORT ncclResult_t ncclCommSplit(ncclComm_t comm, int color, int key, ncclComm_t *newcomm,
					ncclConfig_t *config)
{
	NCCL_PROLOGUE(ncclCommSplit, TPROF_NCCL_COMM_SPLIT, comm, color, key, newcomm, config);
	struct tprof_nccl_comm *parent = nccl_comm(comm);
	uint32_t number = tprof_nccl_split_number(parent);
	uint64_t parent_id = parent ? parent->id : 0;
	uint64_t id = color == NCCL_SPLIT_NOCOLOR ? 0 : tprof_nccl_id_split(parent_id, number, color);
	c->a->comm = id;
	c->b->aux = parent_id;
	nccl_start(c);
	ncclResult_t rc = real(comm, color, key, newcomm, config);
	if (id)
		made(c, rc, newcomm, id, -1, 0);
	return nccl_end(c, rc);
}

/* ---- the end of a communicator ----------------------------------------------------------- */

#define NCCL_COMM_END(name, forget_when)                                                   \
	TPROF_EXPORT ncclResult_t name(ncclComm_t comm)                                     \
	{                                                                                   \
		NCCL_PROLOGUE(name, TPROF_NCCL_COMM_END, comm);                             \
		nccl_comm_args(c, tprof_nccl_comm_find(comm));                              \
		nccl_start(c);                                                              \
		ncclResult_t rc = real(comm);                                               \
		if (forget_when)                                                            \
			tprof_nccl_comm_forget(comm);                                       \
		return nccl_end(c, rc);                                                     \
	}

NCCL_COMM_END(ncclCommFinalize, 0)
NCCL_COMM_END(ncclCommDestroy, rc == ncclSuccess)
NCCL_COMM_END(ncclCommAbort, 1)

/* ---- memory ------------------------------------------------------------------------------ */

TPROF_EXPORT ncclResult_t ncclCommRegister(const ncclComm_t comm, void *buff, size_t size,
					   void **handle)
{
	NCCL_PROLOGUE(ncclCommRegister, TPROF_NCCL_OTHER, comm, buff, size, handle);
	nccl_comm_args(c, nccl_comm(comm));
	c->a->count = size;
	c->a->bytes = size;
	nccl_start(c);
	return nccl_end(c, real(comm, buff, size, handle));
}

TPROF_EXPORT ncclResult_t ncclMemAlloc(void **ptr, size_t size)
{
	NCCL_PROLOGUE(ncclMemAlloc, TPROF_NCCL_OTHER, ptr, size);
	c->a->count = size;
	c->a->bytes = size;
	nccl_start(c);
	return nccl_end(c, real(ptr, size));
}
