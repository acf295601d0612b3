// hip-gaps.hip — device 0 with idle gaps of known sizes between its kernels, made on the
// device's own timeline so the host's speed does not matter: a long first kernel gives the
// host time to queue everything; then bursts of back-to-back kernels (gaps of 0) and, between
// bursts, a wait on device 1, where a "timer" kernel of exactly the gap's length runs after
// the last kernel before the gap (300 us, 3 ms and 25 ms, each well inside one bucket of the
// summary's histogram).  Kernel lengths come from STANDIN_HIP_KERNEL_US (the test sets them).
// Prints the expected number of kernels on device 0 and of gaps per kind.
#include <hip/hip_runtime.h>
#include <stdio.h>

__global__ void warmup(float *x) { x[threadIdx.x] += 1.0f; }
__global__ void busy(float *x) { x[threadIdx.x] += 1.0f; }
__global__ void timer300(float *x) { x[threadIdx.x] += 1.0f; }
__global__ void timer3000(float *x) { x[threadIdx.x] += 1.0f; }
__global__ void timer25000(float *x) { x[threadIdx.x] += 1.0f; }

static hipStream_t s0, s1;
static float *d0, *d1;

// Device 0 waits, idle, for a timer of `us` on device 1 that starts when it goes idle.
__attribute__((noinline)) static void gap(int us)
{
	hipEvent_t idle, done;
	hipSetDevice(0);
	hipEventCreate(&idle);
	hipEventRecord(idle, s0);
	hipSetDevice(1);
	hipEventCreate(&done);
	hipStreamWaitEvent(s1, idle, 0);
	if (us == 300)
		hipLaunchKernelGGL(timer300, dim3(1), dim3(64), 0, s1, d1);
	else if (us == 3000)
		hipLaunchKernelGGL(timer3000, dim3(1), dim3(64), 0, s1, d1);
	else
		hipLaunchKernelGGL(timer25000, dim3(1), dim3(64), 0, s1, d1);
	hipEventRecord(done, s1);
	hipSetDevice(0);
	hipStreamWaitEvent(s0, done, 0);
}

__attribute__((noinline)) static void burst(int n)
{
	for (int i = 0; i < n; i++)
		hipLaunchKernelGGL(busy, dim3(1), dim3(64), 0, s0, d0);
}

int main(void)
{
	hipSetDevice(1);
	if (hipMalloc((void **)&d1, 256) != hipSuccess || hipStreamCreate(&s1) != hipSuccess)
		return 2;
	hipSetDevice(0);
	if (hipMalloc((void **)&d0, 256) != hipSuccess || hipStreamCreate(&s0) != hipSuccess)
		return 2;
	hipLaunchKernelGGL(warmup, dim3(1), dim3(64), 0, s0, d0);
	static const int gaps[] = { 300, 300, 300, 300, 3000, 3000, 3000, 25000, 25000 };
	burst(5);
	int kernels = 1 + 5;
	for (unsigned i = 0; i < sizeof(gaps) / sizeof(gaps[0]); i++) {
		gap(gaps[i]);
		burst(2);
		kernels += 2;
	}
	hipStreamSynchronize(s0);
	hipSetDevice(1);
	hipStreamSynchronize(s1);
	// Gaps of 0: warmup -> first burst, 4 inside it, 1 inside each pair.
	printf("kernels=%d tiny=%d mid=4 ms=3 long=2\n", kernels, 1 + 4 + 9);
	return 0;
}
