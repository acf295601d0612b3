/* test-hip.c — checks the stand-in libamdhip64.so.5 through the HIP API as a C program sees it
 * (Debian's <hip/hip_runtime_api.h>): devices and the per-thread current device, last errors,
 * asynchronous kernels that keep their configured durations, order within a stream and overlap
 * across streams, event timing, the device clocks, copies and memsets, stream waits, the legacy
 * null stream, callbacks, modules, graphs, and many threads at once.
 * Run by t-hip-api.sh, which sets the STANDIN_HIP_* configuration this file expects and passes
 * the trace file (STANDIN_HIP_TRACE=2) as argv[1]. */
#include <hip/hip_runtime_api.h>

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tap.h"

/* Not in any public header (the compiler emits the calls); prototypes as in the runtime. */
void **__hipRegisterFatBinary(const void *data);
void __hipRegisterFunction(void **modules, const void *hostFunction, char *deviceFunction,
			   const char *deviceName, unsigned int threadLimit, void *tid, void *bid,
			   dim3 *blockDim, dim3 *gridDim, int *wSize);
void __hipUnregisterFatBinary(void **modules);

/* Durations t-hip-api.sh configures (STANDIN_HIP_KERNEL_US), in ms. */
#define K20 20.0
#define K5 5.0
#define KDEFAULT 0.1
#define GRAPH 3.0
#define COPY_GBPS 1.0

static const char k20_stub, k5_stub, other_stub; /* stand-ins for kernels' host stubs */
static const dim3 one = {1, 1, 1}, block = {256, 1, 1};

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static long long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int near(double got, double want, double rel)
{
	return fabs(got - want) <= rel * want;
}

static hipError_t k20(hipStream_t s)
{
	return hipLaunchKernel(&k20_stub, one, block, NULL, 0, s);
}

static hipError_t k5(hipStream_t s)
{
	return hipLaunchKernel(&k5_stub, one, block, NULL, 0, s);
}

/* A gate: an event on a stream of its own that completes only once gate_open() is called, a
 * host callback holding that stream until then.  The streams that wait for it, their work
 * all queued before it opens, start their next operation at the same device time, however
 * long the host takes to queue that work (on a loaded machine, under ThreadSanitizer). */
static pthread_mutex_t gate_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gate_cv = PTHREAD_COND_INITIALIZER;
static int gate_is_open;

static void gate_hold(hipStream_t s, hipError_t status, void *data)
{
	(void)s;
	(void)status;
	(void)data;
	pthread_mutex_lock(&gate_mu);
	while (!gate_is_open)
		pthread_cond_wait(&gate_cv, &gate_mu);
	pthread_mutex_unlock(&gate_mu);
}

static hipEvent_t gate(hipStream_t g)
{
	hipEvent_t e;
	gate_is_open = 0;
	hipEventCreate(&e);
	hipStreamAddCallback(g, gate_hold, NULL, 0);
	hipEventRecord(e, g);
	return e;
}

static void gate_open(void)
{
	pthread_mutex_lock(&gate_mu);
	gate_is_open = 1;
	pthread_cond_broadcast(&gate_cv);
	pthread_mutex_unlock(&gate_mu);
}

/* Holds stream s behind a host callback until gate_open(): what this thread queues on it
 * meanwhile runs back to back from the moment the gate opens, so that the device times of
 * its records and launches do not depend on how fast this thread gets from one call to the
 * next (on an idle stream an operation starts when it is queued: a thread descheduled
 * between hipEventRecord and hipLaunchKernel, on a loaded machine, under ThreadSanitizer,
 * would stretch the interval; a kernel queued ahead only covered the first few ms). */
static void hold(hipStream_t s)
{
	gate_is_open = 0;
	hipStreamAddCallback(s, gate_hold, NULL, 0);
}

static float elapsed(hipEvent_t a, hipEvent_t b)
{
	float ms = -1e9f;
	if (hipEventElapsedTime(&ms, a, b) != hipSuccess)
		return -1e9f;
	return ms;
}

/* ------------------------------------------------------------------ devices */
static void *thread_device(void *arg)
{
	int *out = arg, d = -1;
	hipGetDevice(&d);
	out[0] = d; /* a new thread starts on device 0 */
	hipSetDevice(1);
	hipGetDevice(&d);
	out[1] = d;
	out[2] = hipGetLastError(); /* this thread's: success */
	return NULL;
}

