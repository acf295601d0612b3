/* memory.c — allocations, copies and memsets.  "Device" memory is host memory (256-byte
 * aligned) recorded in a table with its device, size and kind; hipFree and hipHostFree wait
 * for the device first, as HIP documents.  Copies and memsets are stream operations: each
 * occupies its stream for bytes / STANDIN_HIP_COPY_GBPS and really moves the bytes when the
 * stream reaches it; the synchronous forms queue on the null stream (the per-thread stream
 * for the _spt forms) and wait. */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum alloc_kind { A_DEVICE, A_MANAGED, A_HOST, A_REGISTERED };
struct alloc {
	void *ptr;
	size_t size;
	int dev;
	enum alloc_kind kind;
	unsigned flags;
	struct alloc *next;
};

#define NBUCKETS 1024
static struct alloc *buckets[NBUCKETS];
static pthread_mutex_t mem_mu = PTHREAD_MUTEX_INITIALIZER;

/* A fork while another thread holds the table must not leave it locked in the child. */
static void mem_lock(void)
{
	pthread_mutex_lock(&mem_mu);
}

static void mem_unlock(void)
{
	pthread_mutex_unlock(&mem_mu);
}

__attribute__((constructor)) static void mem_setup(void)
{
	pthread_atfork(mem_lock, mem_unlock, mem_unlock);
}

static size_t bucket(const void *p)
{
	return ((uintptr_t)p >> 8) % NBUCKETS;
}

/* With mem_mu held: the allocation starting at `p` (exact) or containing it. */
static struct alloc *find(const void *p, int exact)
{
	struct alloc *a;
	size_t b;
	for (a = buckets[bucket(p)]; a; a = a->next)
		if (a->ptr == p)
			return a;
	if (exact)
		return NULL;
	for (b = 0; b < NBUCKETS; b++)
		for (a = buckets[b]; a; a = a->next)
			if ((const char *)p >= (const char *)a->ptr &&
			    (const char *)p < (const char *)a->ptr + a->size)
				return a;
	return NULL;
}

static int is_device_kind(enum alloc_kind k)
{
	return k == A_DEVICE || k == A_MANAGED;
}

static hipError_t do_alloc(void **ptr, size_t size, enum alloc_kind kind, unsigned flags)
{
	int dev = sh_current_device();
	struct alloc *a;
	void *p;
	size_t rounded;
	if (!ptr)
		return hipErrorInvalidValue;
	*ptr = NULL;
	if (!sh_valid_device(dev))
		return hipErrorNoDevice;
	if (size == 0)
		return hipSuccess;
	rounded = (size + 255) & ~(size_t)255;
	if (rounded < size)
		return hipErrorOutOfMemory;
	if (is_device_kind(kind) && atomic_load(&sh_devices[dev].mem_used) + size > SH_TOTAL_MEM)
		return hipErrorOutOfMemory;
	a = calloc(1, sizeof(*a));
	p = aligned_alloc(256, rounded);
	if (!a || !p) {
		free(a);
		free(p);
		return hipErrorOutOfMemory;
	}
	a->ptr = p;
	a->size = size;
	a->dev = dev;
	a->kind = kind;
	a->flags = flags;
	pthread_mutex_lock(&mem_mu);
	a->next = buckets[bucket(p)];
	buckets[bucket(p)] = a;
	pthread_mutex_unlock(&mem_mu);
	if (is_device_kind(kind))
		atomic_fetch_add(&sh_devices[dev].mem_used, size);
	*ptr = p;
	return hipSuccess;
}

/* Removes `ptr` from the table and frees it.  host_kind: 1 = only host allocations (hipHostFree),
 * 0 = any owned allocation (hipFree accepts both, like HIP). */
