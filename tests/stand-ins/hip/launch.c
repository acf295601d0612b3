/* launch.c — what a kernel launch goes through: the registry that __hipRegisterFatBinary /
 * __hipRegisterFunction fill from each binary's constructor (host stub -> mangled kernel name),
 * the per-thread call-configuration stack of <<<>>> launches, the launch entry points
 * (hipLaunchKernel and its _spt/Ext/Cooperative forms, the module API including the C++-mangled
 * 5.2 spellings of hipExtModuleLaunchKernel and hipHccModuleLaunchKernel, hipGraphLaunch) and
 * the kernel-name queries.  A kernel occupies its stream for the duration STANDIN_HIP_KERNEL_US
 * gives its name. */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FATBIN_MAGIC 0x46415442u /* "FATB" */
#define MODULE_MAGIC 0x4d4f444cu /* "MODL" */
#define FUNC_MAGIC 0x46554e43u   /* "FUNC" */

/* ------------------------------------------------------------------ registry */
struct fatbin {
	uint32_t magic;
	const void *data;
};
struct kfunc {
	const void *host;
	char *name;
	struct fatbin *fb;
	struct kfunc *next;
};
#define NBUCKETS 256
static struct kfunc *kfuncs[NBUCKETS];
static pthread_mutex_t reg_mu = PTHREAD_MUTEX_INITIALIZER;

static pthread_mutex_t mod_mu = PTHREAD_MUTEX_INITIALIZER; /* modules and their functions */

/* A fork while another thread holds a lock here must not leave it locked in the child. */
static void launch_lock(void)
{
	pthread_mutex_lock(&reg_mu);
	pthread_mutex_lock(&mod_mu);
}

static void launch_unlock(void)
{
	pthread_mutex_unlock(&mod_mu);
	pthread_mutex_unlock(&reg_mu);
}

__attribute__((constructor)) static void launch_setup(void)
{
	pthread_atfork(launch_lock, launch_unlock, launch_unlock);
}

static size_t kbucket(const void *p)
{
	return ((uintptr_t)p >> 4) % NBUCKETS;
}

/* The registered name of a host stub, copied into buf; NULL if unknown. */
static const char *registered_name(const void *host, char *buf, size_t len)
{
	struct kfunc *k;
	const char *r = NULL;
	pthread_mutex_lock(&reg_mu);
	for (k = kfuncs[kbucket(host)]; k; k = k->next)
		if (k->host == host) {
			snprintf(buf, len, "%s", k->name);
			r = buf;
			break;
		}
	pthread_mutex_unlock(&reg_mu);
	return r;
}

SH_EXPORT void **__hipRegisterFatBinary(const void *data);
SH_EXPORT void **__hipRegisterFatBinary(const void *data)
{
	struct fatbin *fb;
	sh_init();
	fb = calloc(1, sizeof(*fb));
	if (fb) {
		fb->magic = FATBIN_MAGIC;
		fb->data = data;
	}
	sh_trace(1, "__hipRegisterFatBinary(%p) = %p", data, (void *)fb);
	return (void **)fb;
}

/* Debian's runtime: void __hipRegisterFunction(hip::FatBinaryInfo** modules, const void*
 * hostFunction, char* deviceFunction, const char* deviceName, unsigned int threadLimit,
 * uint3* tid, uint3* bid, dim3* blockDim, dim3* gridDim, int* wSize).  The pointer arguments
 * at the end are passed through untouched. */
SH_EXPORT void __hipRegisterFunction(void **modules, const void *hostFunction,
				     char *deviceFunction, const char *deviceName,
				     unsigned int threadLimit, void *tid, void *bid, dim3 *blockDim,
				     dim3 *gridDim, int *wSize);
