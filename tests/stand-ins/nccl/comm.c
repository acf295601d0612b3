/* comm.c — the communicator API: unique ids, ncclCommInitRank and its variants (blocking
 * until every rank has joined; non-blocking with ncclConfig_t.blocking = 0, where the call
 * returns ncclInProgress and ncclCommGetAsyncError tells when it is done; deferred to
 * ncclGroupEnd inside a group), ncclCommInitAll (one process, a thread per device),
 * finalize / destroy / abort, the queries, user reduction operations and NCCL's memory
 * helpers. */
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#define CONFIG_MAGIC 0xcafebeefu

SN_API(ncclResult_t, ncclGetUniqueId, ncclUniqueId *uniqueId)
{
	uint64_t t;
	int32_t pid = (int32_t)getpid();
	sn_init();
	if (!uniqueId)
		return sn_fail(ncclInvalidArgument, "ncclGetUniqueId : uniqueId argument is NULL");
	memset(uniqueId, 0, sizeof(*uniqueId));
	memcpy(uniqueId->internal, "SNCL", 4);
	if (getrandom(uniqueId->internal + 4, 16, 0) != 16) {
		t = sn_now_ns() ^ ((uint64_t)pid << 32);
		memcpy(uniqueId->internal + 4, &t, 8);
	}
	t = sn_now_ns();
	memcpy(uniqueId->internal + 20, &pid, 4);
	memcpy(uniqueId->internal + 24, &t, 8);
	return ncclSuccess;
}

/* ncclConfig_t: only `blocking` matters here; an unset field keeps the default. */
static ncclResult_t read_config(const ncclConfig_t *cfg, int *blocking, const char *fn)
{
	if (!cfg)
		return ncclSuccess;
	if (cfg->magic != CONFIG_MAGIC || cfg->size < offsetof(ncclConfig_t, cgaClusterSize))
		return sn_fail(ncclInvalidArgument, "%s : config is not an ncclConfig_t "
			       "(use NCCL_CONFIG_INITIALIZER)", fn);
	if (cfg->blocking != NCCL_CONFIG_UNDEF_INT)
		*blocking = cfg->blocking != 0;
	return ncclSuccess;
}

static void *init_main(void *arg)
{
	sn_comm_join(arg);
	return NULL;
}

/* Joins now, at ncclGroupEnd, or in a thread of its own (non-blocking). */
static ncclResult_t start(struct ncclComm *c, ncclComm_t *out)
{
	ncclResult_t r;
	*out = c;
	if (sn_group_depth() > 0) {
		c->deferred = 1;
		sn_group_add_init(c);
		return ncclSuccess;
	}
	if (!c->blocking) {
		if (pthread_create(&c->init_thread, NULL, init_main, c) == 0) {
			c->init_thread_live = 1;
			return ncclInProgress;
		}
	}
	r = sn_comm_join(c);
	if (r != ncclSuccess) {
		sn_comm_leave(c);
		*out = NULL;
	}
	return r;
}

static ncclResult_t init_rank(ncclComm_t *comm, int nranks, const ncclUniqueId *id, int rank,
			      const ncclConfig_t *config, const char *fn)
{
	struct ncclComm *c;
	int dev = 0, blocking = 1;
	ncclResult_t r;
	sn_init();
	if (!comm)
		return sn_group_error(sn_fail(ncclInvalidArgument, "%s : comm argument is NULL", fn));
	if (nranks < 1 || nranks > SN_MAX_RANKS)
		return sn_group_error(sn_fail(ncclInvalidArgument,
					      "%s : invalid nranks %d (1..%d)", fn, nranks,
					      SN_MAX_RANKS));
	if (rank < 0 || rank >= nranks)
		return sn_group_error(sn_fail(ncclInvalidArgument,
					      "%s : rank %d out of range (nranks %d)", fn, rank,
					      nranks));
	r = read_config(config, &blocking, fn);
	if (r != ncclSuccess)
		return sn_group_error(r);
	if (hipGetDevice(&dev) != hipSuccess)
		return sn_group_error(sn_fail(ncclUnhandledCudaError, "%s : hipGetDevice failed",
					      fn));
	c = sn_comm_new(id, nranks, rank, dev);
	if (!c)
		return sn_group_error(sn_fail(ncclSystemError, "standin-nccl: out of memory"));
	c->blocking = blocking;
	return sn_group_error(start(c, comm));
}

SN_API(ncclResult_t, ncclCommInitRank, ncclComm_t *comm, int nranks, ncclUniqueId commId,
       int rank)
{
	return init_rank(comm, nranks, &commId, rank, NULL, "ncclCommInitRank");
}

SN_API(ncclResult_t, ncclCommInitRankConfig, ncclComm_t *comm, int nranks, ncclUniqueId commId,
       int rank, ncclConfig_t *config)
{
	return init_rank(comm, nranks, &commId, rank, config, "ncclCommInitRankConfig");
}

#ifndef STANDIN_RCCL
/* Several ids spread the bootstrap of a large job in NCCL; every rank passes the same ones,
 * so the first names the communicator here. */