hipError_t sh_mem_release(void *ptr, int host_kind)
{
	struct alloc **pp, *a = NULL;
	if (!ptr)
		return hipSuccess;
	pthread_mutex_lock(&mem_mu);
	for (pp = &buckets[bucket(ptr)]; *pp; pp = &(*pp)->next)
		if ((*pp)->ptr == ptr) {
			a = *pp;
			if (a->kind == A_REGISTERED || (host_kind && a->kind != A_HOST)) {
				a = NULL;
				break;
			}
			*pp = a->next;
			break;
		}
	pthread_mutex_unlock(&mem_mu);
	if (!a)
		return hipErrorInvalidValue;
	if (is_device_kind(a->kind))
		atomic_fetch_sub(&sh_devices[a->dev].mem_used, a->size);
	free(a->ptr);
	free(a);
	return hipSuccess;
}

int sh_mem_device(const void *ptr)
{
	struct alloc *a;
	int dev;
	pthread_mutex_lock(&mem_mu);
	a = find(ptr, 0);
	dev = a ? a->dev : -1;
	pthread_mutex_unlock(&mem_mu);
	return dev;
}

/* ------------------------------------------------------------------ allocation API */
SH_EXPORT hipError_t hipMalloc(void **ptr, size_t size)
{
	hipError_t e;
	sh_init();
	e = do_alloc(ptr, size, A_DEVICE, 0);
	SH_RET(e, "%p, %zu", ptr ? *ptr : NULL, size);
}

SH_EXPORT hipError_t hipExtMallocWithFlags(void **ptr, size_t sizeBytes, unsigned int flags)
{
	hipError_t e;
	sh_init();
	e = do_alloc(ptr, sizeBytes, A_DEVICE, flags);
	SH_RET(e, "%p, %zu, flags=%#x", ptr ? *ptr : NULL, sizeBytes, flags);
}

SH_EXPORT hipError_t hipMallocManaged(void **dev_ptr, size_t size, unsigned int flags)
{
	hipError_t e;
	sh_init();
	e = do_alloc(dev_ptr, size, A_MANAGED, flags);
	SH_RET(e, "%p, %zu, flags=%#x", dev_ptr ? *dev_ptr : NULL, size, flags);
}

SH_EXPORT hipError_t hipMallocAsync(void **dev_ptr, size_t size, hipStream_t stream)
{
	hipError_t e;
	sh_init();
	if (stream)
		(void)sh_stream_resolve(stream, &e);
	else
		e = hipSuccess;
	if (e == hipSuccess)
		e = do_alloc(dev_ptr, size, A_DEVICE, 0);
	SH_RET(e, "%p, %zu, %p", dev_ptr ? *dev_ptr : NULL, size, (void *)stream);
}

SH_EXPORT hipError_t hipMallocPitch(void **ptr, size_t *pitch, size_t width, size_t height)
{
	hipError_t e;
	size_t p;
	sh_init();
	if (!ptr || !pitch)
		SH_RET(hipErrorInvalidValue, "%p, %p, %zu, %zu", (void *)ptr, (void *)pitch, width,
		       height);
	p = (width + 255) & ~(size_t)255;
	e = do_alloc(ptr, p * height, A_DEVICE, 0);
	if (e == hipSuccess)
		*pitch = p;
	SH_RET(e, "%p, pitch=%zu, %zu, %zu", *ptr, p, width, height);
}

SH_EXPORT hipError_t hipHostMalloc(void **ptr, size_t size, unsigned int flags)
{
	hipError_t e;
	sh_init();
	e = do_alloc(ptr, size, A_HOST, flags);
	SH_RET(e, "%p, %zu, flags=%#x", ptr ? *ptr : NULL, size, flags);
}

SH_EXPORT hipError_t hipMallocHost(void **ptr, size_t size)
{
	hipError_t e;
	sh_init();
	e = do_alloc(ptr, size, A_HOST, 0);
	SH_RET(e, "%p, %zu", ptr ? *ptr : NULL, size);
}

SH_EXPORT hipError_t hipHostAlloc(void **ptr, size_t size, unsigned int flags)
{
	hipError_t e;
	sh_init();
	e = do_alloc(ptr, size, A_HOST, flags);
	SH_RET(e, "%p, %zu, flags=%#x", ptr ? *ptr : NULL, size, flags);
}

