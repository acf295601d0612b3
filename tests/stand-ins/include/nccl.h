/* nccl.h — the NCCL/RCCL API as the test programs see it: the real names, values and C
 * prototypes (NCCL 2.28, plus RCCL's own names), written for tprof's stand-in libnccl.so.2 /
 * librccl.so.1 (tests/stand-ins/nccl).  As in RCCL's header, the stream parameter is a
 * hipStream_t: the stand-ins run over the stand-in HIP runtime.  Every ncclX also exists as
 * the profiling alias pncclX. */
#ifndef NCCL_H_
#define NCCL_H_

#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__
#endif
#include <hip/hip_runtime_api.h>
#include <limits.h>
#include <stddef.h>

#define NCCL_MAJOR 2
#define NCCL_MINOR 28
#define NCCL_PATCH 3
#define NCCL_SUFFIX ""
#define NCCL_VERSION(X, Y, Z) \
	(((X) <= 2 && (Y) <= 8) ? (X) * 1000 + (Y) * 100 + (Z) : (X) * 10000 + (Y) * 100 + (Z))
#define NCCL_VERSION_CODE NCCL_VERSION(NCCL_MAJOR, NCCL_MINOR, NCCL_PATCH)
#define RCCL_BFLOAT16 1
#define RCCL_GATHER_SCATTER 1
#define RCCL_ALLTOALLV 1

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ncclComm *ncclComm_t;
#define NCCL_COMM_NULL NULL

#define NCCL_UNIQUE_ID_BYTES 128
typedef struct {
	char internal[NCCL_UNIQUE_ID_BYTES];
} ncclUniqueId;

typedef enum {
	ncclSuccess = 0,
	ncclUnhandledCudaError = 1,
	ncclSystemError = 2,
	ncclInternalError = 3,
	ncclInvalidArgument = 4,
	ncclInvalidUsage = 5,
	ncclRemoteError = 6,
	ncclInProgress = 7,
	ncclNumResults = 8
} ncclResult_t;

#define NCCL_CONFIG_UNDEF_INT INT_MIN
#define NCCL_CONFIG_UNDEF_PTR NULL
#define NCCL_SPLIT_NOCOLOR -1

/* Communicator options (the layout of NCCL 2.17 - RCCL 2.21; later releases append fields). */
typedef struct ncclConfig_v21700 {
	size_t size;
	unsigned int magic;
	unsigned int version;
	int blocking;
	int cgaClusterSize;
	int minCTAs;
	int maxCTAs;
	const char *netName;
	int splitShare;
} ncclConfig_t;

#define NCCL_CONFIG_INITIALIZER                                                             \
	{                                                                                   \
		sizeof(ncclConfig_t), 0xcafebeef, NCCL_VERSION(NCCL_MAJOR, NCCL_MINOR,     \
							       NCCL_PATCH),                \
		NCCL_CONFIG_UNDEF_INT, NCCL_CONFIG_UNDEF_INT, NCCL_CONFIG_UNDEF_INT,        \
		NCCL_CONFIG_UNDEF_INT, NCCL_CONFIG_UNDEF_PTR, NCCL_CONFIG_UNDEF_INT         \
	}

typedef enum { ncclNumOps_dummy = 5 } ncclRedOp_dummy_t;
typedef enum {
	ncclSum = 0,
	ncclProd = 1,
	ncclMax = 2,
	ncclMin = 3,
	ncclAvg = 4,
	ncclNumOps = 5,
	ncclMaxRedOp = 0x7fffffff >> (32 - 8 * sizeof(ncclRedOp_dummy_t))
} ncclRedOp_t;

typedef enum {
	ncclInt8 = 0, ncclChar = 0,
	ncclUint8 = 1,
	ncclInt32 = 2, ncclInt = 2,
	ncclUint32 = 3,
	ncclInt64 = 4,
	ncclUint64 = 5,
	ncclFloat16 = 6, ncclHalf = 6,
	ncclFloat32 = 7, ncclFloat = 7,
	ncclFloat64 = 8, ncclDouble = 8,
	ncclBfloat16 = 9,
	ncclFloat8e4m3 = 10, ncclFp8E4M3 = 10, /* NCCL >= 2.24 / RCCL built with RCCL_FLOAT8 */
	ncclFloat8e5m2 = 11, ncclFp8E5M2 = 11,
	ncclNumTypes = 12
} ncclDataType_t;

typedef enum {
	ncclScalarDevice = 0,        /* the scalar is in device memory, read when the op runs */
	ncclScalarHostImmediate = 1  /* the scalar is in host memory, read at the call */
} ncclScalarResidence_t;

/* Each function twice: ncclX and its profiling alias pncclX. */
#define NCCL_API_DECL(ret, name, args) ret name args; ret p##name args

NCCL_API_DECL(ncclResult_t, ncclGetVersion, (int *version));
NCCL_API_DECL(ncclResult_t, ncclGetUniqueId, (ncclUniqueId *uniqueId));
NCCL_API_DECL(ncclResult_t, ncclCommInitRank,
	      (ncclComm_t *comm, int nranks, ncclUniqueId commId, int rank));
NCCL_API_DECL(ncclResult_t, ncclCommInitRankConfig,
	      (ncclComm_t *comm, int nranks, ncclUniqueId commId, int rank, ncclConfig_t *config));
NCCL_API_DECL(ncclResult_t, ncclCommInitAll, (ncclComm_t *comm, int ndev, const int *devlist));
/* NCCL 2.23 (not in RCCL 2.21) */
NCCL_API_DECL(ncclResult_t, ncclCommInitRankScalable,
	      (ncclComm_t *newcomm, int nranks, int myrank, int nId, ncclUniqueId *commIds,
	       ncclConfig_t *config));
