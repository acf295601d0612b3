// hip-gaps.hip — one device, one stream, and idle gaps of known sizes between its kernels:
// bursts of back-to-back kernels (gaps of a few microseconds), then pauses of the host of
// about 300 us, 3 ms and 25 ms (each well inside one bucket of the summary's histogram).
// Prints the expected number of kernels and of gaps per kind.
#include <hip/hip_runtime.h>
#include <stdio.h>
#include <time.h>

__global__ void busy(float *x)
{
	x[threadIdx.x] += 1.0f;
}

static void pause_us(long us)
{
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };
	nanosleep(&ts, NULL);
}

// A burst of n kernels queued at once, then wait for them.
static void burst(float *d, int n)
{
	for (int i = 0; i < n; i++)
		hipLaunchKernelGGL(busy, dim3(1), dim3(64), 0, 0, d);
	hipDeviceSynchronize();
}

int main(void)
{
	float *d;
	if (hipMalloc((void **)&d, 256) != hipSuccess)
		return 2;
	static const long pauses[] = { 300, 300, 300, 300, 3000, 3000, 3000, 25000, 25000 };
	int kernels = 0;
	burst(d, 5);
	kernels += 5;
	for (unsigned i = 0; i < sizeof(pauses) / sizeof(pauses[0]); i++) {
		pause_us(pauses[i]);
		burst(d, 2);
		kernels += 2;
	}
	hipFree(d);
	// Back-to-back gaps: 4 in the first burst and 1 in each pair.
	printf("kernels=%d tiny=%d mid=4 ms=3 long=2\n", kernels, 4 + 9);
	return 0;
}