/* hipFree and hipHostFree synchronise first (the header: "implicit hipDeviceSynchronize"). */
static hipError_t free_sync(void *ptr, int host_kind)
{
	int dev, cur = sh_current_device();
	if (!ptr)
		return hipSuccess;
	dev = sh_mem_device(ptr);
	if (dev < 0)
		return hipErrorInvalidValue;
	if (sh_valid_device(cur))
		sh_device_sync(cur);
	if (dev != cur)
		sh_device_sync(dev);
	return sh_mem_release(ptr, host_kind);
}

SH_EXPORT hipError_t hipFree(void *ptr)
{
	hipError_t e;
	sh_init();
	e = free_sync(ptr, 0);
	SH_RET(e, "%p", ptr);
}

SH_EXPORT hipError_t hipHostFree(void *ptr)
{
	hipError_t e;
	sh_init();
	e = free_sync(ptr, 1);
	SH_RET(e, "%p", ptr);
}

SH_EXPORT hipError_t hipFreeHost(void *ptr)
{
	hipError_t e;
	sh_init();
	e = free_sync(ptr, 1);
	SH_RET(e, "%p", ptr);
}

SH_EXPORT hipError_t hipFreeAsync(void *dev_ptr, hipStream_t stream)
{
	hipError_t e;
	struct sh_stream *s;
	struct sh_op *op;
	sh_init();
	if (!dev_ptr)
		SH_RET(hipErrorInvalidValue, "NULL, %p", (void *)stream);
	if (sh_mem_device(dev_ptr) < 0)
		SH_RET(hipErrorInvalidValue, "%p, %p", dev_ptr, (void *)stream);
	s = sh_stream_resolve(stream, &e);
	if (!s)
		SH_RET(e, "%p, %p", dev_ptr, (void *)stream);
	op = sh_op_new(SH_OP_FREE);
	if (!op)
		SH_RET(hipErrorOutOfMemory, "%p, %p", dev_ptr, (void *)stream);
	op->dst = dev_ptr;
	snprintf(op->label, sizeof(op->label), "free %p", dev_ptr);
	sh_enqueue(s, op);
	SH_RET(hipSuccess, "%p, %p", dev_ptr, (void *)stream);
}

SH_EXPORT hipError_t hipHostRegister(void *hostPtr, size_t sizeBytes, unsigned int flags)
{
	struct alloc *a;
	sh_init();
	if (!hostPtr || !sizeBytes)
		SH_RET(hipErrorInvalidValue, "%p, %zu, %#x", hostPtr, sizeBytes, flags);
	a = calloc(1, sizeof(*a));
	if (!a)
		SH_RET(hipErrorOutOfMemory, "%p, %zu, %#x", hostPtr, sizeBytes, flags);
	pthread_mutex_lock(&mem_mu);
	if (find(hostPtr, 1)) {
		pthread_mutex_unlock(&mem_mu);
		free(a);
		SH_RET(hipErrorHostMemoryAlreadyRegistered, "%p, %zu, %#x", hostPtr, sizeBytes, flags);
	}
	a->ptr = hostPtr;
	a->size = sizeBytes;
	a->dev = sh_current_device();
	a->kind = A_REGISTERED;
	a->flags = flags;
	a->next = buckets[bucket(hostPtr)];
	buckets[bucket(hostPtr)] = a;
	pthread_mutex_unlock(&mem_mu);
	SH_RET(hipSuccess, "%p, %zu, %#x", hostPtr, sizeBytes, flags);
}

SH_EXPORT hipError_t hipHostUnregister(void *hostPtr)
{
	struct alloc **pp, *a = NULL;
	sh_init();
	pthread_mutex_lock(&mem_mu);
	for (pp = &buckets[bucket(hostPtr)]; *pp; pp = &(*pp)->next)
		if ((*pp)->ptr == hostPtr && (*pp)->kind == A_REGISTERED) {
			a = *pp;
			*pp = a->next;
			break;
		}
	pthread_mutex_unlock(&mem_mu);
	free(a);
	SH_RET(a ? hipSuccess : hipErrorHostMemoryNotRegistered, "%p", hostPtr);
}

