/* devrt-hip.c — HIP's side of device timing (devrt-hip.h): its events, through the timing
 * written once for HIP and CUDA (gpu-events.h), and the device of a stream. */
#include "devrt-hip.h"

#define GPU_PREFIX hip
#define GPU_SUCCESS 0          /* hipSuccess */
#define GPU_NOT_READY 600      /* hipErrorNotReady */
#define GPU_NONBLOCKING 1u     /* hipStreamNonBlocking */
#include "gpu-events.h"

/* Not wrapped: asked for the device of a stream. */
TPROF_REAL(int, hipGetStreamDeviceId, (void *stream))

__thread struct tprof_hip_stream_dev tprof_hip_stream_devs[TPROF_HIP_STREAM_CACHE]
	__attribute__((tls_model("initial-exec")));
uint32_t tprof_hip_streams_gen = 1;

__attribute__((noinline)) int tprof_hip_stream_ask(struct tprof_hip_stream_dev *c,
						    uint64_t stream, uint32_t gen)
{
	int device = -1;
	if (get_hipGetStreamDeviceId())
		device = real_hipGetStreamDeviceId((void *)(uintptr_t)stream);
	else if (GPU_GET(GetDevice))
		GPU_CALL(GetDevice)(&device);
	if (device >= 0 && stream >= TPROF_HIP_SPECIAL_STREAMS)
		*c = (struct tprof_hip_stream_dev){ stream, gen, device };
	return device;
}

const struct tprof_devrt tprof_hip_rt = GPU_DEVRT("HIP", 0, tprof_hip_stream_device);
