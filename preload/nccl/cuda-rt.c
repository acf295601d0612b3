/* cuda-rt.c — the CUDA runtime's side of device timing (struct tprof_devrt, devtime.h):
 * events created on the operation's device, recorded on its stream, queried, waited for
 * and compared; a private non-blocking stream per device for the clock anchor.  Every
 * function is the runtime's own (libcudart found at run time, the program's or a library's
 * dependency, e.g. libnccl's); the current device is put back after each call that needs
 * another. */
#include <stdint.h>

#include "cuda-rt.h"
#include "../core/resolve.h"

typedef int cudaError_t;
typedef void *cudaEvent_t;
typedef void *cudaStream_t;

enum {
	cudaSuccess = 0,
	cudaErrorNotReady = 600,
	cudaEventDefault = 0,
	cudaStreamNonBlocking = 1,
};

TPROF_REAL(cudaError_t, cudaEventCreateWithFlags, (cudaEvent_t *ev, unsigned int flags))
TPROF_REAL(cudaError_t, cudaEventRecord, (cudaEvent_t ev, cudaStream_t s))
TPROF_REAL(cudaError_t, cudaEventQuery, (cudaEvent_t ev))
TPROF_REAL(cudaError_t, cudaEventSynchronize, (cudaEvent_t ev))
TPROF_REAL(cudaError_t, cudaEventElapsedTime, (float *ms, cudaEvent_t a, cudaEvent_t b))
TPROF_REAL(cudaError_t, cudaEventDestroy, (cudaEvent_t ev))
TPROF_REAL(cudaError_t, cudaStreamCreateWithFlags, (cudaStream_t *s, unsigned int flags))
TPROF_REAL(cudaError_t, cudaGetDevice, (int *device))
TPROF_REAL(cudaError_t, cudaSetDevice, (int device))
TPROF_REAL(cudaError_t, cudaStreamGetDevice, (cudaStream_t s, int *device))

int tprof_cuda_rt_usable(void)
{
	TPROF_KEEP_ERRNO;
	return get_cudaEventCreateWithFlags() && get_cudaEventRecord() && get_cudaEventQuery() &&
	       get_cudaEventSynchronize() && get_cudaEventElapsedTime() &&
	       get_cudaStreamCreateWithFlags() && get_cudaGetDevice() && get_cudaSetDevice();
}

/* Runs `body` on `device` and comes back to the thread's own device. */
#define ON_DEVICE(device, body)                                                            \
	do {                                                                               \
		int cur_ = -1;                                                             \
		if (get_cudaGetDevice())                                                   \
			real_cudaGetDevice(&cur_);                                         \
		if (cur_ != (device) && get_cudaSetDevice())                               \
			real_cudaSetDevice(device);                                        \
		body;                                                                      \
		if (cur_ >= 0 && cur_ != (device))                                         \
			real_cudaSetDevice(cur_);                                          \
	} while (0)

static int ev_create(int device, void **ev)
{
	int rc = -1;
	if (get_cudaEventCreateWithFlags())
		ON_DEVICE(device, rc = real_cudaEventCreateWithFlags(ev, cudaEventDefault));
	return rc == cudaSuccess ? 0 : -1;
}

static void ev_destroy(void *ev)
{
	if (get_cudaEventDestroy())
		real_cudaEventDestroy(ev);
}

static int ev_record(void *ev, uint64_t stream)
{
	return get_cudaEventRecord() &&
			       real_cudaEventRecord(ev, (cudaStream_t)(uintptr_t)stream) == cudaSuccess
		       ? 0 : -1;
}

static int ev_query(void *ev)
{
	if (!get_cudaEventQuery())
		return -1;
	cudaError_t rc = real_cudaEventQuery(ev);
	return rc == cudaSuccess ? 1 : rc == cudaErrorNotReady ? 0 : -1;
}

static int ev_sync(void *ev)
{
	return get_cudaEventSynchronize() && real_cudaEventSynchronize(ev) == cudaSuccess ? 0 : -1;
}

static int ev_elapsed(void *a, void *b, float *ms)
{
	return get_cudaEventElapsedTime() && real_cudaEventElapsedTime(ms, a, b) == cudaSuccess
		       ? 0 : -1;
}

static int priv_stream(int device, uint64_t *stream)
{
	int rc = -1;
	cudaStream_t s = NULL;
	if (get_cudaStreamCreateWithFlags())
		ON_DEVICE(device, rc = real_cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	*stream = (uint64_t)(uintptr_t)s;
	return rc == cudaSuccess ? 0 : -1;
}

/* cudaStreamGetDevice (CUDA 12.8) when there is one, else the current device. */
static int stream_device(uint64_t stream)
{
	int device = -1;
	if (get_cudaStreamGetDevice() &&
	    real_cudaStreamGetDevice((cudaStream_t)(uintptr_t)stream, &device) == cudaSuccess)
		return device;
	if (get_cudaGetDevice() && real_cudaGetDevice(&device) != cudaSuccess)
		device = -1;
	return device;
}

const struct tprof_devrt tprof_cuda_rt = {
	.name = "CUDA",
	.id = 1,
	.usable = tprof_cuda_rt_usable,
	.event_create = ev_create,
	.event_destroy = ev_destroy,
	.event_record = ev_record,
	.event_query = ev_query,
	.event_sync = ev_sync,
	.elapsed_ms = ev_elapsed,
	.stream_create = priv_stream,
	.device_of_stream = stream_device,
};