SH_EXPORT void __hipRegisterFunction(void **modules, const void *hostFunction,
				     char *deviceFunction, const char *deviceName,
				     unsigned int threadLimit, void *tid, void *bid, dim3 *blockDim,
				     dim3 *gridDim, int *wSize)
{
	struct kfunc *k;
	const char *name = deviceName ? deviceName : deviceFunction;
	(void)threadLimit, (void)tid, (void)bid, (void)blockDim, (void)gridDim, (void)wSize;
	sh_init();
	sh_trace(1, "__hipRegisterFunction(%p, %p, \"%s\")", (void *)modules, hostFunction,
		 name ? name : "");
	if (!hostFunction || !name)
		return;
	k = calloc(1, sizeof(*k));
	if (!k || !(k->name = strdup(name))) {
		free(k);
		return;
	}
	k->host = hostFunction;
	k->fb = (struct fatbin *)modules;
	pthread_mutex_lock(&reg_mu);
	k->next = kfuncs[kbucket(hostFunction)];
	kfuncs[kbucket(hostFunction)] = k;
	pthread_mutex_unlock(&reg_mu);
}

SH_EXPORT void __hipUnregisterFatBinary(void **modules);
SH_EXPORT void __hipUnregisterFatBinary(void **modules)
{
	struct fatbin *fb = (struct fatbin *)modules;
	size_t b;
	sh_init();
	sh_trace(1, "__hipUnregisterFatBinary(%p)", (void *)modules);
	if (!fb || fb->magic != FATBIN_MAGIC)
		return;
	pthread_mutex_lock(&reg_mu);
	for (b = 0; b < NBUCKETS; b++) {
		struct kfunc **pp = &kfuncs[b];
		while (*pp) {
			struct kfunc *k = *pp;
			if (k->fb == fb) {
				*pp = k->next;
				free(k->name);
				free(k);
			} else {
				pp = &k->next;
			}
		}
	}
	pthread_mutex_unlock(&reg_mu);
	fb->magic = 0;
	free(fb);
}

/* __device__ variables: their host shadows are used directly, nothing to record. */
SH_EXPORT void __hipRegisterVar(void **modules, void *var, char *hostVar, char *deviceVar,
				int ext, size_t size, int constant, int global);
SH_EXPORT void __hipRegisterVar(void **modules, void *var, char *hostVar, char *deviceVar,
				int ext, size_t size, int constant, int global)
{
	(void)ext, (void)constant, (void)global;
	sh_init();
	sh_trace(1, "__hipRegisterVar(%p, %p, \"%s\", %zu)", (void *)modules, var,
		 deviceVar ? deviceVar : hostVar ? hostVar : "", size);
}

/* __managed__ variables: the runtime allocates them and copies the initial value. */
SH_EXPORT void __hipRegisterManagedVar(void *hipModule, void **pointer, void *init_value,
				       const char *name, size_t size, unsigned align);
SH_EXPORT void __hipRegisterManagedVar(void *hipModule, void **pointer, void *init_value,
				       const char *name, size_t size, unsigned align)
{
	void *p = NULL;
	size_t a = align < 256 ? 256 : align;
	sh_init();
	if (pointer && size) {
		p = aligned_alloc(a, (size + a - 1) / a * a);
		if (p && init_value)
			memcpy(p, init_value, size);
		*pointer = p;
	}
	sh_trace(1, "__hipRegisterManagedVar(%p, \"%s\", %zu) -> %p", hipModule, name ? name : "",
		 size, p);
}

/* ------------------------------------------------------------------ call configuration */
struct call_config {
	dim3 grid, block;
	size_t shmem;
	hipStream_t stream;
};
#define MAX_CONFIGS 32
static _Thread_local struct call_config configs[MAX_CONFIGS];
static _Thread_local int nconfigs;

static hipError_t push_config(dim3 grid, dim3 block, size_t shmem, hipStream_t stream)
{
	if (nconfigs == MAX_CONFIGS)
		return hipErrorInvalidConfiguration;
	configs[nconfigs].grid = grid;
	configs[nconfigs].block = block;
	configs[nconfigs].shmem = shmem;
	configs[nconfigs].stream = stream;
	nconfigs++;
	return hipSuccess;
}