static void test_devices(void)
{
	int n = -1, d = -1, out[3] = {-1, -1, -1}, v = 0;
	hipError_t e;
	char name[64] = "";
	hipDeviceProp_t p;
	pthread_t t;
	size_t fr = 0, tot = 0;
	is_u64(hipGetDeviceCount(&n), hipSuccess, "hipGetDeviceCount succeeds");
	is_u64(n, 2, "two devices (STANDIN_HIP_DEVICES default)");
	hipGetDevice(&d);
	is_u64(d, 0, "the current device starts at 0");
	is_u64(hipSetDevice(2), hipErrorInvalidDevice, "hipSetDevice(2) is hipErrorInvalidDevice");
	pthread_create(&t, NULL, thread_device, out);
	pthread_join(t, NULL);
	ok(out[0] == 0 && out[1] == 1, "another thread starts on device 0 and switches to 1 (%d, %d)",
	   out[0], out[1]);
	is_u64(out[2], hipSuccess, "the other thread's last error is its own");
	is_u64(hipPeekAtLastError(), hipErrorInvalidDevice, "hipPeekAtLastError keeps this thread's error");
	is_u64(hipGetLastError(), hipErrorInvalidDevice, "hipGetLastError returns it");
	is_u64(hipGetLastError(), hipSuccess, "and resets it");
	hipGetDevice(&d);
	is_u64(d, 0, "this thread is still on device 0");
	/* (tap.h formats the description before it evaluates the condition: call first) */
	memset(&p, 0, sizeof(p));
	e = hipGetDeviceProperties(&p, 1);
	ok(e == hipSuccess && strcmp(p.name, "Stand-in GPU 1") == 0 && p.totalGlobalMem > 0 &&
		   p.multiProcessorCount > 0,
	   "hipGetDeviceProperties(1): \"%.40s\"", p.name);
	e = hipDeviceGetName(name, sizeof(name), 0);
	ok(e == hipSuccess && strcmp(name, "Stand-in GPU 0") == 0, "hipDeviceGetName(0): \"%s\"",
	   name);
	e = hipDeviceGetAttribute(&v, hipDeviceAttributeWarpSize, 0);
	ok(e == hipSuccess && v == 64, "hipDeviceGetAttribute(warp size) = %d", v);
	e = hipMemGetInfo(&fr, &tot);
	ok(e == hipSuccess && fr <= tot && tot == p.totalGlobalMem, "hipMemGetInfo: %zu of %zu free",
	   fr, tot);
	e = hipRuntimeGetVersion(&v);
	ok(e == hipSuccess && v == 50221153, "hipRuntimeGetVersion = %d", v);
	ok(strcmp(hipGetErrorName(hipErrorNotReady), "hipErrorNotReady") == 0,
	   "hipGetErrorName(600)");
}