SH_EXPORT hipError_t hipHostGetDevicePointer(void **devPtr, void *hstPtr, unsigned int flags)
{
	struct alloc *a;
	sh_init();
	if (!devPtr || !hstPtr)
		SH_RET(hipErrorInvalidValue, "%p, %p, %u", (void *)devPtr, hstPtr, flags);
	pthread_mutex_lock(&mem_mu);
	a = find(hstPtr, 0);
	pthread_mutex_unlock(&mem_mu);
	if (!a || is_device_kind(a->kind))
		SH_RET(hipErrorInvalidValue, "%p, %u", hstPtr, flags);
	*devPtr = hstPtr;
	SH_RET(hipSuccess, "%p, %p, %u", *devPtr, hstPtr, flags);
}

SH_EXPORT hipError_t hipPointerGetAttributes(hipPointerAttribute_t *attributes, const void *ptr)
{
	struct alloc *a, copy;
	sh_init();
	if (!attributes || !ptr)
		SH_RET(hipErrorInvalidValue, "%p, %p", (void *)attributes, ptr);
	pthread_mutex_lock(&mem_mu);
	a = find(ptr, 0);
	if (a)
		copy = *a;
	pthread_mutex_unlock(&mem_mu);
	if (!a)
		SH_RET(hipErrorInvalidValue, "%p", ptr);
	memset(attributes, 0, sizeof(*attributes));
	attributes->memoryType = is_device_kind(copy.kind) ? hipMemoryTypeDevice : hipMemoryTypeHost;
	attributes->device = copy.dev;
	attributes->devicePointer = (void *)ptr;
	attributes->hostPointer = copy.kind == A_DEVICE ? NULL : (void *)ptr;
	attributes->isManaged = copy.kind == A_MANAGED;
	attributes->allocationFlags = copy.flags;
	SH_RET(hipSuccess, "%p, type=%d, device=%d", ptr, (int)attributes->memoryType, copy.dev);
}

/* ------------------------------------------------------------------ copies */
static const char *const kind_names[] = {"HtoH", "HtoD", "DtoH", "DtoD", "Default"};

/* Queues a copy of `height` rows of `width` bytes on stream `h`; waits when `sync`. */
static hipError_t copy(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
		       size_t height, int kind, hipStream_t h, int sync, const char *what)
{
	hipError_t e;
	struct sh_stream *s;
	struct sh_op *op;
	if (kind < hipMemcpyHostToHost || kind > hipMemcpyDefault)
		return hipErrorInvalidMemcpyDirection;
	if (height > 1 && (width > dpitch || width > spitch))
		return hipErrorInvalidPitchValue;
	if (width == 0 || height == 0)
		return hipSuccess;
	if (!dst || !src)
		return hipErrorInvalidValue;
	s = sh_stream_resolve(h, &e);
	if (!s)
		return e;
	op = sh_op_new(SH_OP_COPY);
	if (!op)
		return hipErrorOutOfMemory;
	op->dst = dst;
	op->src = src;
	op->width = width;
	op->height = height;
	op->dpitch = dpitch;
	op->spitch = spitch;
	snprintf(op->label, sizeof(op->label), "%s %s %zu B", what, kind_names[kind], width * height);
	if (sync)
		sh_enqueue_wait(s, op);
	else
		sh_enqueue(s, op);
	return hipSuccess;
}

#define PT(h) ((h) ? (h) : hipStreamPerThread)

SH_EXPORT hipError_t hipMemcpy(void *dst, const void *src, size_t sizeBytes, hipMemcpyKind kind)
{
	hipError_t e;
	sh_init();
	e = copy(dst, sizeBytes, src, sizeBytes, sizeBytes, 1, kind, NULL, 1, "memcpy");
	SH_RET(e, "%p, %p, %zu, %s", dst, src, sizeBytes, kind <= 4u ? kind_names[kind] : "?");
}