SH_EXPORT hipError_t __hipPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
						hipStream_t stream)
{
	sh_init();
	SH_RET(push_config(gridDim, blockDim, sharedMem, stream), "grid=%ux%ux%u, block=%ux%ux%u, "
	       "shmem=%zu, stream=%p", gridDim.x, gridDim.y, gridDim.z, blockDim.x, blockDim.y,
	       blockDim.z, sharedMem, (void *)stream);
}

SH_EXPORT hipError_t __hipPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem,
					       hipStream_t *stream)
{
	struct call_config *c;
	sh_init();
	if (!nconfigs)
		SH_RET(hipErrorMissingConfiguration, "%s", "empty");
	c = &configs[--nconfigs];
	if (gridDim)
		*gridDim = c->grid;
	if (blockDim)
		*blockDim = c->block;
	if (sharedMem)
		*sharedMem = c->shmem;
	if (stream)
		*stream = c->stream;
	SH_RET(hipSuccess, "grid=%ux%ux%u, block=%ux%ux%u, shmem=%zu, stream=%p", c->grid.x,
	       c->grid.y, c->grid.z, c->block.x, c->block.y, c->block.z, c->shmem,
	       (void *)c->stream);
}

SH_EXPORT hipError_t hipConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem,
				      hipStream_t stream)
{
	sh_init();
	SH_RET(push_config(gridDim, blockDim, sharedMem, stream), "grid=%ux%ux%u, block=%ux%ux%u",
	       gridDim.x, gridDim.y, gridDim.z, blockDim.x, blockDim.y, blockDim.z);
}

SH_EXPORT hipError_t hipSetupArgument(const void *arg, size_t size, size_t offset)
{
	sh_init();
	SH_RET(hipSuccess, "%p, %zu, %zu", arg, size, offset);
}

/* ------------------------------------------------------------------ launching */
/* Queues kernel `name` on stream `h`, between the optional start and stop events. */
static hipError_t launch(hipStream_t h, const char *name, dim3 grid, dim3 block,
			 hipEvent_t start, hipEvent_t stop)
{
	hipError_t e;
	struct sh_stream *s;
	struct sh_op *op;
	if (!grid.x || !grid.y || !grid.z || !block.x || !block.y || !block.z ||
	    (uint64_t)block.x * block.y * block.z > 1024)
		return hipErrorInvalidConfiguration;
	s = sh_stream_resolve(h, &e);
	if (!s)
		return e;
	if ((start && sh_event_device(start) != s->dev->id) ||
	    (stop && sh_event_device(stop) != s->dev->id))
		return hipErrorInvalidHandle;
	op = sh_op_new(SH_OP_KERNEL);
	if (!op)
		return hipErrorOutOfMemory;
	op->dur_ns = sh_kernel_ns(name);
	snprintf(op->label, sizeof(op->label), "%s", name);
	if (start && (e = sh_event_record(start, s)) != hipSuccess) {
		sh_op_unref(op);
		return e;
	}
	sh_enqueue(s, op);
	if (stop)
		return sh_event_record(stop, s);
	return hipSuccess;
}

static const char *host_name(const void *f, char *buf, size_t len)
{
	const char *n = registered_name(f, buf, len);
	return n ? n : "unknown kernel";
}

#define LAUNCH_ARGS "%s, grid=%ux%ux%u, block=%ux%ux%u, shmem=%zu, stream=%p"
#define LAUNCH_VALS(name, g, b, shmem, stream) name, g.x, g.y, g.z, b.x, b.y, b.z, \
	(size_t)(shmem), (void *)(stream)

SH_EXPORT hipError_t hipLaunchKernel(const void *function_address, dim3 numBlocks, dim3 dimBlocks,
				     void **args, size_t sharedMemBytes, hipStream_t stream)
{
	char buf[1024];
	const char *name;
	hipError_t e;
	sh_init();
	(void)args;
	name = host_name(function_address, buf, sizeof(buf));
	e = function_address ? launch(stream, name, numBlocks, dimBlocks, NULL, NULL)
			     : hipErrorInvalidDeviceFunction;
	SH_RET(e, LAUNCH_ARGS, LAUNCH_VALS(name, numBlocks, dimBlocks, sharedMemBytes, stream));
}