/* ------------------------------------------------------------------ kernels and events */
static void test_async_and_timing(void)
{
	hipStream_t s;
	hipEvent_t a, b, e[4];
	double t0, t1, t2;
	int i, inorder = 1;
	hipStreamCreate(&s);
	hipEventCreate(&a);
	hipEventCreate(&b);
	hold(s);
	hipEventRecord(a, s);
	/* returns with its stream held: it does not wait for its kernel */
	is_u64(k20(s), hipSuccess, "hipLaunchKernel of a registered kernel succeeds");
	hipEventRecord(b, s);
	is_u64(hipStreamQuery(s), hipErrorNotReady, "hipStreamQuery: not ready while it runs");
	is_u64(hipEventQuery(b), hipErrorNotReady, "hipEventQuery: not ready before the kernel ends");
	{
		float ms = 0;
		is_u64(hipEventElapsedTime(&ms, a, b), hipErrorNotReady,
		       "hipEventElapsedTime: not ready before the stop event");
	}
	t0 = now_ms();
	gate_open();
	is_u64(hipStreamSynchronize(s), hipSuccess, "hipStreamSynchronize");
	t2 = now_ms();
	ok(t2 - t0 >= K20, "hipStreamSynchronize returns after the kernel (%.2f ms)", t2 - t0);
	is_u64(hipEventQuery(b), hipSuccess, "hipEventQuery: success after it");
	ok(near(elapsed(a, b), K20, 0.05), "events around the kernel: %.3f ms (configured %.0f)",
	   elapsed(a, b), K20);
	ok(elapsed(b, a) < 0 && near(-elapsed(b, a), K20, 0.05),
	   "reversed, the elapsed time is negative (%.3f)", elapsed(b, a));

	/* re-recording resets */
	k20(s);
	hipEventRecord(b, s);
	is_u64(hipEventQuery(b), hipErrorNotReady, "an event recorded again is not ready until reached");
	hipEventSynchronize(b);
	ok(elapsed(a, b) >= 2 * K20, "and then times its new position (%.3f ms, at least %.0f)",
	   elapsed(a, b), 2 * K20);

	/* order within a stream */
	for (i = 0; i < 4; i++)
		hipEventCreate(&e[i]);
	hold(s);
	hipEventRecord(e[0], s);
	for (i = 1; i < 4; i++) {
		k5(s);
		hipEventRecord(e[i], s);
	}
	gate_open();
	hipStreamSynchronize(s);
	for (i = 1; i < 4; i++)
		inorder &= near(elapsed(e[i - 1], e[i]), K5, 0.05);
	ok(inorder, "three kernels on one stream run one after the other (%.3f %.3f %.3f ms)",
	   elapsed(e[0], e[1]), elapsed(e[1], e[2]), elapsed(e[2], e[3]));
	for (i = 0; i < 4; i++)
		hipEventDestroy(e[i]);

	/* hipExtLaunchKernel records its own events */
	is_u64(hipExtLaunchKernel(&k5_stub, one, block, NULL, 0, s, a, b, 0), hipSuccess,
	       "hipExtLaunchKernel with start/stop events");
	hipEventSynchronize(b);
	ok(near(elapsed(a, b), K5, 0.05), "its events time the kernel (%.3f ms)", elapsed(a, b));

	/* an unregistered stub runs with the default duration */
	hold(s);
	hipEventRecord(a, s);
	is_u64(hipLaunchKernel(&other_stub, one, block, NULL, 0, s), hipSuccess,
	       "an unknown host function still launches");
	hipEventRecord(b, s);
	gate_open();
	hipEventSynchronize(b);
	ok(near(elapsed(a, b), KDEFAULT, 0.05), "with the default duration (%.3f ms)", elapsed(a, b));
	{
		dim3 zero = {0, 1, 1};
		is_u64(hipLaunchKernel(&k5_stub, zero, block, NULL, 0, s), hipErrorInvalidConfiguration,
		       "an empty grid is hipErrorInvalidConfiguration");
	}

	hipEventDestroy(a);
	hipEventDestroy(b);
	hipStreamDestroy(s);
}

