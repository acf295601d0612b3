/* hook-hip.c — the HIP runtime (libamdhip64): the hook table, the generated wrappers, the
 * hand-written ones that record arguments (device, sizes, pointers, streams, events), HIP's
 * side of device timing (events on the operation's stream), the shared path of every
 * operation put on a device, and kernel names from the runtime's registration calls.
 * Work put on a device (launches, copies, memsets) is wrapped in hook-hip-work.c. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "../../common/capture.h"
#include "../events/callstack.h"
#include "../events/capture.h"
#include "hook-hip.h"
#include "../events/kernels.h"

#define HIP_REAL(name, params, args) TPROF_REAL_DEFINE(name)
HIP_API(HIP_REAL, HIP_REAL)
#undef HIP_REAL

#define NODEV 0xffff

/* ---- one recorded call ------------------------------------------------------------------ */

/* A HIP call: the call protocol (events/api.h) with its one argument unit typed.  a points at
 * the record's unit, or at cleared scratch when the call is not written. */
struct hip_call {
	struct tprof_call call;
	struct tprof_call_args *a;
};

/* Reserves the CALL of h with one argument unit of the given shape, on no device yet. */
static inline void hip_begin(struct hip_call *c, struct tprof_thread *t, struct tprof_hook *h,
			     uint16_t shape)
{
	void *u[1];
	tprof_call_begin(&c->call, t, h, 1, 1, u);
	c->call.corr = 0;
	c->a = u[0];
	c->a->shape = shape;
	c->a->device = NODEV;
}

#define HIP_SIMPLE(name, params, args)                                                     \
	TPROF_EXPORT hipError_t name params                                                \
	{                                                                                  \
		struct tprof_thread *t = &tprof_tls;                                       \
		name##_fn real = get_##name();                                             \
		if (!tprof_wrapper_records(t, real))                                       \
			return real ? real args : HIP_NO_RUNTIME;                          \
		struct tprof_call c;                                                       \
		void *none[1];                                                             \
		tprof_call_begin(&c, t, HIP_HOOK(name), 0, 0, none);                       \
		c.corr = 0;                                                                \
		tprof_call_enter(&c);                                                      \
		return tprof_call_leave(&c, real args);                                    \
	}
#define HIP_NONE(name, params, args)
HIP_API(HIP_SIMPLE, HIP_NONE)
#undef HIP_SIMPLE

TPROF_EXPORT hipError_t hipSetDevice(int device)
{
	struct tprof_thread *t = &tprof_tls;
	hipSetDevice_fn real = get_hipSetDevice();
	if (!tprof_wrapper_records(t, real))
		return real ? real(device) : HIP_NO_RUNTIME;
	struct hip_call c;
	hip_begin(&c, t, HIP_HOOK(hipSetDevice), TPROF_SHAPE_NONE);
	c.a->device = (uint16_t)device;
	tprof_call_enter(&c.call);
	return tprof_call_leave(&c.call, real(device));
}

/* ---- waiting ----------------------------------------------------------------------------- */

/* A call with a stream and one more handle (an event, an object, the memory freed) to record,
 * and nothing to read back. */
#define HIP_STREAM_CALL(name, shape, stream_expr, b_expr, params, ...)                     \
	TPROF_EXPORT hipError_t name params                                                \
	{                                                                                  \
		struct tprof_thread *t = &tprof_tls;                                       \
		name##_fn real = get_##name();                                             \
		if (!tprof_wrapper_records(t, real))                                       \
			return real ? real(__VA_ARGS__) : HIP_NO_RUNTIME;                  \
		struct hip_call c;                                                         \
		hip_begin(&c, t, HIP_HOOK(name), shape);                                   \
		c.a->stream = (uint64_t)(uintptr_t)(stream_expr);                          \
		c.a->b = (uint64_t)(uintptr_t)(b_expr);                                    \
		tprof_call_enter(&c.call);                                                 \
		return tprof_call_leave(&c.call, real(__VA_ARGS__));                       \
	}
#define HIP_SYNC(name, stream_expr, event_expr, params, ...)                               \
	HIP_STREAM_CALL(name, TPROF_SHAPE_SYNC, stream_expr, event_expr, params, __VA_ARGS__)

