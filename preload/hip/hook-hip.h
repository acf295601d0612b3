/* hook-hip.h — the HIP functions tprof wraps, listed once as data, and the types they need
 * (declared here with HIP 5.2's layouts, so that the recorder builds without HIP's headers
 * and works with whichever libamdhip64 the program loads).
 *
 * S(...) entries get a generated wrapper (one CALL record around the real call); C(...)
 * entries are written by hand in hook-hip.c (arguments worth recording) or hook-hip-work.c
 * (work put on a device: launches, copies, memsets, graphs, timed with device events). */
#ifndef TPROF_HOOK_HIP_H
#define TPROF_HOOK_HIP_H

#include <stddef.h>
#include <stdint.h>

#include "../events/api.h"
#include "../events/devrt-hip.h"
#include "../core/resolve.h"

typedef int hipError_t;
typedef struct {
	uint32_t x, y, z;
} dim3;
typedef void *hipStream_t;
typedef void *hipEvent_t;
typedef void *hipModule_t;
typedef void *hipFunction_t;
typedef void *hipGraphExec_t;
typedef void *hipDeviceptr_t;
typedef void *hipArray_t;
typedef void (*hipStreamCallback_t)(hipStream_t, hipError_t, void *);

typedef struct {
	void *ptr;
	size_t pitch, xsize, ysize;
} hipPitchedPtr;
typedef struct {
	size_t width, height, depth;
} hipExtent;
typedef struct {
	size_t x, y, z;
} hipPos;
typedef struct {
	size_t srcXInBytes, srcY;
	int srcMemoryType;
	const void *srcHost;
	hipDeviceptr_t srcDevice;
	hipArray_t srcArray;
	size_t srcPitch, dstXInBytes, dstY;
	int dstMemoryType;
	void *dstHost;
	hipDeviceptr_t dstDevice;
	hipArray_t dstArray;
	size_t dstPitch, WidthInBytes, Height;
} hip_Memcpy2D;
typedef struct {
	hipArray_t srcArray;
	hipPos srcPos;
	hipPitchedPtr srcPtr;
	hipArray_t dstArray;
	hipPos dstPos;
	hipPitchedPtr dstPtr;
	hipExtent extent;
	int kind;
} hipMemcpy3DParms;
typedef struct {
	void *func;
	dim3 gridDim, blockDim;
	void **args;
	size_t sharedMem;
	hipStream_t stream;
} hipLaunchParams;

enum {
	hipSuccess = 0,
	hipErrorNotInitialized = 3,
	hipErrorNotReady = 600,
	hipStreamNonBlocking = 1,
	hipMemcpyHostToDevice = 1,
	hipMemcpyDeviceToHost = 2,
	hipMemcpyDeviceToDevice = 3,
};

/* What a wrapper returns when the runtime itself is missing (found only by probing). */
#define HIP_NO_RUNTIME hipErrorNotInitialized