SH_EXPORT hipError_t hipMemcpy_spt(void *dst, const void *src, size_t sizeBytes, hipMemcpyKind kind)
{
	hipError_t e;
	sh_init();
	e = copy(dst, sizeBytes, src, sizeBytes, sizeBytes, 1, kind, hipStreamPerThread, 1, "memcpy");
	SH_RET(e, "%p, %p, %zu, %d", dst, src, sizeBytes, (int)kind);
}

SH_EXPORT hipError_t hipMemcpyWithStream(void *dst, const void *src, size_t sizeBytes,
					 hipMemcpyKind kind, hipStream_t stream)
{
	hipError_t e;
	sh_init();
	e = copy(dst, sizeBytes, src, sizeBytes, sizeBytes, 1, kind, stream, 1, "memcpy");
	SH_RET(e, "%p, %p, %zu, %d, %p", dst, src, sizeBytes, (int)kind, (void *)stream);
}

SH_EXPORT hipError_t hipMemcpyAsync(void *dst, const void *src, size_t sizeBytes,
				    hipMemcpyKind kind, hipStream_t stream)
{
	hipError_t e;
	sh_init();
	e = copy(dst, sizeBytes, src, sizeBytes, sizeBytes, 1, kind, stream, 0, "memcpy");
	SH_RET(e, "%p, %p, %zu, %d, %p", dst, src, sizeBytes, (int)kind, (void *)stream);
}

SH_EXPORT hipError_t hipMemcpyAsync_spt(void *dst, const void *src, size_t sizeBytes,
					hipMemcpyKind kind, hipStream_t stream)
{
	hipError_t e;
	sh_init();
	e = copy(dst, sizeBytes, src, sizeBytes, sizeBytes, 1, kind, PT(stream), 0, "memcpy");
	SH_RET(e, "%p, %p, %zu, %d, %p", dst, src, sizeBytes, (int)kind, (void *)stream);
}

#define COPY_FN(name, dtype, stype, kind)                                                       \
	SH_EXPORT hipError_t name(dtype dst, stype src, size_t sizeBytes)                       \
	{                                                                                       \
		hipError_t e;                                                                   \
		sh_init();                                                                      \
		e = copy(dst, sizeBytes, src, sizeBytes, sizeBytes, 1, kind, NULL, 1, "memcpy"); \
		SH_RET(e, "%p, %p, %zu", (void *)dst, (const void *)src, sizeBytes);            \
	}                                                                                       \
	SH_EXPORT hipError_t name##Async(dtype dst, stype src, size_t sizeBytes,                \
					 hipStream_t stream)                                    \
	{                                                                                       \
		hipError_t e;                                                                   \
		sh_init();                                                                      \
		e = copy(dst, sizeBytes, src, sizeBytes, sizeBytes, 1, kind, stream, 0, "memcpy"); \
		SH_RET(e, "%p, %p, %zu, %p", (void *)dst, (const void *)src, sizeBytes,         \
		       (void *)stream);                                                         \
	}
COPY_FN(hipMemcpyHtoD, hipDeviceptr_t, void *, hipMemcpyHostToDevice)
COPY_FN(hipMemcpyDtoH, void *, hipDeviceptr_t, hipMemcpyDeviceToHost)
COPY_FN(hipMemcpyDtoD, hipDeviceptr_t, hipDeviceptr_t, hipMemcpyDeviceToDevice)
#undef COPY_FN

SH_EXPORT hipError_t hipMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch,
				 size_t width, size_t height, hipMemcpyKind kind)
{
	hipError_t e;
	sh_init();
	e = copy(dst, dpitch, src, spitch, width, height, kind, NULL, 1, "memcpy2D");
	SH_RET(e, "%p, %zu, %p, %zu, %zu, %zu, %d", dst, dpitch, src, spitch, width, height,
	       (int)kind);
}

