/* hook-hip-work.c — HIP calls that put work on a device: kernel launches (every entry point,
 * hipcc's <<<>>> included), copies and memsets (sync and async, with bytes and direction),
 * graph launches.  Each is one line of data for HIP_WORK: what the operation is, its stream
 * and size; tprof_hip_begin/_end (hook-hip.c) record the call and time the operation. */
#include <string.h>

#include "hook-hip.h"

#define HIP_WORK(name, params, args, ...)                                                 \
	TPROF_EXPORT hipError_t name params                                                \
	{                                                                                  \
		name##_fn real = get_##name();                                             \
		if (TPROF_UNLIKELY(!real))                                                 \
			return HIP_NO_RUNTIME;                                             \
		struct hip_work w = { .hook = HIP_HOOK(name), .device = -1, __VA_ARGS__ }; \
		struct hip_op op;                                                          \
		if (!tprof_hip_begin(&w, &op))                                             \
			return real args;                                                  \
		return tprof_hip_end(&op, real args);                                      \
	}

#define COPY(n_, kind_, s_) .kind = TPROF_DEVOP_COPY, .bytes = (n_), .b = (uint64_t)(kind_), .stream = (s_)
#define SET(n_, v_, s_) .kind = TPROF_DEVOP_MEMSET, .bytes = (n_), .b = (uint64_t)(v_), .stream = (s_)
#define DIMS(g_, b_, shm_) .dims = { { (g_).x, (g_).y, (g_).z }, { (b_).x, (b_).y, (b_).z }, (shm_) }
#define LAUNCH(fn_, s_) .kind = TPROF_DEVOP_KERNEL, .fn = (fn_), .stream = (s_)
#define PER_THREAD ((hipStream_t)2)

/* ---- copies ------------------------------------------------------------------------------ */

HIP_WORK(hipMemcpy, (void *dst, const void *src, size_t n, int kind), (dst, src, n, kind),
	 COPY(n, kind, 0))
HIP_WORK(hipMemcpy_spt, (void *dst, const void *src, size_t n, int kind), (dst, src, n, kind),
	 COPY(n, kind, PER_THREAD))
HIP_WORK(hipMemcpyWithStream, (void *dst, const void *src, size_t n, int kind, hipStream_t s),
	 (dst, src, n, kind, s), COPY(n, kind, s))
HIP_WORK(hipMemcpyAsync, (void *dst, const void *src, size_t n, int kind, hipStream_t s),
	 (dst, src, n, kind, s), COPY(n, kind, s))
HIP_WORK(hipMemcpyAsync_spt, (void *dst, const void *src, size_t n, int kind, hipStream_t s),
	 (dst, src, n, kind, s), COPY(n, kind, s))
HIP_WORK(hipMemcpyHtoD, (hipDeviceptr_t dst, void *src, size_t n), (dst, src, n),
	 COPY(n, TPROF_COPY_HTOD, 0))
HIP_WORK(hipMemcpyDtoH, (void *dst, hipDeviceptr_t src, size_t n), (dst, src, n),
	 COPY(n, TPROF_COPY_DTOH, 0))
HIP_WORK(hipMemcpyDtoD, (hipDeviceptr_t dst, hipDeviceptr_t src, size_t n), (dst, src, n),
	 COPY(n, TPROF_COPY_DTOD, 0))
HIP_WORK(hipMemcpyHtoDAsync, (hipDeviceptr_t dst, void *src, size_t n, hipStream_t s),
	 (dst, src, n, s), COPY(n, TPROF_COPY_HTOD, s))
HIP_WORK(hipMemcpyDtoHAsync, (void *dst, hipDeviceptr_t src, size_t n, hipStream_t s),
	 (dst, src, n, s), COPY(n, TPROF_COPY_DTOH, s))
HIP_WORK(hipMemcpyDtoDAsync, (hipDeviceptr_t dst, hipDeviceptr_t src, size_t n, hipStream_t s),
	 (dst, src, n, s), COPY(n, TPROF_COPY_DTOD, s))
HIP_WORK(hipMemcpy2D, (void *dst, size_t dp, const void *src, size_t sp, size_t w_, size_t h,
		       int kind), (dst, dp, src, sp, w_, h, kind), COPY(w_ * h, kind, 0))
HIP_WORK(hipMemcpy2DAsync, (void *dst, size_t dp, const void *src, size_t sp, size_t w_, size_t h,
			    int kind, hipStream_t s), (dst, dp, src, sp, w_, h, kind, s),
	 COPY(w_ * h, kind, s))
HIP_WORK(hipMemcpyParam2D, (const hip_Memcpy2D *p), (p),
	 COPY(p ? p->WidthInBytes * p->Height : 0, TPROF_COPY_DEFAULT, 0))
