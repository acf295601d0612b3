/* devrt-cuda.c — the CUDA runtime's side of device timing (devrt-cuda.h): its events, through
 * the timing written once for HIP and CUDA (gpu-events.h), and the device of a stream.  Every
 * function is the runtime's own (libcudart found at run time, the program's or a library's
 * dependency, e.g. libnccl's); whether one is loaded is asked again at each call until one
 * is: a program may load it late. */
#include "devrt-cuda.h"

#define GPU_PREFIX cuda
#define GPU_SUCCESS 0          /* cudaSuccess */
#define GPU_NOT_READY 600      /* cudaErrorNotReady */
#define GPU_NONBLOCKING 1u     /* cudaStreamNonBlocking */
#include "gpu-events.h"

TPROF_REAL(int, cudaStreamGetDevice, (void *stream, int *device))

/* cudaStreamGetDevice (CUDA 12.8) when there is one, else the current device. */
static int stream_device(uint64_t stream)
{
	int device = -1;
	if (get_cudaStreamGetDevice() &&
	    real_cudaStreamGetDevice((void *)(uintptr_t)stream, &device) == GPU_SUCCESS)
		return device;
	if (GPU_GET(GetDevice) && GPU_CALL(GetDevice)(&device) != GPU_SUCCESS)
		device = -1;
	return device;
}

const struct tprof_devrt tprof_cuda_rt = GPU_DEVRT("CUDA", 1, stream_device);