HIP_SYNC(hipDeviceSynchronize, 0, 0, (void))
HIP_SYNC(hipStreamSynchronize, s, 0, (hipStream_t s), s)
HIP_SYNC(hipStreamSynchronize_spt, s, 0, (hipStream_t s), s)
HIP_SYNC(hipEventSynchronize, 0, e, (hipEvent_t e), e)
HIP_SYNC(hipStreamWaitEvent, s, e, (hipStream_t s, hipEvent_t e, unsigned int flags), s, e, flags)

/* ---- the program's capture range ---------------------------------------------------------- */

/* Under TPROF_CAPTURE_RANGE=api a start opens the capture window before its call, a stop
 * closes it after: each is the first or last record of its window.  Otherwise they are calls
 * like any other. */
static hipError_t profiler_call(struct tprof_hook *h, hipError_t (*real)(void))
{
	struct tprof_thread *t = &tprof_tls;
	if (!tprof_should_record(t))
		return real();
	struct tprof_call c;
	void *none[1];
	tprof_call_begin(&c, t, h, 0, 0, none);
	c.corr = 0;
	tprof_call_enter(&c);
	return tprof_call_leave(&c, real());
}

TPROF_EXPORT hipError_t hipProfilerStart(void)
{
	hipProfilerStart_fn real = get_hipProfilerStart();
	tprof_capture_runtime(1, TPROF_CAPTURE_HIP);
	if (TPROF_UNLIKELY(!real))
		return HIP_NO_RUNTIME;
	return profiler_call(HIP_HOOK(hipProfilerStart), real);
}

TPROF_EXPORT hipError_t hipProfilerStop(void)
{
	hipProfilerStop_fn real = get_hipProfilerStop();
	hipError_t rc = real ? profiler_call(HIP_HOOK(hipProfilerStop), real) : HIP_NO_RUNTIME;
	tprof_capture_runtime(0, TPROF_CAPTURE_HIP);
	return rc;
}

/* A reset destroys the device's events and streams: the operations in flight are written
 * first, and the device timing starts afresh. */
TPROF_EXPORT hipError_t hipDeviceReset(void)
{
	hipDeviceReset_fn real = get_hipDeviceReset();
	struct tprof_thread *t = &tprof_tls;
	int device = -1;
	if (!real)
		return HIP_NO_RUNTIME;
	if (get_hipGetDevice())
		real_hipGetDevice(&device);
	if (device >= 0)
		tprof_dev_drain(&tprof_hip_rt, device, 1);
	tprof_hip_streams_forget();
	hipError_t rc;
	if (!tprof_should_record(t)) {
		rc = real();
	} else {
		struct hip_call c;
		hip_begin(&c, t, HIP_HOOK(hipDeviceReset), TPROF_SHAPE_NONE);
		c.a->device = (uint16_t)device;
		tprof_call_enter(&c.call);
		rc = tprof_call_leave(&c.call, real());
	}
	tprof_hip_streams_forget();
	return rc;
}

/* ---- memory ------------------------------------------------------------------------------ */

static inline void alloc_done(struct tprof_call_args *a, hipError_t rc, void **ptr)
{
	if (rc == hipSuccess && ptr)
		a->b = (uint64_t)(uintptr_t)*ptr;
}

#define HIP_ALLOC(name, size_expr, stream_expr, params, ...)                               \
	TPROF_EXPORT hipError_t name params                                                \
	{                                                                                  \
		struct tprof_thread *t = &tprof_tls;                                       \
		name##_fn real = get_##name();                                             \
		if (!tprof_wrapper_records(t, real))                                       \
			return real ? real(__VA_ARGS__) : HIP_NO_RUNTIME;                  \
		struct hip_call c;                                                         \
		hip_begin(&c, t, HIP_HOOK(name), TPROF_SHAPE_ALLOC);                       \
		c.a->a = (uint64_t)(size_expr);                                            \
		c.a->stream = (uint64_t)(uintptr_t)(stream_expr);                          \
		tprof_call_enter(&c.call);                                                 \
		hipError_t rc = real(__VA_ARGS__);                                         \
		alloc_done(c.a, rc, ptr);                                                  \
		return tprof_call_leave(&c.call, rc);                                      \
	}