SH_EXPORT hipError_t hipLaunchKernel_spt(const void *function_address, dim3 numBlocks,
					 dim3 dimBlocks, void **args, size_t sharedMemBytes,
					 hipStream_t stream)
{
	char buf[1024];
	const char *name;
	hipError_t e;
	sh_init();
	(void)args;
	name = host_name(function_address, buf, sizeof(buf));
	e = function_address ? launch(stream ? stream : hipStreamPerThread, name, numBlocks,
				      dimBlocks, NULL, NULL)
			     : hipErrorInvalidDeviceFunction;
	SH_RET(e, LAUNCH_ARGS, LAUNCH_VALS(name, numBlocks, dimBlocks, sharedMemBytes, stream));
}

SH_EXPORT hipError_t hipExtLaunchKernel(const void *function_address, dim3 numBlocks,
					dim3 dimBlocks, void **args, size_t sharedMemBytes,
					hipStream_t stream, hipEvent_t startEvent,
					hipEvent_t stopEvent, int flags)
{
	char buf[1024];
	const char *name;
	hipError_t e;
	sh_init();
	(void)args;
	name = host_name(function_address, buf, sizeof(buf));
	e = function_address ? launch(stream, name, numBlocks, dimBlocks, startEvent, stopEvent)
			     : hipErrorInvalidDeviceFunction;
	SH_RET(e, LAUNCH_ARGS ", start=%p, stop=%p, flags=%d",
	       LAUNCH_VALS(name, numBlocks, dimBlocks, sharedMemBytes, stream), (void *)startEvent,
	       (void *)stopEvent, flags);
}

SH_EXPORT hipError_t hipLaunchCooperativeKernel(const void *f, dim3 gridDim, dim3 blockDimX,
						void **kernelParams, unsigned int sharedMemBytes,
						hipStream_t stream)
{
	char buf[1024];
	const char *name;
	hipError_t e;
	sh_init();
	(void)kernelParams;
	name = host_name(f, buf, sizeof(buf));
	e = f ? launch(stream, name, gridDim, blockDimX, NULL, NULL) : hipErrorInvalidDeviceFunction;
	SH_RET(e, LAUNCH_ARGS, LAUNCH_VALS(name, gridDim, blockDimX, sharedMemBytes, stream));
}

SH_EXPORT hipError_t hipLaunchCooperativeKernel_spt(const void *f, dim3 gridDim, dim3 blockDim,
						    void **kernelParams, uint32_t sharedMemBytes,
						    hipStream_t hStream)
{
	char buf[1024];
	const char *name;
	hipError_t e;
	sh_init();
	(void)kernelParams;
	name = host_name(f, buf, sizeof(buf));
	e = f ? launch(hStream ? hStream : hipStreamPerThread, name, gridDim, blockDim, NULL, NULL)
	      : hipErrorInvalidDeviceFunction;
	SH_RET(e, LAUNCH_ARGS, LAUNCH_VALS(name, gridDim, blockDim, sharedMemBytes, hStream));
}

SH_EXPORT hipError_t hipLaunchByPtr(const void *func)
{
	char buf[1024];
	const char *name;
	struct call_config c;
	hipError_t e;
	sh_init();
	name = host_name(func, buf, sizeof(buf));
	if (!nconfigs)
		SH_RET(hipErrorMissingConfiguration, "%s", name);
	c = configs[--nconfigs];
	e = func ? launch(c.stream, name, c.grid, c.block, NULL, NULL) : hipErrorInvalidDeviceFunction;
	SH_RET(e, LAUNCH_ARGS, LAUNCH_VALS(name, c.grid, c.block, c.shmem, c.stream));
}

