/* hip-minimal.h — the little of HIP 5.2's API the programs run on the minimal runtime
 * (hip-minimal.c, hip-streams.c) call, with its prototypes: the runtime (hip-minimal-rt.c)
 * defines them, and the stand-in or a real HIP would serve them too. */
#ifndef TPROF_TESTS_HIP_MINIMAL_H
#define TPROF_TESTS_HIP_MINIMAL_H

#include <stddef.h>
#include <stdint.h>

typedef int hipError_t;
typedef struct {
	uint32_t x, y, z;
} dim3;
typedef void *hipStream_t;
enum { hipSuccess = 0 };

hipError_t hipSetDevice(int device);
hipError_t hipDeviceSynchronize(void);
hipError_t hipStreamCreate(hipStream_t *s);
hipError_t hipStreamDestroy(hipStream_t s);
hipError_t hipStreamSynchronize(hipStream_t s);
hipError_t hipLaunchKernel(const void *fn, dim3 grid, dim3 block, void **args, size_t shmem,
			   hipStream_t s);

#endif
