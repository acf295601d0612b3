// hip-multi.hip — 2 host threads, each driving its own device with 2 streams: kernels of two
// kinds alternate between the streams, with a copy in and out, then everything is waited for.
// With "hold", each stream starts with a "hold" kernel (make it long), so the kernels after it
// are queued before the stream reaches them, however the host threads are scheduled.  Prints
// how many launches it made.  Usage: hip-multi [LAUNCHES_PER_STREAM [hold]]
#include <hip/hip_runtime.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__global__ void scale_a(float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] *= 2.0f;
}

__global__ void hold(float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] = x[i];
}

__global__ void shift_b(float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] += 1.0f;
}

static int per_stream = 10;
static int holds;
static const int N = 1 << 16;

static void *drive(void *arg)
{
	int device = (int)(long)arg;
	hipStream_t s[2];
	float *d, *h = (float *)calloc(N, sizeof(float));
	if (hipSetDevice(device) != hipSuccess || hipMalloc((void **)&d, N * sizeof(float)) != hipSuccess)
		return (void *)1;
	hipStreamCreate(&s[0]);
	hipStreamCreate(&s[1]);
	for (int k = 0; k < 2 && holds; k++)
		hipLaunchKernelGGL(hold, dim3(1), dim3(64), 0, s[k], d, N);
	hipMemcpyAsync(d, h, N * sizeof(float), hipMemcpyHostToDevice, s[0]);
	for (int i = 0; i < per_stream; i++) {
		hipLaunchKernelGGL(scale_a, dim3(N / 256), dim3(256), 0, s[0], d, N);
		hipLaunchKernelGGL(shift_b, dim3(N / 128), dim3(128), 64, s[1], d, N);
	}
	hipMemcpyAsync(h, d, N * sizeof(float), hipMemcpyDeviceToHost, s[1]);
	hipStreamSynchronize(s[0]);
	hipStreamSynchronize(s[1]);
	hipStreamDestroy(s[0]);
	hipStreamDestroy(s[1]);
	hipFree(d);
	free(h);
	return NULL;
}

int main(int argc, char **argv)
{
	int count = 0;
	per_stream = argc > 1 ? atoi(argv[1]) : per_stream;
	holds = argc > 2 && !strcmp(argv[2], "hold");
	if (hipGetDeviceCount(&count) != hipSuccess || count < 2) {
		fprintf(stderr, "need 2 devices, have %d\n", count);
		return 2;
	}
	pthread_t t[2];
	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, drive, (void *)i);
	void *bad0, *bad1;
	pthread_join(t[0], &bad0);
	pthread_join(t[1], &bad1);
	printf("launches=%d\n", 2 * 2 * (per_stream + holds));
	return bad0 || bad1;
}