NCCL_API_DECL(ncclResult_t, ncclCommSplit,
	      (ncclComm_t comm, int color, int key, ncclComm_t *newcomm, ncclConfig_t *config));
NCCL_API_DECL(ncclResult_t, ncclCommFinalize, (ncclComm_t comm));
NCCL_API_DECL(ncclResult_t, ncclCommDestroy, (ncclComm_t comm));
NCCL_API_DECL(ncclResult_t, ncclCommAbort, (ncclComm_t comm));
NCCL_API_DECL(ncclResult_t, ncclCommGetAsyncError, (ncclComm_t comm, ncclResult_t *asyncError));
NCCL_API_DECL(ncclResult_t, ncclCommCount, (const ncclComm_t comm, int *count));
NCCL_API_DECL(ncclResult_t, ncclCommCuDevice, (const ncclComm_t comm, int *device));
NCCL_API_DECL(ncclResult_t, ncclCommUserRank, (const ncclComm_t comm, int *rank));
NCCL_API_DECL(const char *, ncclGetErrorString, (ncclResult_t result));
NCCL_API_DECL(const char *, ncclGetLastError, (ncclComm_t comm));
NCCL_API_DECL(ncclResult_t, ncclCommRegister,
	      (const ncclComm_t comm, void *buff, size_t size, void **handle));
NCCL_API_DECL(ncclResult_t, ncclCommDeregister, (const ncclComm_t comm, void *handle));
NCCL_API_DECL(ncclResult_t, ncclMemAlloc, (void **ptr, size_t size));
NCCL_API_DECL(ncclResult_t, ncclMemFree, (void *ptr));
NCCL_API_DECL(ncclResult_t, ncclRedOpCreatePreMulSum,
	      (ncclRedOp_t *op, void *scalar, ncclDataType_t datatype,
	       ncclScalarResidence_t residence, ncclComm_t comm));
NCCL_API_DECL(ncclResult_t, ncclRedOpDestroy, (ncclRedOp_t op, ncclComm_t comm));

NCCL_API_DECL(ncclResult_t, ncclAllReduce,
	      (const void *sendbuff, void *recvbuff, size_t count, ncclDataType_t datatype,
	       ncclRedOp_t op, ncclComm_t comm, hipStream_t stream));
NCCL_API_DECL(ncclResult_t, ncclBroadcast,
	      (const void *sendbuff, void *recvbuff, size_t count, ncclDataType_t datatype,
	       int root, ncclComm_t comm, hipStream_t stream));
NCCL_API_DECL(ncclResult_t, ncclBcast,
	      (void *buff, size_t count, ncclDataType_t datatype, int root, ncclComm_t comm,
	       hipStream_t stream));
NCCL_API_DECL(ncclResult_t, ncclReduce,
	      (const void *sendbuff, void *recvbuff, size_t count, ncclDataType_t datatype,
	       ncclRedOp_t op, int root, ncclComm_t comm, hipStream_t stream));
NCCL_API_DECL(ncclResult_t, ncclAllGather,
	      (const void *sendbuff, void *recvbuff, size_t sendcount, ncclDataType_t datatype,
	       ncclComm_t comm, hipStream_t stream));
NCCL_API_DECL(ncclResult_t, ncclReduceScatter,
	      (const void *sendbuff, void *recvbuff, size_t recvcount, ncclDataType_t datatype,
	       ncclRedOp_t op, ncclComm_t comm, hipStream_t stream));
/* NCCL 2.28 spelling (libnccl only) */
NCCL_API_DECL(ncclResult_t, ncclAlltoAll,
	      (const void *sendbuff, void *recvbuff, size_t count, ncclDataType_t datatype,
	       ncclComm_t comm, hipStream_t stream));
/* RCCL spelling (librccl only) */
NCCL_API_DECL(ncclResult_t, ncclAllToAll,
	      (const void *sendbuff, void *recvbuff, size_t count, ncclDataType_t datatype,
	       ncclComm_t comm, hipStream_t stream));
/* RCCL only */
NCCL_API_DECL(ncclResult_t, ncclAllToAllv,
	      (const void *sendbuff, const size_t sendcounts[], const size_t sdispls[],
	       void *recvbuff, const size_t recvcounts[], const size_t rdispls[],
	       ncclDataType_t datatype, ncclComm_t comm, hipStream_t stream));
NCCL_API_DECL(ncclResult_t, ncclGather,
	      (const void *sendbuff, void *recvbuff, size_t count, ncclDataType_t datatype,
	       int root, ncclComm_t comm, hipStream_t stream));
NCCL_API_DECL(ncclResult_t, ncclScatter,
	      (const void *sendbuff, void *recvbuff, size_t count, ncclDataType_t datatype,
	       int root, ncclComm_t comm, hipStream_t stream));
NCCL_API_DECL(ncclResult_t, ncclSend,
	      (const void *sendbuff, size_t count, ncclDataType_t datatype, int peer,
	       ncclComm_t comm, hipStream_t stream));
NCCL_API_DECL(ncclResult_t, ncclRecv,
	      (void *recvbuff, size_t count, ncclDataType_t datatype, int peer, ncclComm_t comm,
	       hipStream_t stream));
NCCL_API_DECL(ncclResult_t, ncclGroupStart, (void));
NCCL_API_DECL(ncclResult_t, ncclGroupEnd, (void));

#undef NCCL_API_DECL

#ifdef __cplusplus
}
#endif

#endif