SH_EXPORT hipError_t hipGraphLaunch(hipGraphExec_t graphExec, hipStream_t stream)
{
	hipError_t e;
	struct sh_stream *s;
	struct sh_op *op;
	sh_init();
	if (!graphExec)
		SH_RET(hipErrorInvalidValue, "NULL, %p", (void *)stream);
	s = sh_stream_resolve(stream, &e);
	if (!s)
		SH_RET(e, "%p, %p", (void *)graphExec, (void *)stream);
	op = sh_op_new(SH_OP_GRAPH);
	if (!op)
		SH_RET(hipErrorOutOfMemory, "%p, %p", (void *)graphExec, (void *)stream);
	op->dur_ns = sh_cfg.graph_ns;
	snprintf(op->label, sizeof(op->label), "graph %p", (void *)graphExec);
	sh_enqueue(s, op);
	SH_RET(hipSuccess, "%p, %p", (void *)graphExec, (void *)stream);
}

/* ------------------------------------------------------------------ modules */
struct sh_func;
struct sh_module {
	uint32_t magic;
	struct sh_func *funcs;
};
struct sh_func {
	uint32_t magic;
	char *name;
	struct sh_module *mod;
	struct sh_func *next;
};

static hipError_t module_new(hipModule_t *module)
{
	struct sh_module *m;
	if (!module)
		return hipErrorInvalidValue;
	m = calloc(1, sizeof(*m));
	if (!m)
		return hipErrorOutOfMemory;
	m->magic = MODULE_MAGIC;
	*module = (hipModule_t)m;
	return hipSuccess;
}

SH_EXPORT hipError_t hipModuleLoad(hipModule_t *module, const char *fname)
{
	FILE *f;
	hipError_t e;
	sh_init();
	if (!module || !fname)
		SH_RET(hipErrorInvalidValue, "%p, %p", (void *)module, (const void *)fname);
	f = fopen(fname, "rb");
	if (!f)
		SH_RET(hipErrorFileNotFound, "\"%s\"", fname);
	fclose(f);
	e = module_new(module);
	SH_RET(e, "%p, \"%s\"", e == hipSuccess ? (void *)*module : NULL, fname);
}

SH_EXPORT hipError_t hipModuleLoadData(hipModule_t *module, const void *image)
{
	hipError_t e;
	sh_init();
	e = image ? module_new(module) : hipErrorInvalidValue;
	SH_RET(e, "%p, %p", e == hipSuccess ? (void *)*module : NULL, image);
}

SH_EXPORT hipError_t hipModuleLoadDataEx(hipModule_t *module, const void *image,
					 unsigned int numOptions, hipJitOption *options,
					 void **optionValues)
{
	hipError_t e;
	(void)options, (void)optionValues;
	sh_init();
	e = image ? module_new(module) : hipErrorInvalidValue;
	SH_RET(e, "%p, %p, %u", e == hipSuccess ? (void *)*module : NULL, image, numOptions);
}

SH_EXPORT hipError_t hipModuleUnload(hipModule_t module)
{
	struct sh_module *m = (struct sh_module *)module;
	hipError_t r;
	struct sh_func *f, *next;
	sh_init();
	if (!m || m->magic != MODULE_MAGIC)
		SH_RET(hipErrorInvalidHandle, "%p", (void *)module);
	r = sh_ret(__func__, hipSuccess, "%p", (void *)module); /* traced before the free */
	pthread_mutex_lock(&mod_mu);
	for (f = m->funcs; f; f = next) {
		next = f->next;
		f->magic = 0;
		free(f->name);
		free(f);
	}
	m->magic = 0;
	pthread_mutex_unlock(&mod_mu);
	free(m);
	return r;
}