#define HIP_API(S, C)                                                                          \
	/* device management */                                                                \
	S(hipInit, (unsigned int flags), (flags))                                              \
	S(hipDriverGetVersion, (int *v), (v))                                                  \
	S(hipRuntimeGetVersion, (int *v), (v))                                                 \
	S(hipGetDeviceCount, (int *count), (count))                                            \
	C(hipSetDevice, (int device), (device))                                                \
	S(hipGetDevice, (int *device), (device))                                               \
	S(hipGetDeviceProperties, (void *prop, int device), (prop, device))                    \
	S(hipGetDevicePropertiesR0600, (void *prop, int device), (prop, device))               \
	S(hipDeviceGetAttribute, (int *pi, int attr, int device), (pi, attr, device))          \
	S(hipDeviceGetName, (char *name, int len, int device), (name, len, device))            \
	S(hipDeviceGetPCIBusId, (char *id, int len, int device), (id, len, device))            \
	S(hipDeviceTotalMem, (size_t *bytes, int device), (bytes, device))                     \
	S(hipMemGetInfo, (size_t *avail, size_t *total), (avail, total))                       \
	C(hipDeviceSynchronize, (void), ())                                                    \
	C(hipDeviceReset, (void), ())                                                          \
	C(hipProfilerStart, (void), ())                                                        \
	C(hipProfilerStop, (void), ())                                                         \
	S(hipSetDeviceFlags, (unsigned flags), (flags))                                        \
	S(hipDeviceCanAccessPeer, (int *can, int device, int peer), (can, device, peer))       \
	S(hipDeviceEnablePeerAccess, (int peer, unsigned int flags), (peer, flags))            \
	S(hipPointerGetAttributes, (void *attr, const void *ptr), (attr, ptr))                 \
	S(hipGetLastError, (void), ())                                                         \
	S(hipPeekAtLastError, (void), ())                                                      \
	/* memory */                                                                           \
	C(hipMalloc, (void **ptr, size_t size), (ptr, size))                                   \
	C(hipExtMallocWithFlags, (void **ptr, size_t size, unsigned int flags), (ptr, size, flags)) \
	C(hipMallocManaged, (void **ptr, size_t size, unsigned int flags), (ptr, size, flags)) \
	C(hipHostMalloc, (void **ptr, size_t size, unsigned int flags), (ptr, size, flags))    \
	C(hipMallocHost, (void **ptr, size_t size), (ptr, size))                               \
	C(hipHostAlloc, (void **ptr, size_t size, unsigned int flags), (ptr, size, flags))     \
	C(hipMallocPitch, (void **ptr, size_t *pitch, size_t w, size_t h), (ptr, pitch, w, h)) \
	C(hipMallocAsync, (void **ptr, size_t size, hipStream_t s), (ptr, size, s))            \
	C(hipMallocFromPoolAsync, (void **ptr, size_t size, void *pool, hipStream_t s),        \
	  (ptr, size, pool, s))                                                                \
	S(hipMalloc3D, (hipPitchedPtr *p, hipExtent e), (p, e))                                \
	S(hipMallocArray, (hipArray_t *a, const void *desc, size_t w, size_t h, unsigned int flags), \
	  (a, desc, w, h, flags))                                                              \
	C(hipFree, (void *ptr), (ptr))                                                         \
	C(hipHostFree, (void *ptr), (ptr))                                                     \
	C(hipFreeHost, (void *ptr), (ptr))                                                     \
	C(hipFreeAsync, (void *ptr, hipStream_t s), (ptr, s))                                  \
	S(hipFreeArray, (hipArray_t a), (a))                                                   \
	S(hipHostRegister, (void *p, size_t size, unsigned int flags), (p, size, flags))       \
	S(hipHostUnregister, (void *p), (p))                                                   \
	/* copies */                                                                           \
	C(hipMemcpy, (void *dst, const void *src, size_t n, int kind), (dst, src, n, kind))    \
	C(hipMemcpy_spt, (void *dst, const void *src, size_t n, int kind), (dst, src, n, kind)) \
	C(hipMemcpyWithStream, (void *dst, const void *src, size_t n, int kind, hipStream_t s), \
	  (dst, src, n, kind, s))                                                              \
	C(hipMemcpyAsync, (void *dst, const void *src, size_t n, int kind, hipStream_t s),     \
	  (dst, src, n, kind, s))                                                              \
	C(hipMemcpyAsync_spt, (void *dst, const void *src, size_t n, int kind, hipStream_t s), \
	  (dst, src, n, kind, s))                                                              \
	C(hipMemcpyHtoD, (hipDeviceptr_t dst, void *src, size_t n), (dst, src, n))             \
	C(hipMemcpyDtoH, (void *dst, hipDeviceptr_t src, size_t n), (dst, src, n))             \
	C(hipMemcpyDtoD, (hipDeviceptr_t dst, hipDeviceptr_t src, size_t n), (dst, src, n))    \
	C(hipMemcpyHtoDAsync, (hipDeviceptr_t dst, void *src, size_t n, hipStream_t s),        \
	  (dst, src, n, s))                                                                    \
	C(hipMemcpyDtoHAsync, (void *dst, hipDeviceptr_t src, size_t n, hipStream_t s),        \
	  (dst, src, n, s))                                                                    \
	C(hipMemcpyDtoDAsync, (hipDeviceptr_t dst, hipDeviceptr_t src, size_t n, hipStream_t s), \
	  (dst, src, n, s))                                                                    \
	C(hipMemcpy2D, (void *dst, size_t dp, const void *src, size_t sp, size_t w, size_t h,  \
			int kind), (dst, dp, src, sp, w, h, kind))                             \
	C(hipMemcpy2DAsync, (void *dst, size_t dp, const void *src, size_t sp, size_t w,       \
			     size_t h, int kind, hipStream_t s), (dst, dp, src, sp, w, h, kind, s)) \
	C(hipMemcpyParam2D, (const hip_Memcpy2D *p), (p))                                      \
	C(hipMemcpyParam2DAsync, (const hip_Memcpy2D *p, hipStream_t s), (p, s))               \
	C(hipMemcpy3D, (const hipMemcpy3DParms *p), (p))                                       \
	C(hipMemcpy3DAsync, (const hipMemcpy3DParms *p, hipStream_t s), (p, s))                \
	C(hipMemcpyPeer, (void *dst, int dd, const void *src, int sd, size_t n),               \
	  (dst, dd, src, sd, n))                                                               \
	C(hipMemcpyPeerAsync, (void *dst, int dd, const void *src, int sd, size_t n, hipStream_t s), \
	  (dst, dd, src, sd, n, s))                                                            \
	C(hipMemcpyToSymbol, (const void *sym, const void *src, size_t n, size_t off, int kind), \
	  (sym, src, n, off, kind))                                                            \
	C(hipMemcpyToSymbolAsync, (const void *sym, const void *src, size_t n, size_t off,     \
				   int kind, hipStream_t s), (sym, src, n, off, kind, s))      \
	C(hipMemcpyFromSymbol, (void *dst, const void *sym, size_t n, size_t off, int kind),   \
	  (dst, sym, n, off, kind))                                                            \
	C(hipMemcpyFromSymbolAsync, (void *dst, const void *sym, size_t n, size_t off,         \
				     int kind, hipStream_t s), (dst, sym, n, off, kind, s))    \
	C(hipMemcpy2DToArray, (hipArray_t dst, size_t wo, size_t ho, const void *src, size_t sp, \
			       size_t w, size_t h, int kind), (dst, wo, ho, src, sp, w, h, kind)) \
	C(hipMemcpy2DFromArray, (void *dst, size_t dp, hipArray_t src, size_t wo, size_t ho,   \
				 size_t w, size_t h, int kind), (dst, dp, src, wo, ho, w, h, kind)) \
	S(hipMemPrefetchAsync, (const void *p, size_t n, int device, hipStream_t s),           \
	  (p, n, device, s))                                                                   \
	/* memsets */                                                                          \
	C(hipMemset, (void *dst, int v, size_t n), (dst, v, n))                                \
	C(hipMemset_spt, (void *dst, int v, size_t n), (dst, v, n))                            \
	C(hipMemsetAsync, (void *dst, int v, size_t n, hipStream_t s), (dst, v, n, s))         \
	C(hipMemsetD8, (hipDeviceptr_t dst, unsigned char v, size_t n), (dst, v, n))           \
	C(hipMemsetD8Async, (hipDeviceptr_t dst, unsigned char v, size_t n, hipStream_t s),    \
	  (dst, v, n, s))                                                                      \
	C(hipMemsetD16, (hipDeviceptr_t dst, unsigned short v, size_t n), (dst, v, n))         \
	C(hipMemsetD16Async, (hipDeviceptr_t dst, unsigned short v, size_t n, hipStream_t s),  \
	  (dst, v, n, s))                                                                      \
	C(hipMemsetD32, (hipDeviceptr_t dst, int v, size_t n), (dst, v, n))                    \
	C(hipMemsetD32Async, (hipDeviceptr_t dst, int v, size_t n, hipStream_t s), (dst, v, n, s)) \
	C(hipMemset2D, (void *dst, size_t pitch, int v, size_t w, size_t h), (dst, pitch, v, w, h)) \
	C(hipMemset2DAsync, (void *dst, size_t pitch, int v, size_t w, size_t h, hipStream_t s), \
	  (dst, pitch, v, w, h, s))                                                            \
	C(hipMemset3D, (hipPitchedPtr p, int v, hipExtent e), (p, v, e))                       \
	C(hipMemset3DAsync, (hipPitchedPtr p, int v, hipExtent e, hipStream_t s), (p, v, e, s)) \
	/* launches */                                                                         \
	C(hipLaunchKernel, (const void *fn, dim3 grid, dim3 block, void **args, size_t shmem,  \
			    hipStream_t s), (fn, grid, block, args, shmem, s))                 \
	C(hipLaunchKernel_spt, (const void *fn, dim3 grid, dim3 block, void **args,            \
				size_t shmem, hipStream_t s), (fn, grid, block, args, shmem, s)) \
	C(hipExtLaunchKernel, (const void *fn, dim3 grid, dim3 block, void **args, size_t shmem, \
			       hipStream_t s, hipEvent_t start, hipEvent_t stop, int flags),   \
	  (fn, grid, block, args, shmem, s, start, stop, flags))                               \
	C(hipLaunchCooperativeKernel, (const void *fn, dim3 grid, dim3 block, void **args,     \
				       unsigned int shmem, hipStream_t s),                     \
	  (fn, grid, block, args, shmem, s))                                                   \
	C(hipLaunchCooperativeKernel_spt, (const void *fn, dim3 grid, dim3 block, void **args, \
					   uint32_t shmem, hipStream_t s),                     \
	  (fn, grid, block, args, shmem, s))                                                   \
	C(hipLaunchCooperativeKernelMultiDevice, (hipLaunchParams *list, int n, unsigned int f), \
	  (list, n, f))                                                                        \
	C(hipExtLaunchMultiKernelMultiDevice, (hipLaunchParams *list, int n, unsigned int f),  \
	  (list, n, f))                                                                        \
	C(hipModuleLaunchKernel, (hipFunction_t f, unsigned gx, unsigned gy, unsigned gz,      \
				  unsigned bx, unsigned by, unsigned bz, unsigned shmem,       \
				  hipStream_t s, void **params, void **extra),                 \
	  (f, gx, gy, gz, bx, by, bz, shmem, s, params, extra))                                \
	C(hipExtModuleLaunchKernel, (hipFunction_t f, uint32_t gx, uint32_t gy, uint32_t gz,   \
				     uint32_t lx, uint32_t ly, uint32_t lz, size_t shmem,      \
				     hipStream_t s, void **params, void **extra, hipEvent_t e0, \
				     hipEvent_t e1, uint32_t flags),                           \
	  (f, gx, gy, gz, lx, ly, lz, shmem, s, params, extra, e0, e1, flags))                 \
	C(hipGraphLaunch, (hipGraphExec_t g, hipStream_t s), (g, s))                           \
	C(hipConfigureCall, (dim3 grid, dim3 block, size_t shmem, hipStream_t s),              \
	  (grid, block, shmem, s))                                                             \
	S(hipSetupArgument, (const void *arg, size_t size, size_t off), (arg, size, off))      \
	C(hipLaunchByPtr, (const void *fn), (fn))                                              \
	S(__hipPushCallConfiguration, (dim3 grid, dim3 block, size_t shmem, hipStream_t s),    \
	  (grid, block, shmem, s))                                                             \
	S(__hipPopCallConfiguration, (dim3 *grid, dim3 *block, size_t *shmem, hipStream_t *s), \
	  (grid, block, shmem, s))                                                             \
	/* modules */                                                                          \
	S(hipModuleLoad, (hipModule_t *m, const char *path), (m, path))                        \
	S(hipModuleLoadData, (hipModule_t *m, const void *image), (m, image))                  \
	S(hipModuleLoadDataEx, (hipModule_t *m, const void *image, unsigned int n, void *opts, \
				void **vals), (m, image, n, opts, vals))                       \
	S(hipModuleUnload, (hipModule_t m), (m))                                               \
	C(hipModuleGetFunction, (hipFunction_t *f, hipModule_t m, const char *name), (f, m, name)) \
	S(hipFuncGetAttributes, (void *attr, const void *fn), (attr, fn))                      \
	/* streams and events */                                                               \
	C(hipStreamCreate, (hipStream_t *s), (s))                                              \
	C(hipStreamCreateWithFlags, (hipStream_t *s, unsigned int flags), (s, flags))          \
	C(hipStreamCreateWithPriority, (hipStream_t *s, unsigned int flags, int prio),         \
	  (s, flags, prio))                                                                    \
	C(hipStreamDestroy, (hipStream_t s), (s))                                              \
	C(hipStreamSynchronize, (hipStream_t s), (s))                                          \
	C(hipStreamSynchronize_spt, (hipStream_t s), (s))                                      \
	C(hipStreamWaitEvent, (hipStream_t s, hipEvent_t e, unsigned int flags), (s, e, flags)) \
	S(hipStreamQuery, (hipStream_t s), (s))                                                \
	S(hipStreamAddCallback, (hipStream_t s, hipStreamCallback_t cb, void *data, unsigned int f), \
	  (s, cb, data, f))                                                                    \
	C(hipEventCreate, (hipEvent_t *e), (e))                                                \
	C(hipEventCreateWithFlags, (hipEvent_t *e, unsigned flags), (e, flags))                \
	C(hipEventRecord, (hipEvent_t e, hipStream_t s), (e, s))                               \
	C(hipEventSynchronize, (hipEvent_t e), (e))                                            \
	S(hipEventQuery, (hipEvent_t e), (e))                                                  \
	S(hipEventElapsedTime, (float *ms, hipEvent_t a, hipEvent_t b), (ms, a, b))            \
	C(hipEventDestroy, (hipEvent_t e), (e))