static void test_concurrency(void)
{
	hipStream_t s1, s2, sg, nb;
	hipEvent_t a1, b1, a2, b2, g;
	double t0, t1;
	char *h = malloc(64), *d;
	hipStreamCreate(&s1);
	hipStreamCreate(&s2);
	hipStreamCreate(&sg);
	hipEventCreate(&a1);
	hipEventCreate(&b1);
	hipEventCreate(&a2);
	hipEventCreate(&b2);
	/* Both streams wait for one gate, then run a 20 ms kernel: on the device timeline the two
	 * kernels start together when they run side by side, one after the other if they did
	 * not. */
	g = gate(sg);
	hipStreamWaitEvent(s1, g, 0);
	hipEventRecord(a1, s1);
	k20(s1);
	hipEventRecord(b1, s1);
	hipStreamWaitEvent(s2, g, 0);
	hipEventRecord(a2, s2);
	k20(s2);
	hipEventRecord(b2, s2);
	t0 = now_ms();
	gate_open();
	hipDeviceSynchronize();
	t1 = now_ms();
	ok(fabs(elapsed(a1, a2)) < 0.01 && elapsed(a1, b2) < 1.05 * K20,
	   "kernels on two streams run side by side (started %.3f ms apart, both done %.3f ms after the first began)",
	   elapsed(a1, a2), elapsed(a1, b2));
	ok(near(elapsed(a1, b1), K20, 0.05) && near(elapsed(a2, b2), K20, 0.05),
	   "their events agree: each lasts %.0f ms (%.3f, %.3f)", K20, elapsed(a1, b1),
	   elapsed(a2, b2));
	ok(t1 - t0 >= K20, "hipDeviceSynchronize waits for both (%.2f ms from the gate)", t1 - t0);
	hipEventDestroy(g);

	/* hipStreamWaitEvent: s2 waits for s1's kernel */
	hold(s1);
	hipEventRecord(a1, s1);
	k20(s1);
	hipEventRecord(b1, s1);
	is_u64(hipStreamWaitEvent(s2, b1, 0), hipSuccess, "hipStreamWaitEvent");
	k5(s2);
	hipEventRecord(b2, s2);
	gate_open();
	hipStreamSynchronize(s2);
	ok(near(elapsed(a1, b2), K20 + K5, 0.05),
	   "the waiting stream's kernel starts when the event completes (%.3f ms, want %.0f)",
	   elapsed(a1, b2), K20 + K5);
	is_u64(hipEventQuery(b1), hipSuccess, "so the event it waited for is complete");

	/* legacy null stream: hipMemcpy waits for blocking streams, not for non-blocking ones */
	hipMalloc((void **)&d, 64);
	memset(h, 1, 64);
	t0 = now_ms();
	k20(s1);
	hipMemcpy(d, h, 64, hipMemcpyHostToDevice);
	t1 = now_ms();
	ok(t1 - t0 >= K20, "hipMemcpy (null stream) waits for a blocking stream's kernel (%.2f ms)",
	   t1 - t0);
	hipStreamCreateWithFlags(&nb, hipStreamNonBlocking);
	/* ten kernels, 200 ms of work: the host reaches the copy long before they end, even on a
	 * loaded machine that stops this thread for a while */
	for (int i = 0; i < 10; i++)
		k20(nb);
	hipEventRecord(b1, nb);
	hipMemcpy(d, h, 64, hipMemcpyHostToDevice);
	hipEventRecord(a1, NULL);
	hipEventSynchronize(b1);
	hipEventSynchronize(a1);
	/* On the device timeline the copy (and the null-stream event after it) ends before the
	 * non-blocking stream's kernel does. */
	ok(elapsed(a1, b1) > 0, "but not for a hipStreamNonBlocking stream's (done %.2f ms before its kernels)",
	   elapsed(a1, b1));
	hipStreamSynchronize(nb);
	t0 = now_ms();
	k20(s1);
	is_u64(hipStreamQuery(NULL), hipErrorNotReady,
	       "hipStreamQuery(NULL) is not ready while a blocking stream works");
	hipStreamSynchronize(NULL);
	t1 = now_ms();
	ok(t1 - t0 >= K20, "hipStreamSynchronize(NULL) waits for it (%.2f ms)", t1 - t0);
	t0 = now_ms();
	k20(NULL);
	k5(s1);
	hipStreamSynchronize(s1);
	t1 = now_ms();
	ok(t1 - t0 >= K20 + K5, "and a blocking stream waits for the null stream (%.2f ms)", t1 - t0);

	/* hipFree synchronises */
	t0 = now_ms();
	k20(s2);
	is_u64(hipFree(d), hipSuccess, "hipFree");
	t1 = now_ms();
	ok(t1 - t0 >= K20, "hipFree waits for the device (%.2f ms)", t1 - t0);
	is_u64(hipFree(h), hipErrorInvalidValue, "hipFree of a pointer it did not allocate fails");
	hipGetLastError();

	is_u64(hipGetStreamDeviceId(s1), 0, "hipGetStreamDeviceId of a device-0 stream");
	hipSetDevice(1);
	is_u64(hipGetStreamDeviceId(NULL), 1, "hipGetStreamDeviceId(NULL) is the current device");
	hipSetDevice(0);

	hipEventDestroy(a1);
	hipEventDestroy(b1);
	hipEventDestroy(a2);
	hipEventDestroy(b2);
	hipStreamDestroy(s1);
	hipStreamDestroy(s2);
	hipStreamDestroy(sg);
	is_u64(hipStreamDestroy(nb), hipSuccess, "hipStreamDestroy");
	is_u64(hipStreamQuery(nb), hipErrorContextIsDestroyed, "a destroyed stream is rejected");
	hipGetLastError();
	free(h);
}

/* ------------------------------------------------------------------ devices' events, clocks */
static long long find_event_line(const char *trace, hipEvent_t ev, int dev, long long *host_end)
{
	char want[64], line[1024];
	long long dev_end = 0;
	FILE *f = fopen(trace, "r");
	snprintf(want, sizeof(want), "label=event %p ", (void *)ev);
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char pfx[32];
		const char *p;
		snprintf(pfx, sizeof(pfx), "device-op dev=%d ", dev);
		if (!strstr(line, pfx) || !strstr(line, want))
			continue;
		if ((p = strstr(line, " end=")))
			dev_end = atoll(p + 5);
		if ((p = strstr(line, " host_end=")))
			*host_end = atoll(p + 10);
	}
	fclose(f);
	return dev_end;
}