SH_EXPORT hipError_t hipMemcpy2D_spt(void *dst, size_t dpitch, const void *src, size_t spitch,
				     size_t width, size_t height, hipMemcpyKind kind)
{
	hipError_t e;
	sh_init();
	e = copy(dst, dpitch, src, spitch, width, height, kind, hipStreamPerThread, 1, "memcpy2D");
	SH_RET(e, "%p, %zu, %p, %zu, %zu, %zu, %d", dst, dpitch, src, spitch, width, height,
	       (int)kind);
}

SH_EXPORT hipError_t hipMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
				      size_t width, size_t height, hipMemcpyKind kind,
				      hipStream_t stream)
{
	hipError_t e;
	sh_init();
	e = copy(dst, dpitch, src, spitch, width, height, kind, stream, 0, "memcpy2D");
	SH_RET(e, "%p, %zu, %p, %zu, %zu, %zu, %d, %p", dst, dpitch, src, spitch, width, height,
	       (int)kind, (void *)stream);
}

SH_EXPORT hipError_t hipMemcpyPeer(void *dst, int dstDeviceId, const void *src, int srcDeviceId,
				   size_t sizeBytes)
{
	hipError_t e;
	sh_init();
	if (!sh_valid_device(dstDeviceId) || !sh_valid_device(srcDeviceId))
		SH_RET(hipErrorInvalidDevice, "%d, %d", dstDeviceId, srcDeviceId);
	e = copy(dst, sizeBytes, src, sizeBytes, sizeBytes, 1, hipMemcpyDeviceToDevice, NULL, 1,
		 "peer");
	SH_RET(e, "%p, %d, %p, %d, %zu", dst, dstDeviceId, src, srcDeviceId, sizeBytes);
}

SH_EXPORT hipError_t hipMemcpyPeerAsync(void *dst, int dstDeviceId, const void *src,
					int srcDevice, size_t sizeBytes, hipStream_t stream)
{
	hipError_t e;
	sh_init();
	if (!sh_valid_device(dstDeviceId) || !sh_valid_device(srcDevice))
		SH_RET(hipErrorInvalidDevice, "%d, %d", dstDeviceId, srcDevice);
	e = copy(dst, sizeBytes, src, sizeBytes, sizeBytes, 1, hipMemcpyDeviceToDevice, stream, 0,
		 "peer");
	SH_RET(e, "%p, %d, %p, %d, %zu, %p", dst, dstDeviceId, src, srcDevice, sizeBytes,
	       (void *)stream);
}

/* A __device__ variable's host shadow is ordinary host memory: copy to/from it directly. */
static hipError_t to_symbol(const void *symbol, const void *src, size_t n, size_t offset,
			    hipMemcpyKind kind, hipStream_t h, int sync)
{
	if (!symbol)
		return hipErrorInvalidSymbol;
	return copy((char *)(uintptr_t)symbol + offset, n, src, n, n, 1, kind, h, sync, "toSymbol");
}

static hipError_t from_symbol(void *dst, const void *symbol, size_t n, size_t offset,
			      hipMemcpyKind kind, hipStream_t h, int sync)
{
	if (!symbol)
		return hipErrorInvalidSymbol;
	return copy(dst, n, (const char *)symbol + offset, n, n, 1, kind, h, sync, "fromSymbol");
}

SH_EXPORT hipError_t hipMemcpyToSymbol(const void *symbol, const void *src, size_t sizeBytes,
				       size_t offset, hipMemcpyKind kind)
{
	hipError_t e;
	sh_init();
	e = to_symbol(symbol, src, sizeBytes, offset, kind, NULL, 1);
	SH_RET(e, "%p, %p, %zu, %zu, %d", symbol, src, sizeBytes, offset, (int)kind);
}

SH_EXPORT hipError_t hipMemcpyToSymbol_spt(const void *symbol, const void *src, size_t sizeBytes,
					   size_t offset, hipMemcpyKind kind)
{
	hipError_t e;
	sh_init();
	e = to_symbol(symbol, src, sizeBytes, offset, kind, hipStreamPerThread, 1);
	SH_RET(e, "%p, %p, %zu, %zu, %d", symbol, src, sizeBytes, offset, (int)kind);
}