HIP_ALLOC(hipMalloc, size, 0, (void **ptr, size_t size), ptr, size)
HIP_ALLOC(hipExtMallocWithFlags, size, 0, (void **ptr, size_t size, unsigned int flags), ptr, size, flags)
HIP_ALLOC(hipMallocManaged, size, 0, (void **ptr, size_t size, unsigned int flags), ptr, size, flags)
HIP_ALLOC(hipHostMalloc, size, 0, (void **ptr, size_t size, unsigned int flags), ptr, size, flags)
HIP_ALLOC(hipMallocHost, size, 0, (void **ptr, size_t size), ptr, size)
HIP_ALLOC(hipHostAlloc, size, 0, (void **ptr, size_t size, unsigned int flags), ptr, size, flags)
HIP_ALLOC(hipMallocAsync, size, s, (void **ptr, size_t size, hipStream_t s), ptr, size, s)
HIP_ALLOC(hipMallocFromPoolAsync, size, s, (void **ptr, size_t size, void *pool, hipStream_t s),
	  ptr, size, pool, s)

TPROF_EXPORT hipError_t hipMallocPitch(void **ptr, size_t *pitch, size_t w, size_t h)
{
	struct tprof_thread *t = &tprof_tls;
	hipMallocPitch_fn real = get_hipMallocPitch();
	if (!tprof_wrapper_records(t, real))
		return real ? real(ptr, pitch, w, h) : HIP_NO_RUNTIME;
	struct hip_call c;
	hip_begin(&c, t, HIP_HOOK(hipMallocPitch), TPROF_SHAPE_ALLOC);
	tprof_call_enter(&c.call);
	hipError_t rc = real(ptr, pitch, w, h);
	alloc_done(c.a, rc, ptr);
	if (rc == hipSuccess && pitch)
		c.a->a = (uint64_t)*pitch * h;
	return tprof_call_leave(&c.call, rc);
}

#define HIP_FREE(name, stream_expr, params, ...)                                           \
	HIP_STREAM_CALL(name, TPROF_SHAPE_FREE, stream_expr, ptr, params, __VA_ARGS__)

HIP_FREE(hipFree, 0, (void *ptr), ptr)
HIP_FREE(hipHostFree, 0, (void *ptr), ptr)
HIP_FREE(hipFreeHost, 0, (void *ptr), ptr)
HIP_FREE(hipFreeAsync, s, (void *ptr, hipStream_t s), ptr, s)

/* ---- streams, events, modules ----------------------------------------------------------- */

#define HIP_CREATE(name, params, ...)                                                      \
	TPROF_EXPORT hipError_t name params                                                \
	{                                                                                  \
		struct tprof_thread *t = &tprof_tls;                                       \
		name##_fn real = get_##name();                                             \
		if (!tprof_wrapper_records(t, real))                                       \
			return real ? real(__VA_ARGS__) : HIP_NO_RUNTIME;                  \
		struct hip_call c;                                                         \
		hip_begin(&c, t, HIP_HOOK(name), TPROF_SHAPE_OBJECT);                      \
		tprof_call_enter(&c.call);                                                 \
		hipError_t rc = real(__VA_ARGS__);                                         \
		if (rc == hipSuccess)                                                      \
			c.a->b = (uint64_t)(uintptr_t)*out;                                \
		return tprof_call_leave(&c.call, rc);                                      \
	}

HIP_CREATE(hipStreamCreate, (hipStream_t *out), out)
HIP_CREATE(hipStreamCreateWithFlags, (hipStream_t *out, unsigned int flags), out, flags)
HIP_CREATE(hipStreamCreateWithPriority, (hipStream_t *out, unsigned int flags, int prio), out, flags, prio)
HIP_CREATE(hipEventCreate, (hipEvent_t *out), out)
HIP_CREATE(hipEventCreateWithFlags, (hipEvent_t *out, unsigned flags), out, flags)

#define HIP_OBJECT(name, stream_expr, object_expr, params, ...)                            \
	HIP_STREAM_CALL(name, TPROF_SHAPE_OBJECT, stream_expr, object_expr, params, __VA_ARGS__)