static void test_devices_events(const char *trace)
{
	hipStream_t s1;
	hipEvent_t e0, e1;
	long long h0, h1, host_end = 0, dev_end;
	long long offset = 2000000000000LL + 12345; /* device 1, the default offset */
	float ms;
	hipEventCreate(&e0);
	hipSetDevice(1);
	hipStreamCreate(&s1);
	hipEventCreate(&e1);
	is_u64(hipEventRecord(e0, s1), hipErrorInvalidHandle,
	       "recording a device-0 event on a device-1 stream is hipErrorInvalidHandle");
	h0 = now_ns();
	hipEventRecord(e1, s1);
	hipEventSynchronize(e1);
	h1 = now_ns();
	hipSetDevice(0);
	hipEventRecord(e0, NULL);
	hipEventSynchronize(e0);
	is_u64(hipEventElapsedTime(&ms, e0, e1), hipErrorInvalidHandle,
	       "hipEventElapsedTime across devices is hipErrorInvalidHandle");
	hipGetLastError();
	dev_end = find_event_line(trace, e1, 1, &host_end);
	ok(dev_end != 0, "the trace shows the device-1 event's timestamp");
	is_u64(dev_end - host_end, offset, "device 1's clock is CLOCK_MONOTONIC + its offset");
	ok(host_end >= h0 && host_end <= h1,
	   "an event on an idle stream takes the time of its hipEventRecord (%lld ns into the call)",
	   host_end - h0);
	ok(dev_end - offset >= h0 && dev_end - offset <= h1,
	   "device time - offset lies within the host's time of the call");
	hipEventDestroy(e0);
	hipEventDestroy(e1);
	hipStreamDestroy(s1);
}

/* ------------------------------------------------------------------ copies, memsets */
static int all(const unsigned char *p, size_t n, unsigned char v)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (p[i] != v)
			return 0;
	return 1;
}