SH_EXPORT hipError_t hipMemcpyToSymbolAsync(const void *symbol, const void *src,
					    size_t sizeBytes, size_t offset, hipMemcpyKind kind,
					    hipStream_t stream)
{
	hipError_t e;
	sh_init();
	e = to_symbol(symbol, src, sizeBytes, offset, kind, stream, 0);
	SH_RET(e, "%p, %p, %zu, %zu, %d, %p", symbol, src, sizeBytes, offset, (int)kind,
	       (void *)stream);
}

SH_EXPORT hipError_t hipMemcpyFromSymbol(void *dst, const void *symbol, size_t sizeBytes,
					 size_t offset, hipMemcpyKind kind)
{
	hipError_t e;
	sh_init();
	e = from_symbol(dst, symbol, sizeBytes, offset, kind, NULL, 1);
	SH_RET(e, "%p, %p, %zu, %zu, %d", dst, symbol, sizeBytes, offset, (int)kind);
}

SH_EXPORT hipError_t hipMemcpyFromSymbol_spt(void *dst, const void *symbol, size_t sizeBytes,
					     size_t offset, hipMemcpyKind kind)
{
	hipError_t e;
	sh_init();
	e = from_symbol(dst, symbol, sizeBytes, offset, kind, hipStreamPerThread, 1);
	SH_RET(e, "%p, %p, %zu, %zu, %d", dst, symbol, sizeBytes, offset, (int)kind);
}

SH_EXPORT hipError_t hipMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t sizeBytes,
					      size_t offset, hipMemcpyKind kind, hipStream_t stream)
{
	hipError_t e;
	sh_init();
	e = from_symbol(dst, symbol, sizeBytes, offset, kind, stream, 0);
	SH_RET(e, "%p, %p, %zu, %zu, %d, %p", dst, symbol, sizeBytes, offset, (int)kind,
	       (void *)stream);
}

SH_EXPORT hipError_t hipGetSymbolAddress(void **devPtr, const void *symbol)
{
	sh_init();
	if (!devPtr || !symbol)
		SH_RET(hipErrorInvalidSymbol, "%p, %p", (void *)devPtr, symbol);
	*devPtr = (void *)(uintptr_t)symbol;
	SH_RET(hipSuccess, "%p", symbol);
}

SH_EXPORT hipError_t hipMemPrefetchAsync(const void *dev_ptr, size_t count, int device,
					 hipStream_t stream)
{
	hipError_t e;
	struct sh_stream *s;
	struct sh_op *op;
	sh_init();
	if (!dev_ptr || !count)
		SH_RET(hipErrorInvalidValue, "%p, %zu, %d, %p", dev_ptr, count, device, (void *)stream);
	s = sh_stream_resolve(stream, &e);
	if (!s)
		SH_RET(e, "%p, %zu, %d, %p", dev_ptr, count, device, (void *)stream);
	op = sh_op_new(SH_OP_NOP);
	if (!op)
		SH_RET(hipErrorOutOfMemory, "%p", dev_ptr);
	snprintf(op->label, sizeof(op->label), "prefetch %zu B", count);
	sh_enqueue(s, op);
	SH_RET(hipSuccess, "%p, %zu, %d, %p", dev_ptr, count, device, (void *)stream);
}

/* ------------------------------------------------------------------ memsets */
static hipError_t set(void *dst, size_t pitch, uint32_t value, int elem, size_t count,
		      size_t height, hipStream_t h, int sync)
{
	hipError_t e;
	struct sh_stream *s;
	struct sh_op *op;
	if (count == 0 || height == 0)
		return hipSuccess;
	if (!dst)
		return hipErrorInvalidValue;
	if (height > 1 && count * (size_t)elem > pitch)
		return hipErrorInvalidPitchValue;
	s = sh_stream_resolve(h, &e);
	if (!s)
		return e;
	op = sh_op_new(SH_OP_MEMSET);
	if (!op)
		return hipErrorOutOfMemory;
	op->dst = dst;
	op->value = value;
	op->elem = elem;
	op->width = count;
	op->height = height;
	op->dpitch = pitch;
	snprintf(op->label, sizeof(op->label), "memset %zu B", count * (size_t)elem * height);
	if (sync)
		sh_enqueue_wait(s, op);
	else
		sh_enqueue(s, op);
	return hipSuccess;
}