#define HIP_DECLARE(name, params, args) TPROF_REAL_EXTERN(hipError_t, name, params, tprof_resolve)
HIP_API(HIP_DECLARE, HIP_DECLARE)
#undef HIP_DECLARE

/* The wrappers themselves, exported under the runtime's names. */
#define HIP_PROTO(name, params, args) TPROF_EXPORT hipError_t name params;
HIP_API(HIP_PROTO, HIP_PROTO)
#undef HIP_PROTO
void __hipRegisterFunction(void **modules, const void *host, char *device_fn,
			   const char *device_name, unsigned int limit, void *tid, void *bid,
			   void *block, void *grid, int *wsize);

/* Positions in the hook table; the table itself (tprof_hip_hooks) is in hook-hip.c. */
#define HIP_INDEX(name, params, args) HIP_##name,
enum hip_hook_index {
	HIP_API(HIP_INDEX, HIP_INDEX)
	HIP_ExtModuleLaunchKernel_cxx,   /* the C++-mangled spellings of ROCm < 6.1 */
	HIP_HccModuleLaunchKernel_cxx,
	HIP_NHOOKS
};
#undef HIP_INDEX

extern struct tprof_hook tprof_hip_hooks[];
#define HIP_HOOK(name) (&tprof_hip_hooks[HIP_##name])