/* A destroyed stream's handle may come back for another device (devrt-hip.h). */
TPROF_EXPORT hipError_t hipStreamDestroy(hipStream_t s)
{
	struct tprof_thread *t = &tprof_tls;
	hipStreamDestroy_fn real = get_hipStreamDestroy();
	if (TPROF_UNLIKELY(!real))
		return HIP_NO_RUNTIME;
	tprof_hip_streams_forget();
	hipError_t rc;
	if (!tprof_should_record(t)) {
		rc = real(s);
	} else {
		struct hip_call c;
		hip_begin(&c, t, HIP_HOOK(hipStreamDestroy), TPROF_SHAPE_OBJECT);
		c.a->stream = c.a->b = (uint64_t)(uintptr_t)s;
		tprof_call_enter(&c.call);
		rc = tprof_call_leave(&c.call, real(s));
	}
	tprof_hip_streams_forget();
	return rc;
}
HIP_OBJECT(hipEventRecord, s, e, (hipEvent_t e, hipStream_t s), e, s)
HIP_OBJECT(hipEventDestroy, 0, e, (hipEvent_t e), e)

TPROF_EXPORT hipError_t hipModuleGetFunction(hipFunction_t *f, hipModule_t m, const char *name)
{
	hipModuleGetFunction_fn real = get_hipModuleGetFunction();
	struct tprof_thread *t = &tprof_tls;
	if (!real)
		return HIP_NO_RUNTIME;
	if (!tprof_should_record(t)) {
		hipError_t rc = real(f, m, name);
		if (rc == hipSuccess && f)
			tprof_kernel_register(*f, name);
		return rc;
	}
	struct tprof_call c;
	void *none[1];
	tprof_call_begin(&c, t, HIP_HOOK(hipModuleGetFunction), 0, 0, none);
	c.corr = 0;
	tprof_call_enter(&c);
	hipError_t rc = real(f, m, name);
	if (rc == hipSuccess && f)
		tprof_kernel_register(*f, name);
	return tprof_call_leave(&c, rc);
}

/* Not an API call anyone times: hipcc's module constructors name each kernel here. */
TPROF_REAL(void, __hipRegisterFunction, (void **, const void *, char *, const char *, unsigned int,
					 void *, void *, void *, void *, int *))
TPROF_EXPORT void __hipRegisterFunction(void **modules, const void *host, char *device_fn,
					const char *device_name, unsigned int limit, void *tid,
					void *bid, void *block, void *grid, int *wsize)
{
	tprof_kernel_register(host, device_name ? device_name : device_fn);
	__hipRegisterFunction_fn real = get___hipRegisterFunction();
	if (real)
		real(modules, host, device_fn, device_name, limit, tid, bid, block, grid, wsize);
}

/* ---- the shared path of work put on a device --------------------------------------------- */

/* Not wrapped: asked for the names of kernels nobody registered. */
TPROF_REAL(const char *, hipKernelNameRef, (hipFunction_t))
TPROF_REAL(const char *, hipKernelNameRefByPtr, (const void *, hipStream_t))

static uint32_t kernel_name(const void *fn, hipStream_t stream, int module)
{
	uint32_t id = tprof_kernel_name(fn);
	if (id || !fn)
		return id;
	/* Not registered through the usual path: ask the runtime once. */
	const char *name = NULL;
	if (module)
		name = get_hipKernelNameRef() ? real_hipKernelNameRef((hipFunction_t)fn) : NULL;
	else
		name = get_hipKernelNameRefByPtr() ? real_hipKernelNameRefByPtr(fn, stream) : NULL;
	char buf[64];
	if (!name) {
		snprintf(buf, sizeof(buf), "kernel %p", fn);
		name = buf;
	}
	tprof_kernel_register(fn, name);
	return tprof_kernel_name(fn);
}

static uint32_t op_name(const struct hip_work *w)
{
	static const char *const copies[] = { "copy HtoH", "copy HtoD", "copy DtoH", "copy DtoD",
					      "copy", "copy peer" };
	const char *s = w->kind == TPROF_DEVOP_COPY ? copies[w->b < 6 ? w->b : 4]
			: w->kind == TPROF_DEVOP_MEMSET ? "memset" : "graph";
	return tprof_intern(s, strlen(s));
}