SH_EXPORT hipError_t hipModuleGetFunction(hipFunction_t *function, hipModule_t module,
					  const char *kname)
{
	struct sh_module *m = (struct sh_module *)module;
	struct sh_func *f;
	sh_init();
	if (!function || !kname)
		SH_RET(hipErrorInvalidValue, "%p, %p", (void *)function, (void *)module);
	if (!m || m->magic != MODULE_MAGIC)
		SH_RET(hipErrorInvalidHandle, "%p, \"%s\"", (void *)module, kname);
	pthread_mutex_lock(&mod_mu);
	for (f = m->funcs; f; f = f->next)
		if (strcmp(f->name, kname) == 0)
			break;
	if (!f && (f = calloc(1, sizeof(*f))) && (f->name = strdup(kname))) {
		f->magic = FUNC_MAGIC;
		f->mod = m;
		f->next = m->funcs;
		m->funcs = f;
	} else if (f && !f->name) {
		free(f);
		f = NULL;
	}
	pthread_mutex_unlock(&mod_mu);
	if (!f)
		SH_RET(hipErrorOutOfMemory, "%p, \"%s\"", (void *)module, kname);
	*function = (hipFunction_t)f;
	SH_RET(hipSuccess, "%p, %p, \"%s\"", (void *)f, (void *)module, kname);
}

static const char *func_name(hipFunction_t fn, char *buf, size_t len)
{
	struct sh_func *f = (struct sh_func *)fn;
	const char *r = NULL;
	if (!f)
		return NULL;
	pthread_mutex_lock(&mod_mu);
	if (f->magic == FUNC_MAGIC) {
		snprintf(buf, len, "%s", f->name);
		r = buf;
	}
	pthread_mutex_unlock(&mod_mu);
	return r;
}

static hipError_t module_launch(hipFunction_t fn, dim3 grid, dim3 block, hipStream_t h,
				hipEvent_t start, hipEvent_t stop, const char **name, char *buf,
				size_t len)
{
	*name = func_name(fn, buf, len);
	if (!*name) {
		*name = "invalid function";
		return hipErrorInvalidHandle;
	}
	return launch(h, *name, grid, block, start, stop);
}

SH_EXPORT hipError_t hipModuleLaunchKernel(hipFunction_t f, unsigned int gridDimX,
					   unsigned int gridDimY, unsigned int gridDimZ,
					   unsigned int blockDimX, unsigned int blockDimY,
					   unsigned int blockDimZ, unsigned int sharedMemBytes,
					   hipStream_t stream, void **kernelParams, void **extra)
{
	char buf[1024];
	const char *name;
	dim3 g = {gridDimX, gridDimY, gridDimZ}, b = {blockDimX, blockDimY, blockDimZ};
	hipError_t e;
	(void)kernelParams, (void)extra;
	sh_init();
	e = module_launch(f, g, b, stream, NULL, NULL, &name, buf, sizeof(buf));
	SH_RET(e, LAUNCH_ARGS, LAUNCH_VALS(name, g, b, sharedMemBytes, stream));
}

/* Sizes in work-items: the grid is global / local (rounded up). */
static hipError_t ext_module_launch(const char *fn, hipFunction_t f, uint32_t gx, uint32_t gy,
				    uint32_t gz, uint32_t lx, uint32_t ly, uint32_t lz,
				    size_t shmem, hipStream_t h, hipEvent_t start, hipEvent_t stop,
				    uint32_t flags)
{
	char buf[1024];
	const char *name;
	dim3 b = {lx, ly, lz};
	dim3 g = {lx ? (gx + lx - 1) / lx : 0, ly ? (gy + ly - 1) / ly : 0,
		  lz ? (gz + lz - 1) / lz : 0};
	hipError_t e = module_launch(f, g, b, h, start, stop, &name, buf, sizeof(buf));
	return sh_ret(fn, e, LAUNCH_ARGS ", global=%ux%ux%u, start=%p, stop=%p, flags=%u",
		      LAUNCH_VALS(name, g, b, shmem, h), gx, gy, gz, (void *)start, (void *)stop,
		      flags);
}

/* HIP 5.2 declares these two in hip_ext.h without extern "C" (C++ linkage, default arguments
 * for the events and flags); ROCm >= 6.1 declares them extern "C".  Both spellings here. */
#define EXT_PARAMS                                                                            \
	hipFunction_t f, uint32_t globalWorkSizeX, uint32_t globalWorkSizeY,                  \
		uint32_t globalWorkSizeZ, uint32_t localWorkSizeX, uint32_t localWorkSizeY,   \
		uint32_t localWorkSizeZ, size_t sharedMemBytes, hipStream_t hStream,          \
		void **kernelParams, void **extra, hipEvent_t startEvent, hipEvent_t stopEvent