HIP_WORK(hipMemcpyParam2DAsync, (const hip_Memcpy2D *p, hipStream_t s), (p, s),
	 COPY(p ? p->WidthInBytes * p->Height : 0, TPROF_COPY_DEFAULT, s))
HIP_WORK(hipMemcpy3D, (const hipMemcpy3DParms *p), (p),
	 COPY(p ? p->extent.width * p->extent.height * p->extent.depth : 0, p ? p->kind : 4, 0))
HIP_WORK(hipMemcpy3DAsync, (const hipMemcpy3DParms *p, hipStream_t s), (p, s),
	 COPY(p ? p->extent.width * p->extent.height * p->extent.depth : 0, p ? p->kind : 4, s))
HIP_WORK(hipMemcpyPeer, (void *dst, int dd, const void *src, int sd, size_t n),
	 (dst, dd, src, sd, n), COPY(n, TPROF_COPY_PEER, 0))
HIP_WORK(hipMemcpyPeerAsync, (void *dst, int dd, const void *src, int sd, size_t n, hipStream_t s),
	 (dst, dd, src, sd, n, s), COPY(n, TPROF_COPY_PEER, s))
HIP_WORK(hipMemcpyToSymbol, (const void *sym, const void *src, size_t n, size_t off, int kind),
	 (sym, src, n, off, kind), COPY(n, kind, 0))
HIP_WORK(hipMemcpyToSymbolAsync, (const void *sym, const void *src, size_t n, size_t off, int kind,
				  hipStream_t s), (sym, src, n, off, kind, s), COPY(n, kind, s))
HIP_WORK(hipMemcpyFromSymbol, (void *dst, const void *sym, size_t n, size_t off, int kind),
	 (dst, sym, n, off, kind), COPY(n, kind, 0))
HIP_WORK(hipMemcpyFromSymbolAsync, (void *dst, const void *sym, size_t n, size_t off, int kind,
				    hipStream_t s), (dst, sym, n, off, kind, s), COPY(n, kind, s))
HIP_WORK(hipMemcpy2DToArray, (hipArray_t dst, size_t wo, size_t ho, const void *src, size_t sp,
			      size_t w_, size_t h, int kind), (dst, wo, ho, src, sp, w_, h, kind),
	 COPY(w_ * h, kind, 0))
HIP_WORK(hipMemcpy2DFromArray, (void *dst, size_t dp, hipArray_t src, size_t wo, size_t ho,
				size_t w_, size_t h, int kind), (dst, dp, src, wo, ho, w_, h, kind),
	 COPY(w_ * h, kind, 0))

/* ---- memsets ----------------------------------------------------------------------------- */

HIP_WORK(hipMemset, (void *dst, int v, size_t n), (dst, v, n), SET(n, v, 0))
HIP_WORK(hipMemset_spt, (void *dst, int v, size_t n), (dst, v, n), SET(n, v, PER_THREAD))
HIP_WORK(hipMemsetAsync, (void *dst, int v, size_t n, hipStream_t s), (dst, v, n, s), SET(n, v, s))
HIP_WORK(hipMemsetD8, (hipDeviceptr_t dst, unsigned char v, size_t n), (dst, v, n), SET(n, v, 0))
HIP_WORK(hipMemsetD8Async, (hipDeviceptr_t dst, unsigned char v, size_t n, hipStream_t s),
	 (dst, v, n, s), SET(n, v, s))
HIP_WORK(hipMemsetD16, (hipDeviceptr_t dst, unsigned short v, size_t n), (dst, v, n),
	 SET(2 * n, v, 0))
HIP_WORK(hipMemsetD16Async, (hipDeviceptr_t dst, unsigned short v, size_t n, hipStream_t s),
	 (dst, v, n, s), SET(2 * n, v, s))
HIP_WORK(hipMemsetD32, (hipDeviceptr_t dst, int v, size_t n), (dst, v, n), SET(4 * n, v, 0))
HIP_WORK(hipMemsetD32Async, (hipDeviceptr_t dst, int v, size_t n, hipStream_t s), (dst, v, n, s),
	 SET(4 * n, v, s))
HIP_WORK(hipMemset2D, (void *dst, size_t pitch, int v, size_t w_, size_t h), (dst, pitch, v, w_, h),
	 SET(w_ * h, v, 0))
HIP_WORK(hipMemset2DAsync, (void *dst, size_t pitch, int v, size_t w_, size_t h, hipStream_t s),
	 (dst, pitch, v, w_, h, s), SET(w_ * h, v, s))
HIP_WORK(hipMemset3D, (hipPitchedPtr p, int v, hipExtent e), (p, v, e),
	 SET(e.width * e.height * e.depth, v, 0))
HIP_WORK(hipMemset3DAsync, (hipPitchedPtr p, int v, hipExtent e, hipStream_t s), (p, v, e, s),
	 SET(e.width * e.height * e.depth, v, s))

