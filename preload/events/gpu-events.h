/* gpu-events.h — device timing over a GPU runtime's events (the functions of a struct
 * tprof_devrt, devtime.h), written once for the two runtimes whose event calls are the same
 * under two prefixes: HIP's (hipEventRecord...) and CUDA's (cudaEventRecord...).  Events are
 * created on the operation's device, recorded on its stream, queried, waited for and
 * compared; a private non-blocking stream per device holds the clock anchor's events; the
 * current device is put back after each call that needs another.  Every function is the
 * runtime's own, found at run time (TPROF_REAL), never a wrapper.
 *
 * Not a header of declarations: a template, included once by each vendor's file
 * (devrt-hip.c, devrt-cuda.c) after it defines
 *   GPU_PREFIX       the prefix of its functions' names (hip, cuda)
 *   GPU_SUCCESS, GPU_NOT_READY
 *                    its codes for success and for an event not yet reached
 *   GPU_NONBLOCKING  its flag of a stream that does not wait for the null stream
 * It defines the getters of those functions (get_hipEventRecord()...), the static functions
 * of the timing, and GPU_DEVRT, the vendor's struct tprof_devrt made of them with its name,
 * number and function for the device of a stream (each vendor's own). */
#include <stdint.h>

#include "devtime.h"
#include "../core/resolve.h"

#define GPU_CAT_(a, b) a##b
#define GPU_CAT(a, b) GPU_CAT_(a, b)
/* The runtime's function `fn` (EventRecord: hipEventRecord), its getter and its pointer. */
#define GPU_NAME(fn) GPU_CAT(GPU_PREFIX, fn)
#define GPU_GET(fn) GPU_CAT(get_, GPU_NAME(fn))()
#define GPU_CALL(fn) GPU_CAT(real_, GPU_NAME(fn))
/* TPROF_REAL of GPU_NAME(fn): the name expanded before TPROF_REAL pastes it. */
#define GPU_REAL_(ret, name, params) TPROF_REAL(ret, name, params)
#define GPU_REAL(fn, params) GPU_REAL_(int, GPU_NAME(fn), params)

GPU_REAL(EventCreateWithFlags, (void **ev, unsigned int flags))
GPU_REAL(EventRecord, (void *ev, void *stream))
GPU_REAL(EventQuery, (void *ev))
GPU_REAL(EventSynchronize, (void *ev))
GPU_REAL(EventElapsedTime, (float *ms, void *a, void *b))
GPU_REAL(EventDestroy, (void *ev))
GPU_REAL(StreamCreateWithFlags, (void **stream, unsigned int flags))
GPU_REAL(GetDevice, (int *device))
GPU_REAL(SetDevice, (int device))

/* The functions timing cannot do without (the others are checked where they are called). */
static int gpu_usable(void)
{
	TPROF_KEEP_ERRNO;
	return GPU_GET(EventCreateWithFlags) && GPU_GET(EventRecord) && GPU_GET(EventQuery) &&
	       GPU_GET(EventElapsedTime) && GPU_GET(StreamCreateWithFlags);
}

/* Runs `body` on `device` and comes back to the thread's own device. */
#define GPU_ON_DEVICE(device, body)                                                        \
	do {                                                                               \
		int cur_ = -1;                                                             \
		if (GPU_GET(GetDevice))                                                    \
			GPU_CALL(GetDevice)(&cur_);                                        \
		if (cur_ != (device) && GPU_GET(SetDevice))                                \
			GPU_CALL(SetDevice)(device);                                       \
		body;                                                                      \
		if (cur_ >= 0 && cur_ != (device))                                         \
			GPU_CALL(SetDevice)(cur_);                                         \
	} while (0)

static int gpu_event_create(int device, void **ev)
{
	int rc = -1;
	if (GPU_GET(EventCreateWithFlags))
		GPU_ON_DEVICE(device, rc = GPU_CALL(EventCreateWithFlags)(ev, 0));
	return rc == GPU_SUCCESS ? 0 : -1;
}

static void gpu_event_destroy(void *ev)
{
	if (GPU_GET(EventDestroy))
		GPU_CALL(EventDestroy)(ev);
}

static int gpu_event_record(void *ev, uint64_t stream)
{
	return GPU_GET(EventRecord) &&
			       GPU_CALL(EventRecord)(ev, (void *)(uintptr_t)stream) == GPU_SUCCESS
		       ? 0 : -1;
}

static int gpu_event_query(void *ev)
{
	if (!GPU_GET(EventQuery))
		return -1;
	int rc = GPU_CALL(EventQuery)(ev);
	return rc == GPU_SUCCESS ? 1 : rc == GPU_NOT_READY ? 0 : -1;
}

static int gpu_event_sync(void *ev)
{
	return GPU_GET(EventSynchronize) && GPU_CALL(EventSynchronize)(ev) == GPU_SUCCESS ? 0 : -1;
}

static int gpu_elapsed_ms(void *a, void *b, float *ms)
{
	return GPU_GET(EventElapsedTime) && GPU_CALL(EventElapsedTime)(ms, a, b) == GPU_SUCCESS
		       ? 0 : -1;
}

static int gpu_stream_create(int device, uint64_t *stream)
{
	int rc = -1;
	void *s = NULL;
	if (GPU_GET(StreamCreateWithFlags))
		GPU_ON_DEVICE(device, rc = GPU_CALL(StreamCreateWithFlags)(&s, GPU_NONBLOCKING));
	*stream = (uint64_t)(uintptr_t)s;
	return rc == GPU_SUCCESS ? 0 : -1;
}

/* The vendor's struct tprof_devrt (devtime.h): its name and number, the functions above, and
 * its own answer to the device of a stream. */
#define GPU_DEVRT(rt_name, rt_id, stream_device_fn)                                        \
	{                                                                                  \
		.name = (rt_name), .id = (rt_id), .usable = gpu_usable,                    \
		.event_create = gpu_event_create, .event_destroy = gpu_event_destroy,      \
		.event_record = gpu_event_record, .event_query = gpu_event_query,          \
		.event_sync = gpu_event_sync, .elapsed_ms = gpu_elapsed_ms,                \
		.stream_create = gpu_stream_create, .device_of_stream = (stream_device_fn), \
	}
