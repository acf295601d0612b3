/* nccl-host-lib.c — libncclhost.so: an NCCL of one-rank communicators whose "device" work runs
 * on the host inside each call, for the test of a collective library whose GPU runtime the
 * profiler cannot reach (as with a CUDA runtime linked statically, nvcc's default): it exports
 * the nccl* names the test program uses, with NCCL's prototypes, and loads no HIP or CUDA
 * runtime.  A stream is any pointer; buffers are host memory. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define API __attribute__((visibility("default")))

typedef struct {
	char internal[128];
} ncclUniqueId;
struct ncclComm {
	int rank, nranks;
};
typedef struct ncclComm *ncclComm_t;

static const size_t sizes[] = { 1, 1, 4, 4, 8, 8, 2, 4, 8, 2 };
static int depth;

API int ncclGetVersion(int *v);
API int ncclGetUniqueId(ncclUniqueId *id);
API int ncclCommInitRank(ncclComm_t *comm, int nranks, ncclUniqueId id, int rank);
API int ncclCommUserRank(const ncclComm_t comm, int *rank);
API int ncclCommCount(const ncclComm_t comm, int *count);
API int ncclCommCuDevice(const ncclComm_t comm, int *device);
API int ncclCommDestroy(ncclComm_t comm);
API int ncclAllReduce(const void *sendbuff, void *recvbuff, size_t count, int datatype, int op,
		      ncclComm_t comm, void *stream);
API int ncclGroupStart(void);
API int ncclGroupEnd(void);

int ncclGetVersion(int *v)
{
	*v = 22803;
	return 0;
}

int ncclGetUniqueId(ncclUniqueId *id)
{
	for (int i = 0; i < 128; i++)
		id->internal[i] = (char)(i * 7 + 3);
	return 0;
}

int ncclCommInitRank(ncclComm_t *comm, int nranks, ncclUniqueId id, int rank)
{
	(void)id;
	if (nranks != 1 || rank != 0 || !(*comm = calloc(1, sizeof(**comm))))
		return 4; /* ncclInvalidArgument: one rank only */
	(*comm)->nranks = 1;
	return 0;
}

int ncclCommUserRank(const ncclComm_t comm, int *rank)
{
	*rank = comm->rank;
	return 0;
}

int ncclCommCount(const ncclComm_t comm, int *count)
{
	*count = comm->nranks;
	return 0;
}

int ncclCommCuDevice(const ncclComm_t comm, int *device)
{
	(void)comm;
	*device = 0;
	return 0;
}

int ncclCommDestroy(ncclComm_t comm)
{
	free(comm);
	return 0;
}

/* One rank: the sum is the input. */
int ncclAllReduce(const void *sendbuff, void *recvbuff, size_t count, int datatype, int op,
		  ncclComm_t comm, void *stream)
{
	(void)op;
	(void)stream;
	if (!comm || datatype < 0 || datatype > 9)
		return 4;
	if (sendbuff != recvbuff)
		memmove(recvbuff, sendbuff, count * sizes[datatype]);
	return 0;
}

int ncclGroupStart(void)
{
	depth++;
	return 0;
}

int ncclGroupEnd(void)
{
	return depth-- > 0 ? 0 : 5; /* ncclInvalidUsage outside a group */
}