static void test_copies(void)
{
	enum { N = 1 << 20, BIG = 20 << 20 };
	unsigned char *h = malloc(N), *back = malloc(N), *d1, *d2, *big_h = malloc(BIG), *big_d;
	unsigned char *pd;
	size_t pitch = 0, i, r;
	int okay = 1;
	uint16_t *h16 = malloc(64 * 2);
	uint32_t *h32 = malloc(64 * 4);
	hipStream_t s;
	hipEvent_t a, b;
	hipStreamCreate(&s);
	hipEventCreate(&a);
	hipEventCreate(&b);
	for (i = 0; i < N; i++)
		h[i] = (unsigned char)(i * 7 + 3);
	is_u64(hipMalloc((void **)&d1, N), hipSuccess, "hipMalloc");
	ok(((uintptr_t)d1 & 255) == 0, "device memory is 256-byte aligned");
	hipMalloc((void **)&d2, N);
	is_u64(hipMemcpy(d1, h, N, hipMemcpyHostToDevice), hipSuccess, "hipMemcpy HtoD");
	hipMemcpy(d2, d1, N, hipMemcpyDeviceToDevice);
	memset(back, 0, N);
	hipMemcpy(back, d2, N, hipMemcpyDeviceToHost);
	ok(memcmp(back, h, N) == 0, "HtoD, DtoD, DtoH: the bytes arrive");
	memset(back, 0, N);
	hipMemcpyHtoD(d1, h + 5, 1000);
	hipMemcpyDtoD(d2, d1, 1000);
	hipMemcpyDtoH(back, d2, 1000);
	ok(memcmp(back, h + 5, 1000) == 0, "hipMemcpyHtoD/DtoD/DtoH");

	/* asynchronous: nothing arrives before the stream gets there */
	k20(s);
	memset(back, 0, N);
	hipMemcpyAsync(d1, h, N, hipMemcpyHostToDevice, s);
	hipMemcpyAsync(back, d1, N, hipMemcpyDeviceToHost, s);
	ok(all(back, 64, 0), "an async copy queued behind a kernel has not happened yet");
	hipStreamSynchronize(s);
	ok(memcmp(back, h, N) == 0, "after hipStreamSynchronize it has");

	/* 2D with pitches */
	is_u64(hipMallocPitch((void **)&pd, &pitch, 100, 10), hipSuccess, "hipMallocPitch");
	ok(pitch >= 100 && pitch % 256 == 0, "pitch %zu", pitch);
	hipMemset2D(pd, pitch, 0xee, pitch, 10);
	hipMemcpy2D(pd, pitch, h, 128, 100, 10, hipMemcpyHostToDevice);
	memset(back, 0, N);
	hipMemcpy2DAsync(back, 100, pd, pitch, 100, 10, hipMemcpyDeviceToHost, s);
	hipStreamSynchronize(s);
	for (r = 0; r < 10; r++)
		okay &= memcmp(back + r * 100, h + r * 128, 100) == 0 && pd[r * pitch + 100] == 0xee;
	ok(okay, "hipMemcpy2D / hipMemcpy2DAsync copy rows, leaving the padding alone");

	/* memsets */
	hipMemset(d1, 0xab, N);
	hipMemcpy(back, d1, N, hipMemcpyDeviceToHost);
	ok(all(back, N, 0xab), "hipMemset");
	hipMemsetAsync(d1, 0x11, 100, s);
	hipMemsetD16(d2, 0xbeef, 64);
	hipMemsetD32Async(d2 + 256, 0xcafef00d, 64, s);
	hipStreamSynchronize(s);
	hipMemcpy(back, d1, 101, hipMemcpyDeviceToHost);
	hipMemcpy(h16, d2, 128, hipMemcpyDeviceToHost);
	hipMemcpy(h32, d2 + 256, 256, hipMemcpyDeviceToHost);
	ok(all(back, 100, 0x11) && back[100] == 0xab, "hipMemsetAsync sets exactly its bytes");
	okay = 1;
	for (i = 0; i < 64; i++)
		okay &= h16[i] == 0xbeef && h32[i] == 0xcafef00du;
	ok(okay, "hipMemsetD16 / hipMemsetD32Async");

	/* symbols: the host shadow of a __device__ variable is plain memory */
	{
		static int symbol[8];
		int in[2] = {41, 42}, out[2] = {0, 0};
		hipMemcpyToSymbol(symbol, in, sizeof(in), 2 * sizeof(int), hipMemcpyHostToDevice);
		hipMemcpyFromSymbol(out, symbol, sizeof(out), 2 * sizeof(int), hipMemcpyDeviceToHost);
		ok(symbol[2] == 41 && out[1] == 42, "hipMemcpyToSymbol / FromSymbol at an offset");
	}

	/* a copy lasts bytes / STANDIN_HIP_COPY_GBPS */
	memset(big_h, 5, BIG);
	hipMalloc((void **)&big_d, BIG);
	hold(s);
	hipEventRecord(a, s);
	hipMemcpyHtoDAsync(big_d, big_h, BIG, s);
	hipEventRecord(b, s);
	gate_open();
	hipEventSynchronize(b);
	ok(near(elapsed(a, b), BIG / COPY_GBPS / 1e6, 0.05), "a %d MB copy at %.0f GB/s: %.3f ms", BIG >> 20,
	   COPY_GBPS, elapsed(a, b));
	ok(big_d[BIG - 1] == 5, "and it copied");

	hipFree(d1);
	hipFree(d2);
	hipFree(pd);
	hipFree(big_d);
	{
		void *ph = NULL;
		ok(hipHostMalloc(&ph, 4096, 0) == hipSuccess && ph && hipHostFree(ph) == hipSuccess,
		   "hipHostMalloc / hipHostFree");
	}
	hipEventDestroy(a);
	hipEventDestroy(b);
	hipStreamDestroy(s);
	free(h);
	free(back);
	free(big_h);
	free(h16);
	free(h32);
}

/* ------------------------------------------------------------------ callbacks */
static int cb_log[8], cb_n;
static hipEvent_t cb_event;
static int cb_event_done;

static void callback(hipStream_t stream, hipError_t status, void *data)
{
	(void)stream;
	if (status == hipSuccess && cb_n < 8)
		cb_log[cb_n++] = (int)(intptr_t)data;
	if ((intptr_t)data == 1)
		cb_event_done = hipEventQuery(cb_event) == hipSuccess;
}

static void test_callbacks(void)
{
	hipStream_t s;
	int i, okay;
	hipStreamCreate(&s);
	hipEventCreate(&cb_event);
	hold(s);
	k20(s);
	hipEventRecord(cb_event, s);
	for (i = 1; i <= 5; i++) {
		is_u64(hipStreamAddCallback(s, callback, (void *)(intptr_t)i, 0), hipSuccess,
		       "hipStreamAddCallback %d", i);
		if (i == 2)
			k5(s);
	}
	ok(cb_n == 0, "callbacks wait for the work queued before them");
	gate_open();
	hipStreamSynchronize(s);
	okay = cb_n == 5;
	for (i = 0; i < cb_n; i++)
		okay &= cb_log[i] == i + 1;
	ok(okay, "callbacks ran in order (%d of them)", cb_n);
	ok(cb_event_done, "the first callback sees the event recorded before it as complete");
	hipEventDestroy(cb_event);
	hipStreamDestroy(s);
}

