// hip-vadd.hip — a small HIP program compiled by Debian's hipcc (--offload-arch=gfx90a), run by
// t-hip-app.sh against the stand-in libamdhip64.so.5: it reports the devices, copies a vector
// to the device and back, launches a real __global__ kernel with <<<>>> and hipLaunchKernelGGL
// (the compiler turns both into __hipPushCallConfiguration / __hipPopCallConfiguration /
// hipLaunchKernel), times one launch with events, and synchronises.  The stand-in runs no device
// code, so the program checks what the runtime does, not what the kernel computes.
//   usage: hip-vadd [N]      prints "devices=2", "roundtrip=ok", "vadd_ms=..." and "done"
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(call)                                                                      \
	do {                                                                             \
		hipError_t e_ = (call);                                                  \
		if (e_ != hipSuccess) {                                                  \
			std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, \
				     hipGetErrorName(e_));                               \
			return 1;                                                        \
		}                                                                        \
	} while (0)

__global__ void vadd(float *c, const float *a, const float *b, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		c[i] = a[i] + b[i];
}

__global__ void scale(float *x, float f, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] *= f;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? std::atoi(argv[1]) : 4096, count = 0;
	size_t bytes = n * sizeof(float);
	std::vector<float> a(n), b(n), back(n);
	float *da, *db, *dc, ms = 0;
	hipEvent_t start, stop;
	hipDeviceProp_t prop;

	CHECK(hipGetDeviceCount(&count));
	std::printf("devices=%d\n", count);
	for (int d = 0; d < count; d++) {
		CHECK(hipGetDeviceProperties(&prop, d));
		std::printf("device %d: %s\n", d, prop.name);
	}
	CHECK(hipSetDevice(0));
	for (int i = 0; i < n; i++) {
		a[i] = i;
		b[i] = 2 * i;
	}
	CHECK(hipMalloc(&da, bytes));
	CHECK(hipMalloc(&db, bytes));
	CHECK(hipMalloc(&dc, bytes));
	CHECK(hipMemcpy(da, a.data(), bytes, hipMemcpyHostToDevice));
	CHECK(hipMemcpy(db, b.data(), bytes, hipMemcpyHostToDevice));
	CHECK(hipMemcpy(dc, da, bytes, hipMemcpyDeviceToDevice));
	CHECK(hipMemcpy(back.data(), dc, bytes, hipMemcpyDeviceToHost));
	std::printf("roundtrip=%s\n", std::memcmp(back.data(), a.data(), bytes) == 0 ? "ok" : "BAD");

	CHECK(hipEventCreate(&start));
	CHECK(hipEventCreate(&stop));
	dim3 block(256), grid((n + 255) / 256);
	CHECK(hipEventRecord(start, 0));
	vadd<<<grid, block>>>(dc, da, db, n);
	CHECK(hipGetLastError());
	CHECK(hipEventRecord(stop, 0));
	hipLaunchKernelGGL(scale, grid, block, 0, 0, dc, 0.5f, n);
	CHECK(hipGetLastError());
	CHECK(hipDeviceSynchronize());
	CHECK(hipEventElapsedTime(&ms, start, stop));
	std::printf("vadd_ms=%.3f\n", ms);

	CHECK(hipEventDestroy(start));
	CHECK(hipEventDestroy(stop));
	CHECK(hipFree(da));
	CHECK(hipFree(db));
	CHECK(hipFree(dc));
	std::printf("done\n");
	return 0;
}