/* ---- launches ---------------------------------------------------------------------------- */

HIP_WORK(hipLaunchKernel, (const void *fn, dim3 grid, dim3 block, void **args, size_t shmem,
			   hipStream_t s), (fn, grid, block, args, shmem, s),
	 LAUNCH(fn, s), DIMS(grid, block, shmem))
HIP_WORK(hipLaunchKernel_spt, (const void *fn, dim3 grid, dim3 block, void **args, size_t shmem,
			       hipStream_t s), (fn, grid, block, args, shmem, s),
	 LAUNCH(fn, s), DIMS(grid, block, shmem))
HIP_WORK(hipExtLaunchKernel, (const void *fn, dim3 grid, dim3 block, void **args, size_t shmem,
			      hipStream_t s, hipEvent_t e0, hipEvent_t e1, int flags),
	 (fn, grid, block, args, shmem, s, e0, e1, flags), LAUNCH(fn, s), DIMS(grid, block, shmem))
HIP_WORK(hipLaunchCooperativeKernel, (const void *fn, dim3 grid, dim3 block, void **args,
				      unsigned int shmem, hipStream_t s),
	 (fn, grid, block, args, shmem, s), LAUNCH(fn, s), DIMS(grid, block, shmem))
HIP_WORK(hipLaunchCooperativeKernel_spt, (const void *fn, dim3 grid, dim3 block, void **args,
					  uint32_t shmem, hipStream_t s),
	 (fn, grid, block, args, shmem, s), LAUNCH(fn, s), DIMS(grid, block, shmem))
HIP_WORK(hipModuleLaunchKernel, (hipFunction_t f, unsigned gx, unsigned gy, unsigned gz,
				 unsigned bx, unsigned by, unsigned bz, unsigned shmem,
				 hipStream_t s, void **params, void **extra),
	 (f, gx, gy, gz, bx, by, bz, shmem, s, params, extra), LAUNCH(f, s), .module = 1,
	 .dims = { { gx, gy, gz }, { bx, by, bz }, shmem })

/* hipExt/HccModuleLaunchKernel take work-item counts: the grid is global / local. */
#define GRID(g, l) ((l) ? (g) / (l) : (g))
#define EXT_DIMS .dims = { { GRID(gx, lx), GRID(gy, ly), GRID(gz, lz) }, { lx, ly, lz }, shmem }

HIP_WORK(hipExtModuleLaunchKernel, (hipFunction_t f, uint32_t gx, uint32_t gy, uint32_t gz,
				    uint32_t lx, uint32_t ly, uint32_t lz, size_t shmem,
				    hipStream_t s, void **params, void **extra, hipEvent_t e0,
				    hipEvent_t e1, uint32_t flags),
	 (f, gx, gy, gz, lx, ly, lz, shmem, s, params, extra, e0, e1, flags),
	 LAUNCH(f, s), .module = 1, EXT_DIMS)

void *tprof_hip_real_ext_cxx, *tprof_hip_real_hcc_cxx;
static uint32_t miss_cxx[2];

typedef hipError_t (*ext_cxx_fn)(hipFunction_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t,
				 uint32_t, size_t, hipStream_t, void **, void **, hipEvent_t,
				 hipEvent_t, uint32_t);
typedef hipError_t (*hcc_cxx_fn)(hipFunction_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t,
				 uint32_t, size_t, hipStream_t, void **, void **, hipEvent_t,
				 hipEvent_t);

static void *real_cxx(void **slot, int which)
{
	return tprof_real_get(slot, &miss_cxx[which - HIP_ExtModuleLaunchKernel_cxx],
			      which == HIP_ExtModuleLaunchKernel_cxx ? TPROF_HIP_EXT_CXX_NAME
								     : TPROF_HIP_HCC_CXX_NAME,
			      tprof_resolve);
}

/* Exported under the C++-mangled names hipcc-era programs call (see hook-hip.h). */
TPROF_EXPORT hipError_t tprof_hip_ext_module_launch_cxx(hipFunction_t f, uint32_t gx, uint32_t gy,
							uint32_t gz, uint32_t lx, uint32_t ly,
							uint32_t lz, size_t shmem, hipStream_t s,
							void **params, void **extra, hipEvent_t e0,
							hipEvent_t e1, uint32_t flags)
{
	ext_cxx_fn real = (ext_cxx_fn)real_cxx(&tprof_hip_real_ext_cxx, HIP_ExtModuleLaunchKernel_cxx);
	if (!real)
		return HIP_NO_RUNTIME;
	struct hip_work w = { .hook = &tprof_hip_hooks[HIP_ExtModuleLaunchKernel_cxx], .device = -1,
			      LAUNCH(f, s), .module = 1, EXT_DIMS };
	struct hip_op op;
	if (!tprof_hip_begin(&w, &op))
		return real(f, gx, gy, gz, lx, ly, lz, shmem, s, params, extra, e0, e1, flags);
	return tprof_hip_end(&op, real(f, gx, gy, gz, lx, ly, lz, shmem, s, params, extra, e0, e1, flags));
}

