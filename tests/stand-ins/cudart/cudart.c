/* cudart.c — a stand-in for the CUDA 12 runtime (libcudart.so.12) with just what tprof's
 * tests of NCCL over CUDA need: devices, streams, events, memory and copies, each with the
 * real name, C prototype, error numbering (cudaSuccess 0, cudaErrorNotReady 600) and symbol
 * version (libcudart.so.12).  Its devices and streams are the stand-in HIP runtime's, so a
 * stream made here can be given to the stand-in libnccl.so.2 (which runs over HIP) and its
 * events time that work.
 *
 * A real libcudart does not call HIP, so neither does a profiled program through this one:
 * the HIP functions are looked up in libamdhip64.so.5's own handle with dlvsym (which no
 * profiler wraps), never through the symbols a profiler interposes.
 *
 * STANDIN_CUDART_TRACE_FILE (%p: the pid) gets one line per call:
 *   standin-cudart[PID.TID] cudaEventRecord(event=0x..., stream=0x...) = 0 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define API __attribute__((visibility("default")))

#include <cuda_runtime_api.h>

/* ---- the HIP functions it runs on ---------------------------------------------------------- */

#define HIP_FUNCS(X)                                                                       \
	X(hipGetDeviceCount, (int *))                                                      \
	X(hipGetDevice, (int *))                                                           \
	X(hipSetDevice, (int))                                                             \
	X(hipDeviceSynchronize, (void))                                                    \
	X(hipGetLastError, (void))                                                         \
	X(hipMalloc, (void **, size_t))                                                    \
	X(hipFree, (void *))                                                               \
	X(hipMemcpy, (void *, const void *, size_t, int))                                  \
	X(hipMemcpyAsync, (void *, const void *, size_t, int, void *))                     \
	X(hipStreamCreate, (void **))                                                      \
	X(hipStreamCreateWithFlags, (void **, unsigned int))                               \
	X(hipStreamDestroy, (void *))                                                      \
	X(hipStreamSynchronize, (void *))                                                  \
	X(hipEventCreate, (void **))                                                       \
	X(hipEventCreateWithFlags, (void **, unsigned int))                                \
	X(hipEventRecord, (void *, void *))                                                \
	X(hipEventQuery, (void *))                                                         \
	X(hipEventSynchronize, (void *))                                                   \
	X(hipEventElapsedTime, (float *, void *, void *))                                  \
	X(hipEventDestroy, (void *))

#define HIP_PTR(name, params) static int(*p_##name) params;
HIP_FUNCS(HIP_PTR)
#undef HIP_PTR

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int ready;
static FILE *trace;
static pthread_mutex_t trace_lock = PTHREAD_MUTEX_INITIALIZER;

static void trace_open(void)
{
	const char *path = getenv("STANDIN_CUDART_TRACE_FILE");
	char buf[4096];
	size_t n = 0;
	if (!path || !*path)
		return;
	for (const char *s = path; *s && n + 16 < sizeof(buf); s++) {
		if (s[0] == '%' && s[1] == 'p') {
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%d", (int)getpid());
			s++;
		} else {
			buf[n++] = *s;
		}
	}
	buf[n] = 0;
	trace = fopen(buf, "a");
	if (trace)
		setvbuf(trace, NULL, _IOLBF, 0);
}

static void init(void)
{
	void *h = dlopen("libamdhip64.so.5", RTLD_NOW | RTLD_NOLOAD);
	if (!h)
		h = dlopen("libamdhip64.so.5", RTLD_NOW);
	ready = h != NULL;
#define HIP_FIND(name, params)                                                             \
	p_##name = (int(*) params)(h ? dlvsym(h, #name, "hip_4.2") : NULL);                \
	ready = ready && p_##name;
	HIP_FUNCS(HIP_FIND)
#undef HIP_FIND
	trace_open();
}

