/* late-launch.c — an LD_PRELOAD shim for test-hip (t-hip-late.sh): every hipLaunchKernel
 * reaches the stand-in 8 ms late, as if the calling thread were descheduled between its
 * calls on a loaded machine, so that a check whose device times depend on the host's pace
 * fails every time rather than once in a while. */
#include <dlfcn.h>
#include <time.h>

#include <hip/hip_runtime_api.h>

typedef hipError_t (*launch_fn)(const void *, dim3, dim3, void **, size_t, hipStream_t);

hipError_t hipLaunchKernel(const void *function, dim3 grid, dim3 block, void **args,
			   size_t shared, hipStream_t stream)
{
	struct timespec late = { 0, 8000000 };
	launch_fn real = (launch_fn)dlsym(RTLD_NEXT, "hipLaunchKernel");
	nanosleep(&late, NULL);
	return real ? real(function, grid, block, args, shared, stream) : hipErrorNotInitialized;
}