TPROF_EXPORT hipError_t tprof_hip_hcc_module_launch_cxx(hipFunction_t f, uint32_t gx, uint32_t gy,
							uint32_t gz, uint32_t lx, uint32_t ly,
							uint32_t lz, size_t shmem, hipStream_t s,
							void **params, void **extra, hipEvent_t e0,
							hipEvent_t e1)
{
	hcc_cxx_fn real = (hcc_cxx_fn)real_cxx(&tprof_hip_real_hcc_cxx, HIP_HccModuleLaunchKernel_cxx);
	if (!real)
		return HIP_NO_RUNTIME;
	struct hip_work w = { .hook = &tprof_hip_hooks[HIP_HccModuleLaunchKernel_cxx], .device = -1,
			      LAUNCH(f, s), .module = 1, EXT_DIMS };
	struct hip_op op;
	if (!tprof_hip_begin(&w, &op))
		return real(f, gx, gy, gz, lx, ly, lz, shmem, s, params, extra, e0, e1);
	return tprof_hip_end(&op, real(f, gx, gy, gz, lx, ly, lz, shmem, s, params, extra, e0, e1));
}

/* Several launches in one call: one CALL, one device operation per launch. */
#define MULTI_MAX 16

static hipError_t multi_launch(struct tprof_hook *h, hipLaunchParams *list, int n, unsigned int f,
			       hipError_t (*real)(hipLaunchParams *, int, unsigned int))
{
	struct hip_op ops[MULTI_MAX];
	int k = 0;
	for (; list && k < n && k < MULTI_MAX; k++) {
		struct hip_work w = { .hook = h, .device = -1, LAUNCH(list[k].func, list[k].stream),
				      DIMS(list[k].gridDim, list[k].blockDim, list[k].sharedMem) };
		if (!tprof_hip_begin(&w, &ops[k]))
			break;
	}
	hipError_t rc = real(list, n, f);
	while (k-- > 0)
		tprof_hip_end(&ops[k], rc);
	return rc;
}

TPROF_EXPORT hipError_t hipLaunchCooperativeKernelMultiDevice(hipLaunchParams *list, int n, unsigned int f)
{
	hipLaunchCooperativeKernelMultiDevice_fn real = get_hipLaunchCooperativeKernelMultiDevice();
	return real ? multi_launch(HIP_HOOK(hipLaunchCooperativeKernelMultiDevice), list, n, f, real)
		    : HIP_NO_RUNTIME;
}

TPROF_EXPORT hipError_t hipExtLaunchMultiKernelMultiDevice(hipLaunchParams *list, int n, unsigned int f)
{
	hipExtLaunchMultiKernelMultiDevice_fn real = get_hipExtLaunchMultiKernelMultiDevice();
	return real ? multi_launch(HIP_HOOK(hipExtLaunchMultiKernelMultiDevice), list, n, f, real)
		    : HIP_NO_RUNTIME;
}

HIP_WORK(hipGraphLaunch, (hipGraphExec_t g, hipStream_t s), (g, s), .kind = TPROF_DEVOP_GRAPH,
	 .stream = s)

/* The legacy triple: hipConfigureCall, hipSetupArgument..., hipLaunchByPtr. */
static __thread struct {
	dim3 grid, block;
	size_t shmem;
	hipStream_t stream;
} configured __attribute__((tls_model("initial-exec")));

TPROF_EXPORT hipError_t hipConfigureCall(dim3 grid, dim3 block, size_t shmem, hipStream_t s)
{
	hipConfigureCall_fn real = get_hipConfigureCall();
	if (!real)
		return HIP_NO_RUNTIME;
	configured.grid = grid;
	configured.block = block;
	configured.shmem = shmem;
	configured.stream = s;
	struct tprof_thread *t = &tprof_tls;
	if (!tprof_should_record(t))
		return real(grid, block, shmem, s);
	struct tprof_rec *r = tprof_call_reserve(t, HIP_HOOK(hipConfigureCall), 0);
	t->guard++;
	tprof_call_start(r, HIP_HOOK(hipConfigureCall), 0, 0);
	hipError_t rc = real(grid, block, shmem, s);
	tprof_call_finish(r, rc);
	t->guard--;
	return rc;
}

HIP_WORK(hipLaunchByPtr, (const void *fn), (fn), LAUNCH(fn, configured.stream),
	 DIMS(configured.grid, configured.block, configured.shmem))