static void say(const char *fn, cudaError_t rc, const char *fmt, ...)
{
	if (!trace)
		return;
	char args[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(args, sizeof(args), fmt, ap);
	va_end(ap);
	pthread_mutex_lock(&trace_lock);
	fprintf(trace, "standin-cudart[%d.%ld] %s(%s) = %d\n", (int)getpid(),
		(long)syscall(SYS_gettid), fn, args, rc);
	pthread_mutex_unlock(&trace_lock);
}

/* Every function: the HIP one, its result traced and returned as is (the numbers that
 * matter agree: success 0, not ready 600). */
#define CALL(fn, hipcall, fmt, ...)                                                        \
	do {                                                                               \
		pthread_once(&once, init);                                                 \
		cudaError_t rc_ = ready ? (cudaError_t)(hipcall)                           \
					: cudaErrorInitializationError;                    \
		say(fn, rc_, fmt, __VA_ARGS__);                                            \
		return rc_;                                                                \
	} while (0)

/* ---- the runtime ------------------------------------------------------------------------- */

API cudaError_t cudaRuntimeGetVersion(int *v)
{
	if (v)
		*v = 12040;
	CALL("cudaRuntimeGetVersion", 0, "%p", (void *)v);
}

API cudaError_t cudaGetDeviceCount(int *n)
{
	CALL("cudaGetDeviceCount", p_hipGetDeviceCount(n), "%p", (void *)n);
}

API cudaError_t cudaGetDevice(int *d)
{
	CALL("cudaGetDevice", p_hipGetDevice(d), "%p", (void *)d);
}

API cudaError_t cudaSetDevice(int d)
{
	CALL("cudaSetDevice", p_hipSetDevice(d), "%d", d);
}

API cudaError_t cudaDeviceSynchronize(void)
{
	CALL("cudaDeviceSynchronize", p_hipDeviceSynchronize(), "%s", "");
}

API cudaError_t cudaGetLastError(void)
{
	CALL("cudaGetLastError", p_hipGetLastError(), "%s", "");
}

API cudaError_t cudaMalloc(void **p, size_t n)
{
	CALL("cudaMalloc", p_hipMalloc(p, n), "%p, %zu", (void *)p, n);
}

API cudaError_t cudaFree(void *p)
{
	CALL("cudaFree", p_hipFree(p), "%p", p);
}

API cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind)
{
	CALL("cudaMemcpy", p_hipMemcpy(dst, src, n, (int)kind), "%p, %p, %zu, %d", dst, src, n, (int)kind);
}

API cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind,
				  cudaStream_t s)
{
	CALL("cudaMemcpyAsync", p_hipMemcpyAsync(dst, src, n, (int)kind, s), "%p, %p, %zu, %d, stream=%p",
	     dst, src, n, (int)kind, (void *)s);
}

API cudaError_t cudaStreamCreate(cudaStream_t *s)
{
	CALL("cudaStreamCreate", p_hipStreamCreate((void **)s), "%p", (void *)s);
}

API cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned int flags)
{
	CALL("cudaStreamCreateWithFlags", p_hipStreamCreateWithFlags((void **)s, flags), "%p, %u",
	     (void *)s, flags);
}

API cudaError_t cudaStreamDestroy(cudaStream_t s)
{
	CALL("cudaStreamDestroy", p_hipStreamDestroy(s), "stream=%p", (void *)s);
}

API cudaError_t cudaStreamSynchronize(cudaStream_t s)
{
	CALL("cudaStreamSynchronize", p_hipStreamSynchronize(s), "stream=%p", (void *)s);
}

API cudaError_t cudaEventCreate(cudaEvent_t *e)
{
	CALL("cudaEventCreate", p_hipEventCreate((void **)e), "%p", (void *)e);
}

API cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned int flags)
{
	CALL("cudaEventCreateWithFlags", p_hipEventCreateWithFlags((void **)e, flags), "%p, %u", (void *)e,
	     flags);
}

API cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s)
{
	CALL("cudaEventRecord", p_hipEventRecord(e, s), "event=%p, stream=%p", (void *)e, (void *)s);
}

API cudaError_t cudaEventQuery(cudaEvent_t e)
{
	CALL("cudaEventQuery", p_hipEventQuery(e), "event=%p", (void *)e);
}

API cudaError_t cudaEventSynchronize(cudaEvent_t e)
{
	CALL("cudaEventSynchronize", p_hipEventSynchronize(e), "event=%p", (void *)e);
}

API cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b)
{
	CALL("cudaEventElapsedTime", p_hipEventElapsedTime(ms, a, b), "%p, event=%p, event=%p",
	     (void *)ms, (void *)a, (void *)b);
}

API cudaError_t cudaEventDestroy(cudaEvent_t e)
{
	CALL("cudaEventDestroy", p_hipEventDestroy(e), "event=%p", (void *)e);
}