#define EXT_ARGS                                                                              \
	f, globalWorkSizeX, globalWorkSizeY, globalWorkSizeZ, localWorkSizeX, localWorkSizeY, \
		localWorkSizeZ, sharedMemBytes, hStream, startEvent, stopEvent

SH_EXPORT hipError_t hipExtModuleLaunchKernel(EXT_PARAMS, uint32_t flags);
SH_EXPORT hipError_t hipExtModuleLaunchKernel(EXT_PARAMS, uint32_t flags)
{
	(void)kernelParams, (void)extra;
	sh_init();
	return ext_module_launch(__func__, EXT_ARGS, flags);
}

SH_EXPORT hipError_t sh_ext_module_launch_cxx(EXT_PARAMS, uint32_t flags) __asm__(
	"_Z24hipExtModuleLaunchKernelP18ihipModuleSymbol_tjjjjjjmP12ihipStream_tPPvS4_P11ihipEvent_tS6_j");
SH_EXPORT hipError_t sh_ext_module_launch_cxx(EXT_PARAMS, uint32_t flags)
{
	(void)kernelParams, (void)extra;
	sh_init();
	return ext_module_launch("hipExtModuleLaunchKernel[C++]", EXT_ARGS, flags);
}

SH_EXPORT hipError_t hipHccModuleLaunchKernel(EXT_PARAMS);
SH_EXPORT hipError_t hipHccModuleLaunchKernel(EXT_PARAMS)
{
	(void)kernelParams, (void)extra;
	sh_init();
	return ext_module_launch(__func__, EXT_ARGS, 0);
}

SH_EXPORT hipError_t sh_hcc_module_launch_cxx(EXT_PARAMS) __asm__(
	"_Z24hipHccModuleLaunchKernelP18ihipModuleSymbol_tjjjjjjmP12ihipStream_tPPvS4_P11ihipEvent_tS6_");
SH_EXPORT hipError_t sh_hcc_module_launch_cxx(EXT_PARAMS)
{
	(void)kernelParams, (void)extra;
	sh_init();
	return ext_module_launch("hipHccModuleLaunchKernel[C++]", EXT_ARGS, 0);
}

/* ------------------------------------------------------------------ names and attributes */
/* The returned names live as long as the registration / the module. */
SH_EXPORT const char *hipKernelNameRef(const hipFunction_t f)
{
	struct sh_func *fn = (struct sh_func *)f;
	const char *r = NULL;
	sh_init();
	pthread_mutex_lock(&mod_mu);
	if (fn && fn->magic == FUNC_MAGIC)
		r = fn->name;
	pthread_mutex_unlock(&mod_mu);
	sh_trace(1, "hipKernelNameRef(%p) = %s", (void *)f, r ? r : "NULL");
	return r;
}

SH_EXPORT const char *hipKernelNameRefByPtr(const void *hostFunction, hipStream_t stream)
{
	struct kfunc *k;
	const char *r = NULL;
	sh_init();
	pthread_mutex_lock(&reg_mu);
	for (k = kfuncs[kbucket(hostFunction)]; k; k = k->next)
		if (k->host == hostFunction) {
			r = k->name;
			break;
		}
	pthread_mutex_unlock(&reg_mu);
	sh_trace(1, "hipKernelNameRefByPtr(%p, %p) = %s", hostFunction, (void *)stream,
		 r ? r : "NULL");
	return r;
}

SH_EXPORT hipError_t hipFuncGetAttributes(struct hipFuncAttributes *attr, const void *func)
{
	char buf[1024];
	sh_init();
	if (!attr)
		SH_RET(hipErrorInvalidValue, "NULL, %p", func);
	if (!func || !registered_name(func, buf, sizeof(buf)))
		SH_RET(hipErrorInvalidDeviceFunction, "%p", func);
	memset(attr, 0, sizeof(*attr));
	SH_RET(hipSuccess, "%s", buf);
}