/* hook-hip.c: device timing through HIP events, and what a device operation records. */

/* One operation put on a device, as the wrapper describes it. */
struct hip_work {
	struct tprof_hook *hook;
	uint8_t kind;                   /* enum tprof_devop_kind */
	hipStream_t stream;
	int device;                     /* -1: the stream's device (the null stream: current) */
	uint64_t bytes, b;              /* bytes; copy kind or memset value */
	const void *fn;                 /* launches: the function's host handle */
	int module;                     /* fn is a hipFunction_t from a module */
	struct tprof_launch_dims dims;
};

struct hip_op {
	struct tprof_call call;         /* the CALL record, its units written by tprof_hip_begin */
	struct tprof_devpend *p;
};

/* Before the real call: the CALL record and the start event.  0 when not recording (then
 * call the real function and return). */
int tprof_hip_begin(const struct hip_work *w, struct hip_op *op);
/* After it: the end event and the call's end. */
hipError_t tprof_hip_end(struct hip_op *op, hipError_t rc);

/* The C++-mangled exports of ROCm < 6.1 (hook-hip-work.c). */
hipError_t tprof_hip_ext_module_launch_cxx(hipFunction_t f, uint32_t gx, uint32_t gy, uint32_t gz,
					   uint32_t lx, uint32_t ly, uint32_t lz, size_t shmem,
					   hipStream_t s, void **params, void **extra, hipEvent_t e0,
					   hipEvent_t e1, uint32_t flags)
	__asm__("_Z24hipExtModuleLaunchKernelP18ihipModuleSymbol_tjjjjjjmP12ihipStream_tPPvS4_P11ihipEvent_tS6_j");
hipError_t tprof_hip_hcc_module_launch_cxx(hipFunction_t f, uint32_t gx, uint32_t gy, uint32_t gz,
					   uint32_t lx, uint32_t ly, uint32_t lz, size_t shmem,
					   hipStream_t s, void **params, void **extra, hipEvent_t e0,
					   hipEvent_t e1)
	__asm__("_Z24hipHccModuleLaunchKernelP18ihipModuleSymbol_tjjjjjjmP12ihipStream_tPPvS4_P11ihipEvent_tS6_");
extern void *tprof_hip_real_ext_cxx, *tprof_hip_real_hcc_cxx;
#define TPROF_HIP_EXT_CXX_NAME                                                            \
	"_Z24hipExtModuleLaunchKernelP18ihipModuleSymbol_tjjjjjjmP12ihipStream_tPPvS4_P11ihipEvent_tS6_j"
#define TPROF_HIP_HCC_CXX_NAME                                                            \
	"_Z24hipHccModuleLaunchKernelP18ihipModuleSymbol_tjjjjjjmP12ihipStream_tPPvS4_P11ihipEvent_tS6_"

#endif