/* ------------------------------------------------------------------ modules, graphs, names */
static void test_modules(void)
{
	static const char image[] = "not a code object";
	hipModule_t m;
	hipFunction_t f;
	hipStream_t s;
	hipEvent_t a, b;
	hipStreamCreate(&s);
	hipEventCreate(&a);
	hipEventCreate(&b);
	is_u64(hipModuleLoadData(&m, image), hipSuccess, "hipModuleLoadData");
	is_u64(hipModuleGetFunction(&f, m, "k5_from_module"), hipSuccess, "hipModuleGetFunction");
	ok(hipKernelNameRef(f) && strcmp(hipKernelNameRef(f), "k5_from_module") == 0,
	   "hipKernelNameRef gives its name");
	hold(s);
	hipEventRecord(a, s);
	is_u64(hipModuleLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, s, NULL, NULL), hipSuccess,
	       "hipModuleLaunchKernel");
	hipEventRecord(b, s);
	gate_open();
	hipEventSynchronize(b);
	/* At least its time: a busy machine can only make the stand-in's device thread late. */
	ok(elapsed(a, b) >= 0.95 * K5 && elapsed(a, b) < K5 + 1000,
	   "the module's kernel lasts its configured %.0f ms (%.3f)", K5, elapsed(a, b));
	is_u64(hipModuleUnload(m), hipSuccess, "hipModuleUnload");
	is_u64(hipModuleLoad(&m, "/nonexistent/x.hsaco"), hipErrorFileNotFound,
	       "hipModuleLoad of a missing file");
	hipGetLastError();

	ok(hipKernelNameRefByPtr(&k20_stub, s) && strstr(hipKernelNameRefByPtr(&k20_stub, s), "k20"),
	   "hipKernelNameRefByPtr gives the registered (mangled) name");
	ok(hipKernelNameRefByPtr(&other_stub, s) == NULL, "and NULL for an unknown pointer");
	{
		struct hipFuncAttributes fa;
		is_u64(hipFuncGetAttributes(&fa, &k5_stub), hipSuccess, "hipFuncGetAttributes");
	}

	hold(s);
	hipEventRecord(a, s);
	is_u64(hipGraphLaunch((hipGraphExec_t)&image, s), hipSuccess, "hipGraphLaunch");
	hipEventRecord(b, s);
	gate_open();
	hipEventSynchronize(b);
	ok(near(elapsed(a, b), GRAPH, 0.05), "a graph lasts STANDIN_HIP_GRAPH_US (%.3f ms)",
	   elapsed(a, b));
	hipEventDestroy(a);
	hipEventDestroy(b);
	hipStreamDestroy(s);
}

/* ------------------------------------------------------------------ threads */
#define NTHREADS 8
#define NITER 50
static atomic_int thread_errors;

static void *hammer(void *arg)
{
	hipStream_t s;
	hipEvent_t ev[NITER + 1];
	int i, dev = (int)(intptr_t)arg % 2;
	float total = 0;
	hipSetDevice(dev);
	if (hipStreamCreate(&s) != hipSuccess)
		atomic_fetch_add(&thread_errors, 1);
	for (i = 0; i <= NITER; i++)
		hipEventCreate(&ev[i]);
	hipEventRecord(ev[0], s);
	for (i = 1; i <= NITER; i++) {
		if (hipLaunchKernel(&other_stub, one, block, NULL, 0, s) != hipSuccess ||
		    hipEventRecord(ev[i], s) != hipSuccess)
			atomic_fetch_add(&thread_errors, 1);
		hipEventQuery(ev[i - 1]);
		hipStreamQuery(hipStreamPerThread);
	}
	hipStreamSynchronize(s);
	/* Each interval holds one kernel, plus any time the stream sat idle waiting for the
	 * next launch (a busy host can be slower than 0.1 ms kernels). */
	for (i = 1; i <= NITER; i++) {
		float ms = elapsed(ev[i - 1], ev[i]);
		total += ms;
		if (ms < KDEFAULT * 0.95)
			atomic_fetch_add(&thread_errors, 1);
	}
	if (total < NITER * KDEFAULT * 0.95)
		atomic_fetch_add(&thread_errors, 1);
	for (i = 0; i <= NITER; i++)
		hipEventDestroy(ev[i]);
	hipStreamDestroy(s);
	return NULL;
}