SN_API(ncclResult_t, ncclCommInitRankScalable, ncclComm_t *newcomm, int nranks, int myrank,
       int nId, ncclUniqueId *commIds, ncclConfig_t *config)
{
	if (nId < 1 || !commIds)
		return sn_fail(ncclInvalidArgument, "ncclCommInitRankScalable : no ids (nId %d)", nId);
	return init_rank(newcomm, nranks, &commIds[0], myrank, config, "ncclCommInitRankScalable");
}
#endif

SN_API(ncclResult_t, ncclCommInitAll, ncclComm_t *comm, int ndev, const int *devlist)
{
	struct ncclComm **cs;
	ncclUniqueId id;
	int i, j, count = 0;
	ncclResult_t r;
	sn_init();
	if (!comm)
		return sn_fail(ncclInvalidArgument, "ncclCommInitAll : comm argument is NULL");
	if (ndev < 1 || ndev > SN_MAX_RANKS)
		return sn_fail(ncclInvalidArgument, "ncclCommInitAll : invalid ndev %d", ndev);
	if (hipGetDeviceCount(&count) != hipSuccess)
		return sn_fail(ncclUnhandledCudaError, "ncclCommInitAll : hipGetDeviceCount failed");
	for (i = 0; i < ndev; i++) {
		int d = devlist ? devlist[i] : i;
		if (d < 0 || d >= count)
			return sn_fail(ncclInvalidArgument, "ncclCommInitAll : invalid device %d "
				       "(%d devices)", d, count);
		for (j = 0; devlist && j < i; j++)
			if (devlist[j] == d)
				return sn_fail(ncclInvalidUsage,
					       "ncclCommInitAll : duplicate device %d in devlist", d);
	}
	ncclGetUniqueId(&id); /* through the exported symbol, as NCCL does */
	cs = calloc((size_t)ndev, sizeof(*cs));
	if (!cs)
		return sn_fail(ncclSystemError, "standin-nccl: out of memory");
	for (i = 0; i < ndev; i++)
		if (!(cs[i] = sn_comm_new(&id, ndev, i, devlist ? devlist[i] : i)))
			break;
	r = i < ndev ? sn_fail(ncclSystemError, "standin-nccl: out of memory")
		     : sn_comm_join_all(cs, ndev);
	for (i = 0; i < ndev; i++) {
		if (r != ncclSuccess && cs[i])
			sn_comm_leave(cs[i]);
		comm[i] = r == ncclSuccess ? cs[i] : NULL;
	}
	free(cs);
	return r;
}

/* ------------------------------------------------------------------ end of life */
static ncclResult_t valid(struct ncclComm *c, const char *fn)
{
	if (!c)
		return sn_fail(ncclInvalidArgument, "%s : comm argument is NULL", fn);
	if (c->magic != SN_COMM_MAGIC)
		return sn_fail(ncclInvalidArgument, "%s : comm %p is not a communicator", fn,
			       (void *)c);
	if (atomic_load(&c->state) == SN_COMM_DEAD)
		return sn_fail(ncclInvalidArgument, "%s : communicator %p was destroyed", fn,
			       (void *)c);
	return ncclSuccess;
}

static void join_init_thread(struct ncclComm *c)
{
	if (c->init_thread_live) {
		pthread_join(c->init_thread, NULL);
		c->init_thread_live = 0;
	}
}

SN_API(ncclResult_t, ncclCommFinalize, ncclComm_t comm)
{
	ncclResult_t r = valid(comm, "ncclCommFinalize");
	int expect = SN_COMM_READY;
	if (r != ncclSuccess)
		return r;
	join_init_thread(comm);
	sn_comm_wait_idle(comm);
	atomic_compare_exchange_strong(&comm->state, &expect, SN_COMM_FINALIZED);
	return ncclSuccess;
}

SN_API(ncclResult_t, ncclCommDestroy, ncclComm_t comm)
{
	ncclResult_t r;
	if (!comm)
		return ncclSuccess;
	r = valid(comm, "ncclCommDestroy");
	if (r != ncclSuccess)
		return r;
	join_init_thread(comm);
	sn_comm_wait_idle(comm);
	sn_comm_leave(comm);
	return ncclSuccess;
}

/* Operations in flight end at once with an error; the other ranks' get ncclRemoteError. */
SN_API(ncclResult_t, ncclCommAbort, ncclComm_t comm)
{
	ncclResult_t r;
	int expect = 0;
	if (!comm)
		return ncclSuccess;
	r = valid(comm, "ncclCommAbort");
	if (r != ncclSuccess)
		return r;
	atomic_store(&comm->abort, 1);
	join_init_thread(comm);
	if (comm->seg) {
		atomic_compare_exchange_strong(&comm->seg->hdr->aborted, &expect, comm->rank + 1);
		sn_bell_ring(comm->seg);
	}
	sn_comm_wait_idle(comm);
	sn_comm_leave(comm);
	return ncclSuccess;
}

