/* nrt_status.h — the status codes of the Neuron runtime (libnrt), with the values of the
 * Neuron SDK 2.28 headers, for the stand-in runtime and the test programs built against it.
 * Success is NRT_SUCCESS. */
#ifndef STANDIN_NRT_STATUS_H
#define STANDIN_NRT_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
	NRT_SUCCESS = 0,
	NRT_FAILURE = 1,                        /* non-specific failure */
	NRT_INVALID = 2,                        /* an invalid argument or NEFF */
	NRT_INVALID_HANDLE = 3,                 /* a model, tensor or set that is not (or no longer) one */
	NRT_RESOURCE = 4,                       /* out of memory or another resource */
	NRT_TIMEOUT = 5,
	NRT_HW_ERROR = 6,
	NRT_QUEUE_FULL = 7,
	NRT_LOAD_NOT_ENOUGH_NC = 9,             /* the model needs more NeuronCores than are free */
	NRT_UNSUPPORTED_NEFF_VERSION = 10,
	NRT_FAIL_HOST_MEM_ALLOC = 11,           /* legacy */
	NRT_UNINITIALIZED = 13,                 /* nrt_init has not been called */
	NRT_CLOSED = 14,                        /* nrt_close has been called */
	NRT_QUEUE_EMPTY = 15,
	NRT_EXEC_UNIT_UNRECOVERABLE = 101,
	NRT_EXEC_BAD_INPUT = 1002,              /* an input or output tensor missing or wrong */
	NRT_EXEC_COMPLETED_WITH_NUM_ERR = 1003, /* ran, and produced NaN or infinity */
	NRT_EXEC_COMPLETED_WITH_ERR = 1004,
	NRT_EXEC_NC_BUSY = 1005,
	NRT_EXEC_OOB = 1006,
	NRT_COLL_PENDING = 1100,
	NRT_EXEC_HW_ERR_COLLECTIVES = 1200,
	NRT_EXEC_HW_ERR_HBM_UE = 1201,
	NRT_EXEC_HW_ERR_NC_UE = 1202,
	NRT_EXEC_HW_ERR_DMA_ABORT = 1203,
	NRT_EXEC_SW_NQ_OVERFLOW = 1204,
	NRT_EXEC_HW_ERR_REPAIRABLE_HBM_UE = 1205,
	NRT_NETWORK_PROXY_FAILURE = 1206,
} NRT_STATUS;

/* A name for a status code. */
const char *nrt_get_status_as_str(NRT_STATUS status);

#ifdef __cplusplus
}
#endif

#endif