int tprof_hip_begin(const struct hip_work *w, struct hip_op *op)
{
	struct tprof_thread *t = &tprof_tls;
	if (!tprof_should_record(t) || tprof_thread_enter(t) < 0)
		return 0;
	int launch = w->kind == TPROF_DEVOP_KERNEL;
	unsigned ext = launch ? 2 : 1;
	uint64_t corr = tprof_next_corr(t);
	t->guard++;
	uint32_t name = launch ? kernel_name(w->fn, w->stream, w->module) : op_name(w);
	uint32_t caller = tprof_g.cfg.callstack ? tprof_callstack(t, corr) : 0;
	t->guard--;
	/* Every byte of the units is written: the arguments, the launch's dimensions. */
	struct tprof_rec *r = tprof_call_begin_raw(&op->call, t, w->hook, ext);
	op->call.corr = corr;
	struct tprof_call_args *a = tprof_call_args(r);
	if (a) {
		*a = (struct tprof_call_args){
			.shape = launch ? TPROF_SHAPE_LAUNCH : w->kind == TPROF_DEVOP_MEMSET
				 ? TPROF_SHAPE_MEMSET : w->kind == TPROF_DEVOP_COPY ? TPROF_SHAPE_COPY
				 : TPROF_SHAPE_NONE,
			.device = NODEV,
			.name = name,
			.stream = (uint64_t)(uintptr_t)w->stream,
			.a = launch ? (uint64_t)(uintptr_t)w->fn : w->bytes,
			.b = w->b,
		};
		if (launch)
			memcpy(a + 1, &w->dims, sizeof(w->dims));
	}
	tprof_call_enter(&op->call);
	uint64_t t0 = r ? r->t0 : tprof_now();
	int device = w->device >= 0 ? w->device : tprof_hip_stream_device((uint64_t)(uintptr_t)w->stream);
	if (a)
		a->device = (uint16_t)device;
	struct tprof_devpend *p = tprof_dev_begin(t, &tprof_hip_rt, device, (uint64_t)(uintptr_t)w->stream);
	if (p) {
		p->corr = corr;
		p->kind = w->kind;
		p->name = name;
		p->op.launch_t0 = t0;
		p->op.bytes = w->bytes;
		p->op.copy_kind = w->kind == TPROF_DEVOP_COPY ? (uint32_t)w->b : 0;
		p->op.caller = caller;
		p->op.dims = w->dims;
	}
	op->p = p;
	return 1;
}

hipError_t tprof_hip_end(struct hip_op *op, hipError_t rc)
{
	tprof_dev_end(op->call.t, op->p, rc == hipSuccess);
	return tprof_call_leave(&op->call, rc);
}

/* ---- the table --------------------------------------------------------------------------- */

#define HIP_ENTRY(name, params, args)                                                     \
	[HIP_##name] = { .domain = TPROF_DOM_HIP, .record = 1 },
struct tprof_hook tprof_hip_hooks[HIP_NHOOKS] = {
	HIP_API(HIP_ENTRY, HIP_ENTRY)
	[HIP_ExtModuleLaunchKernel_cxx] = { .domain = TPROF_DOM_HIP, .record = 1 },
	[HIP_HccModuleLaunchKernel_cxx] = { .domain = TPROF_DOM_HIP, .record = 1 },
};

#define HIP_FILL(name, params, args)                                                      \
	tprof_hook_set(&tprof_hip_hooks[HIP_##name], #name, NULL, (void *)name,           \
		       (void **)&real_##name);
static void tprof_hip_hooks_fill(void)
{
	HIP_API(HIP_FILL, HIP_FILL)
	tprof_hook_set(&tprof_hip_hooks[HIP_ExtModuleLaunchKernel_cxx], TPROF_HIP_EXT_CXX_NAME,
		       "hipExtModuleLaunchKernel", (void *)tprof_hip_ext_module_launch_cxx,
		       &tprof_hip_real_ext_cxx);
	tprof_hook_set(&tprof_hip_hooks[HIP_HccModuleLaunchKernel_cxx], TPROF_HIP_HCC_CXX_NAME,
		       "hipHccModuleLaunchKernel", (void *)tprof_hip_hcc_module_launch_cxx,
		       &tprof_hip_real_hcc_cxx);
}
TPROF_HOOK_TABLE(hip, tprof_hip_hooks, HIP_NHOOKS, tprof_hip_hooks_fill, TPROF_DOM_HIP);