/* Waits for the gate in arg[0] on this thread's hipStreamPerThread, then brackets a 20 ms
 * kernel with the events arg[1], arg[2] (created here); says when it has queued them. */
static pthread_barrier_t per_thread_queued;

static void *per_thread_k20(void *arg)
{
	hipEvent_t *ev = arg;
	hipEventCreate(&ev[1]);
	hipEventCreate(&ev[2]);
	hipStreamWaitEvent(hipStreamPerThread, ev[0], 0);
	hipEventRecord(ev[1], hipStreamPerThread);
	k20(hipStreamPerThread);
	hipEventRecord(ev[2], hipStreamPerThread);
	pthread_barrier_wait(&per_thread_queued);
	hipStreamSynchronize(hipStreamPerThread);
	return NULL;
}

static void test_threads(void)
{
	pthread_t t[NTHREADS];
	intptr_t i;
	double t0, t1;
	for (i = 0; i < NTHREADS; i++)
		pthread_create(&t[i], NULL, hammer, (void *)i);
	for (i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	is_u64(atomic_load(&thread_errors), 0,
	       "%d threads on two devices: every call succeeds, kernels keep their order and duration",
	       NTHREADS);
	/* Two threads' kernels on their hipStreamPerThread, behind one gate: on one stream they
	 * would run one after the other, on one stream each they start together. */
	{
		hipStream_t sg;
		hipEvent_t ev[2][3];
		hipStreamCreate(&sg);
		ev[0][0] = ev[1][0] = gate(sg);
		pthread_barrier_init(&per_thread_queued, NULL, 3);
		for (i = 0; i < 2; i++)
			pthread_create(&t[i], NULL, per_thread_k20, ev[i]);
		pthread_barrier_wait(&per_thread_queued);
		t0 = now_ms();
		gate_open();
		for (i = 0; i < 2; i++)
			pthread_join(t[i], NULL);
		t1 = now_ms();
		pthread_barrier_destroy(&per_thread_queued);
		ok(fabs(elapsed(ev[0][1], ev[1][1])) < 0.01 && near(elapsed(ev[0][1], ev[0][2]), K20, 0.05) &&
			   near(elapsed(ev[1][1], ev[1][2]), K20, 0.05) && t1 - t0 >= K20,
		   "hipStreamPerThread is one stream per thread (two %.0f ms kernels started %.3f ms apart)",
		   K20, elapsed(ev[0][1], ev[1][1]));
		for (i = 0; i < 2; i++) {
			hipEventDestroy(ev[i][1]);
			hipEventDestroy(ev[i][2]);
		}
		hipEventDestroy(ev[0][0]);
		hipStreamDestroy(sg);
	}
}

/* ------------------------------------------------------------------ fork */
static void test_fork(void)
{
	hipStream_t s;
	pid_t pid;
	int status = -1;
	hipStreamCreate(&s);
	k20(s); /* still running when the child starts */
	pid = fork();
	if (pid == 0) {
		/* The child has no workers yet: its calls must start them again. */
		alarm(5);
		k5(NULL);
		_exit(hipStreamSynchronize(s) == hipSuccess && hipDeviceSynchronize() == hipSuccess &&
			      hipStreamQuery(s) == hipSuccess
		      ? 0 : 1);
	}
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	   "a forked child can still launch and synchronise, also on work queued before the fork");
	hipStreamSynchronize(s);
	hipStreamDestroy(s);
}

int main(int argc, char **argv)
{
	void **fb = __hipRegisterFatBinary("fake");
	const char *trace = argc > 1 ? argv[1] : NULL;
	__hipRegisterFunction(fb, &k20_stub, "_Z7k20_msPf", "_Z7k20_msPf", -1u, NULL, NULL, NULL,
			      NULL, NULL);
	__hipRegisterFunction(fb, &k5_stub, "_Z6k5_msPfi", "_Z6k5_msPfi", -1u, NULL, NULL, NULL,
			      NULL, NULL);
	test_devices();
	test_async_and_timing();
	test_concurrency();
	if (trace)
		test_devices_events(trace);
	test_copies();
	test_callbacks();
	test_modules();
	test_threads();
	test_fork();
	__hipUnregisterFatBinary(fb);
	ok(hipKernelNameRefByPtr(&k20_stub, NULL) == NULL,
	   "__hipUnregisterFatBinary forgets the binary's kernels");
	return tap_done();
}
