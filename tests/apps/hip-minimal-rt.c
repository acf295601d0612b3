/* hip-minimal-rt.c — libamdhip64.so.5 reduced to what a program that launches kernels needs:
 * devices, streams, kernel registration and hipLaunchKernel, with HIP 5.2's prototypes and
 * error numbers, and no event functions at all (a minimal or mock runtime).  The recorder must
 * record every launch on it, count the launches it cannot time, and look each missing function
 * up once.  A launch runs nothing: it checks its arguments; hipDeviceSynchronize waits for
 * the device as long as MINIMAL_HIP_SYNC_US says (default 0), running, as a runtime polling
 * its device does.  Built from C alone; its exports
 * carry HIP's version node hip_4.2 (hip-minimal.map), so that a program linked against the
 * stand-in (bench/hip-calls) runs on it too. */
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#define API __attribute__((visibility("default")))

typedef int hipError_t;
typedef struct {
	uint32_t x, y, z;
} dim3;
struct stream {
	uint32_t magic;
	int device;
};
typedef struct stream *hipStream_t;

enum {
	hipSuccess = 0,
	hipErrorInvalidValue = 1,
	hipErrorInvalidDevice = 101,
	hipErrorInvalidHandle = 400,
	hipErrorInvalidDeviceFunction = 98,
};
#define MAGIC 0x6d696e69u
#define DEVICES 2

API hipError_t hipGetDeviceCount(int *count);
API hipError_t hipGetDevice(int *device);
API hipError_t hipSetDevice(int device);
API hipError_t hipStreamCreate(hipStream_t *s);
API hipError_t hipStreamDestroy(hipStream_t s);
API hipError_t hipStreamSynchronize(hipStream_t s);
API hipError_t hipDeviceSynchronize(void);
API hipError_t hipLaunchKernel(const void *fn, dim3 grid, dim3 block, void **args, size_t shmem,
			       hipStream_t s);
API void __hipRegisterFunction(void **modules, const void *host, char *device_fn,
			       const char *device_name, unsigned int limit, void *tid, void *bid,
			       void *block, void *grid, int *wsize);

static __thread int current;

hipError_t hipGetDeviceCount(int *count)
{
	if (!count)
		return hipErrorInvalidValue;
	*count = DEVICES;
	return hipSuccess;
}

hipError_t hipGetDevice(int *device)
{
	if (!device)
		return hipErrorInvalidValue;
	*device = current;
	return hipSuccess;
}

hipError_t hipSetDevice(int device)
{
	if (device < 0 || device >= DEVICES)
		return hipErrorInvalidDevice;
	current = device;
	return hipSuccess;
}

hipError_t hipStreamCreate(hipStream_t *s)
{
	if (!s)
		return hipErrorInvalidValue;
	*s = malloc(sizeof(**s));
	if (!*s)
		return hipErrorInvalidValue;
	(*s)->magic = MAGIC;
	(*s)->device = current;
	return hipSuccess;
}

static int valid(hipStream_t s)
{
	return !s || s->magic == MAGIC;
}

hipError_t hipStreamDestroy(hipStream_t s)
{
	if (!s || !valid(s))
		return hipErrorInvalidHandle;
	s->magic = 0;
	free(s);
	return hipSuccess;
}

hipError_t hipStreamSynchronize(hipStream_t s)
{
	return valid(s) ? hipSuccess : hipErrorInvalidHandle;
}

static uint64_t mono_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

hipError_t hipDeviceSynchronize(void)
{
	static long wait_us = -1;
	if (wait_us < 0) {
		const char *v = getenv("MINIMAL_HIP_SYNC_US");
		wait_us = v ? atol(v) : 0;
	}
	for (uint64_t until = mono_us() + (uint64_t)wait_us; wait_us > 0 && mono_us() < until;)
		;
	return hipSuccess;
}

hipError_t hipLaunchKernel(const void *fn, dim3 grid, dim3 block, void **args, size_t shmem,
			   hipStream_t s)
{
	(void)args;
	(void)shmem;
	if (!fn)
		return hipErrorInvalidDeviceFunction;
	if (!valid(s))
		return hipErrorInvalidHandle;
	if (!grid.x || !grid.y || !grid.z || !block.x || !block.y || !block.z)
		return hipErrorInvalidValue;
	return hipSuccess;
}

/* hipcc's module constructors name each kernel here; there is nothing to keep. */
void __hipRegisterFunction(void **modules, const void *host, char *device_fn,
			   const char *device_name, unsigned int limit, void *tid, void *bid,
			   void *block, void *grid, int *wsize)
{
	(void)modules, (void)host, (void)device_fn, (void)device_name, (void)limit, (void)tid;
	(void)bid, (void)block, (void)grid, (void)wsize;
}