SH_EXPORT hipError_t hipMemset(void *dst, int value, size_t sizeBytes)
{
	hipError_t e;
	sh_init();
	e = set(dst, sizeBytes, (uint32_t)value, 1, sizeBytes, 1, NULL, 1);
	SH_RET(e, "%p, %d, %zu", dst, value, sizeBytes);
}

SH_EXPORT hipError_t hipMemset_spt(void *dst, int value, size_t sizeBytes)
{
	hipError_t e;
	sh_init();
	e = set(dst, sizeBytes, (uint32_t)value, 1, sizeBytes, 1, hipStreamPerThread, 1);
	SH_RET(e, "%p, %d, %zu", dst, value, sizeBytes);
}

SH_EXPORT hipError_t hipMemsetAsync(void *dst, int value, size_t sizeBytes, hipStream_t stream)
{
	hipError_t e;
	sh_init();
	e = set(dst, sizeBytes, (uint32_t)value, 1, sizeBytes, 1, stream, 0);
	SH_RET(e, "%p, %d, %zu, %p", dst, value, sizeBytes, (void *)stream);
}

#define MEMSET_FN(name, vtype, elem)                                                            \
	SH_EXPORT hipError_t name(hipDeviceptr_t dest, vtype value, size_t count)               \
	{                                                                                       \
		hipError_t e;                                                                   \
		sh_init();                                                                      \
		e = set(dest, count * elem, (uint32_t)value, elem, count, 1, NULL, 1);          \
		SH_RET(e, "%p, %u, %zu", dest, (unsigned)value, count);                         \
	}                                                                                       \
	SH_EXPORT hipError_t name##Async(hipDeviceptr_t dest, vtype value, size_t count,        \
					 hipStream_t stream)                                    \
	{                                                                                       \
		hipError_t e;                                                                   \
		sh_init();                                                                      \
		e = set(dest, count * elem, (uint32_t)value, elem, count, 1, stream, 0);        \
		SH_RET(e, "%p, %u, %zu, %p", dest, (unsigned)value, count, (void *)stream);     \
	}
MEMSET_FN(hipMemsetD8, unsigned char, 1)
MEMSET_FN(hipMemsetD16, unsigned short, 2)
MEMSET_FN(hipMemsetD32, int, 4)
#undef MEMSET_FN

SH_EXPORT hipError_t hipMemset2D(void *dst, size_t pitch, int value, size_t width, size_t height)
{
	hipError_t e;
	sh_init();
	e = set(dst, pitch, (uint32_t)value, 1, width, height, NULL, 1);
	SH_RET(e, "%p, %zu, %d, %zu, %zu", dst, pitch, value, width, height);
}

SH_EXPORT hipError_t hipMemset2D_spt(void *dst, size_t pitch, int value, size_t width,
				     size_t height)
{
	hipError_t e;
	sh_init();
	e = set(dst, pitch, (uint32_t)value, 1, width, height, hipStreamPerThread, 1);
	SH_RET(e, "%p, %zu, %d, %zu, %zu", dst, pitch, value, width, height);
}

SH_EXPORT hipError_t hipMemset2DAsync(void *dst, size_t pitch, int value, size_t width,
				      size_t height, hipStream_t stream)
{
	hipError_t e;
	sh_init();
	e = set(dst, pitch, (uint32_t)value, 1, width, height, stream, 0);
	SH_RET(e, "%p, %zu, %d, %zu, %zu, %p", dst, pitch, value, width, height, (void *)stream);
}