/* ------------------------------------------------------------------ queries */
SN_API(ncclResult_t, ncclCommGetAsyncError, ncclComm_t comm, ncclResult_t *asyncError)
{
	ncclResult_t r = valid(comm, "ncclCommGetAsyncError");
	if (r != ncclSuccess)
		return r;
	if (!asyncError)
		return sn_fail(ncclInvalidArgument, "ncclCommGetAsyncError : asyncError is NULL");
	*asyncError = atomic_load(&comm->state) == SN_COMM_INIT ? ncclInProgress
								 : (ncclResult_t)atomic_load(&comm->async_err);
	return ncclSuccess;
}

static ncclResult_t query(const struct ncclComm *c, int *out, int value, const char *fn)
{
	ncclResult_t r = valid((struct ncclComm *)c, fn);
	if (r != ncclSuccess)
		return r;
	if (!out)
		return sn_fail(ncclInvalidArgument, "%s : output argument is NULL", fn);
	*out = value;
	return ncclSuccess;
}

SN_API(ncclResult_t, ncclCommCount, const ncclComm_t comm, int *count)
{
	return query(comm, count, comm ? comm->nranks : 0, "ncclCommCount");
}

SN_API(ncclResult_t, ncclCommCuDevice, const ncclComm_t comm, int *device)
{
	return query(comm, device, comm ? comm->device : 0, "ncclCommCuDevice");
}

SN_API(ncclResult_t, ncclCommUserRank, const ncclComm_t comm, int *rank)
{
	return query(comm, rank, comm ? comm->rank : 0, "ncclCommUserRank");
}

/* ------------------------------------------------------------------ user reductions */
SN_API(ncclResult_t, ncclRedOpCreatePreMulSum, ncclRedOp_t *op, void *scalar,
       ncclDataType_t datatype, ncclScalarResidence_t residence, ncclComm_t comm)
{
	size_t es = sn_dtype_size(datatype);
	ncclResult_t r = valid(comm, "ncclRedOpCreatePreMulSum");
	int i;
	if (r != ncclSuccess)
		return r;
	if (!op || !scalar)
		return sn_fail(ncclInvalidArgument, "ncclRedOpCreatePreMulSum : NULL argument");
	if (!es)
		return sn_fail(ncclInvalidArgument, "ncclRedOpCreatePreMulSum : invalid type %d",
			       (int)datatype);
	if (residence != ncclScalarDevice && residence != ncclScalarHostImmediate)
		return sn_fail(ncclInvalidArgument, "ncclRedOpCreatePreMulSum : invalid residence %d",
			       (int)residence);
	for (i = 0; i < SN_MAX_USER_OPS && comm->uops[i].used; i++)
		;
	if (i == SN_MAX_USER_OPS)
		return sn_fail(ncclInvalidUsage, "ncclRedOpCreatePreMulSum : too many operations");
	comm->uops[i].used = 1;
	comm->uops[i].dtype = datatype;
	comm->uops[i].residence = residence;
	comm->uops[i].ptr = scalar;
	if (residence == ncclScalarHostImmediate)
		memcpy(comm->uops[i].value, scalar, es);
	*op = (ncclRedOp_t)(ncclNumOps + i);
	return ncclSuccess;
}

SN_API(ncclResult_t, ncclRedOpDestroy, ncclRedOp_t op, ncclComm_t comm)
{
	ncclResult_t r = valid(comm, "ncclRedOpDestroy");
	int i = (int)op - ncclNumOps;
	if (r != ncclSuccess)
		return r;
	if ((int)op < ncclNumOps)
		return sn_fail(ncclInvalidArgument, "ncclRedOpDestroy : %d is a built-in operation",
			       (int)op);
	if (i >= SN_MAX_USER_OPS || !comm->uops[i].used)
		return sn_fail(ncclInvalidArgument, "ncclRedOpDestroy : no operation %d", (int)op);
	comm->uops[i].used = 0;
	return ncclSuccess;
}

/* ------------------------------------------------------------------ memory */
SN_API(ncclResult_t, ncclMemAlloc, void **ptr, size_t size)
{
	if (!ptr)
		return sn_fail(ncclInvalidArgument, "ncclMemAlloc : ptr argument is NULL");
	return hipMalloc(ptr, size) == hipSuccess
		       ? ncclSuccess
		       : sn_fail(ncclUnhandledCudaError, "ncclMemAlloc : hipMalloc(%zu) failed", size);
}

SN_API(ncclResult_t, ncclMemFree, void *ptr)
{
	return hipFree(ptr) == hipSuccess
		       ? ncclSuccess
		       : sn_fail(ncclUnhandledCudaError, "ncclMemFree : hipFree(%p) failed", ptr);
}

/* Registration only speeds NCCL up; here every buffer is as good as registered. */
SN_API(ncclResult_t, ncclCommRegister, const ncclComm_t comm, void *buff, size_t size,
       void **handle)
{
	ncclResult_t r = valid(comm, "ncclCommRegister");
	if (r != ncclSuccess)
		return r;
	if (!handle)
		return sn_fail(ncclInvalidArgument, "ncclCommRegister : handle argument is NULL");
	*handle = buff;
	return ncclSuccess;
}

SN_API(ncclResult_t, ncclCommDeregister, const ncclComm_t comm, void *handle)
{
	return valid(comm, "ncclCommDeregister");
}
