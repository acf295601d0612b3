/* tensors.c — tensors that really hold data: device placement is host memory of the stand-in
 * charged to its NeuronCore (STANDIN_NRT_HBM_MB each), host placements are plain host memory;
 * reads, writes, copies and memsets move bytes, bounds-checked; slices share their parent's
 * memory; an empty tensor gets the caller's buffer attached.  Every call is under sn_lock. */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HOST_PLACEMENT_MAX ((size_t)4 << 20)   /* NRT_TENSOR_PLACEMENT_HOST: at most 4 MB */

static int in_bounds(const nrt_tensor_t *t, uint64_t offset, uint64_t size)
{
	return t->buf && offset <= t->size && size <= t->size - offset;
}

/* Under sn_lock: NRT_SUCCESS when the runtime is up and t a live tensor. */
static NRT_STATUS check(const char *what, const nrt_tensor_t *t)
{
	NRT_STATUS rc = sn_ready();
	if (rc == NRT_SUCCESS && !sn_handle_is(t, SN_TENSOR))
		rc = sn_fail(NRT_INVALID_HANDLE, "%s: %p is no tensor", what, (const void *)t);
	return rc;
}

static nrt_tensor_t *new_tensor(const char *name)
{
	nrt_tensor_t *t = calloc(1, sizeof(*t));
	if (t && sn_handle_add(t, SN_TENSOR) < 0) {
		free(t);
		return NULL;
	}
	if (t) {
		t->vnc = -1;
		t->placement = NRT_TENSOR_PLACEMENT_VIRTUAL;
		snprintf(t->name, sizeof(t->name), "%s", name ? name : "");
	}
	return t;
}

SN_EXPORT NRT_STATUS nrt_tensor_allocate(nrt_tensor_placement_t tensor_placement, int vnc, size_t size,
					 const char *name, nrt_tensor_t **tensor)
{
	if (!tensor || !size)
		return sn_fail(NRT_INVALID, "nrt_tensor_allocate: %zu bytes", size);
	pthread_mutex_lock(&sn_lock);
	NRT_STATUS rc = sn_ready();
	int device = tensor_placement == NRT_TENSOR_PLACEMENT_DEVICE;
	if (rc == NRT_SUCCESS && (unsigned)tensor_placement > NRT_TENSOR_PLACEMENT_VIRTUAL)
		rc = sn_fail(NRT_INVALID, "nrt_tensor_allocate: placement %d", (int)tensor_placement);
	else if (rc == NRT_SUCCESS && device && (vnc < 0 || vnc >= sn.nvisible))
		rc = sn_fail(NRT_INVALID, "nrt_tensor_allocate: no NeuronCore %d", vnc);
	else if (rc == NRT_SUCCESS && device && size > sn_cfg.hbm_bytes - sn.hbm_used[vnc])
		rc = sn_fail(NRT_RESOURCE, "nrt_tensor_allocate: %zu bytes on NeuronCore %d", size, vnc);
	else if (rc == NRT_SUCCESS && tensor_placement == NRT_TENSOR_PLACEMENT_HOST &&
		 size > HOST_PLACEMENT_MAX)
		rc = sn_fail(NRT_RESOURCE, "nrt_tensor_allocate: %zu bytes of host placement", size);
	struct sn_buffer *b = NULL;
	nrt_tensor_t *t = NULL;
	if (rc == NRT_SUCCESS) {
		b = calloc(1, sizeof(*b));
		if (b)
			b->data = calloc(1, size);
		t = b && b->data ? new_tensor(name) : NULL;
		if (!t) {
			if (b)
				free(b->data);
			free(b);
			rc = NRT_RESOURCE;
		}
	}
	if (rc == NRT_SUCCESS) {
		b->size = size;
		b->refs = 1;
		b->owned = 1;
		b->vnc = device ? vnc : -1;
		if (device)
			sn.hbm_used[vnc] += size;
		t->placement = tensor_placement;
		t->vnc = device ? vnc : -1;
		t->size = size;
		t->buf = b;
		*tensor = t;
	}
	pthread_mutex_unlock(&sn_lock);
	return rc;
}

SN_EXPORT void nrt_tensor_free(nrt_tensor_t **tensor)
{
	if (!tensor)
		return;
	pthread_mutex_lock(&sn_lock);
	nrt_tensor_t *t = *tensor;
	if (sn_handle_is(t, SN_TENSOR)) {
		struct sn_buffer *b = t->buf;
		if (b && --b->refs == 0) {
			if (b->vnc >= 0)
				sn.hbm_used[b->vnc] -= b->size;
			if (b->owned)
				free(b->data);
			free(b);
		}
		sn_handle_del(t);
		free(t);
		*tensor = NULL;
	}
	pthread_mutex_unlock(&sn_lock);
}

SN_EXPORT NRT_STATUS nrt_tensor_read(const nrt_tensor_t *tensor, void *buf, size_t offset, size_t size)
{
	pthread_mutex_lock(&sn_lock);
	NRT_STATUS rc = check("nrt_tensor_read", tensor);
	if (rc == NRT_SUCCESS && (!buf || !in_bounds(tensor, offset, size)))
		rc = sn_fail(NRT_INVALID, "nrt_tensor_read: %zu bytes at %zu of %zu", size, offset,
			     tensor->size);
	if (rc == NRT_SUCCESS)
		memcpy(buf, sn_tensor_data(tensor) + offset, size);
	pthread_mutex_unlock(&sn_lock);
	return rc;
}

SN_EXPORT NRT_STATUS nrt_tensor_write(nrt_tensor_t *tensor, const void *buf, size_t offset, size_t size)
{
	pthread_mutex_lock(&sn_lock);
	NRT_STATUS rc = check("nrt_tensor_write", tensor);
	if (rc == NRT_SUCCESS && (!buf || !in_bounds(tensor, offset, size)))
		rc = sn_fail(NRT_INVALID, "nrt_tensor_write: %zu bytes at %zu of %zu", size, offset,
			     tensor->size);
	if (rc == NRT_SUCCESS)
		memcpy(sn_tensor_data(tensor) + offset, buf, size);
	pthread_mutex_unlock(&sn_lock);
	return rc;
}

SN_EXPORT NRT_STATUS nrt_tensor_copy(const nrt_tensor_t *src, size_t src_offset, nrt_tensor_t *dst,
				     size_t dst_offset, size_t size)
{
	pthread_mutex_lock(&sn_lock);
	NRT_STATUS rc = check("nrt_tensor_copy", src);
	if (rc == NRT_SUCCESS)
		rc = check("nrt_tensor_copy", dst);
	if (rc == NRT_SUCCESS && (!in_bounds(src, src_offset, size) || !in_bounds(dst, dst_offset, size)))
		rc = sn_fail(NRT_INVALID, "nrt_tensor_copy: %zu bytes out of bounds", size);
	if (rc == NRT_SUCCESS && src->placement == NRT_TENSOR_PLACEMENT_DEVICE &&
	    dst->placement == NRT_TENSOR_PLACEMENT_DEVICE && src->vnc != dst->vnc)
		rc = sn_fail(NRT_INVALID, "nrt_tensor_copy: from NeuronCore %d to %d", src->vnc, dst->vnc);
	if (rc == NRT_SUCCESS)
		memmove(sn_tensor_data(dst) + dst_offset, sn_tensor_data(src) + src_offset, size);
	pthread_mutex_unlock(&sn_lock);
	return rc;
}

SN_EXPORT NRT_STATUS nrt_tensor_memset(nrt_tensor_t *tensor, uint64_t offset, int value, size_t size)
{
	pthread_mutex_lock(&sn_lock);
	NRT_STATUS rc = check("nrt_tensor_memset", tensor);
	if (rc == NRT_SUCCESS && !in_bounds(tensor, offset, size))
		rc = sn_fail(NRT_INVALID, "nrt_tensor_memset: %zu bytes out of bounds", size);
	if (rc == NRT_SUCCESS)
		memset(sn_tensor_data(tensor) + offset, value, size);
	pthread_mutex_unlock(&sn_lock);
	return rc;
}

/* Every operation is checked before any is done. */
static NRT_STATUS batch(const char *what, const nrt_tensor_batch_t *batches, uint64_t n, int write)
{
	if (!batches && n)
		return sn_fail(NRT_INVALID, "%s: no batches", what);
	pthread_mutex_lock(&sn_lock);
	NRT_STATUS rc = sn_ready();
	for (uint64_t i = 0; rc == NRT_SUCCESS && i < n; i++) {
		const nrt_tensor_batch_t *b = &batches[i];
		rc = check(what, b->tensor);
		for (uint32_t k = 0; rc == NRT_SUCCESS && k < b->num_ops; k++)
			if (!b->ops || !b->ops[k].buffer || !in_bounds(b->tensor, b->ops[k].offset, b->ops[k].size))
				rc = sn_fail(NRT_INVALID, "%s: operation %u of batch %llu", what, k,
					     (unsigned long long)i);
	}
	for (uint64_t i = 0; rc == NRT_SUCCESS && i < n; i++) {
		const nrt_tensor_batch_t *b = &batches[i];
		char *data = sn_tensor_data(b->tensor);
		for (uint32_t k = 0; k < b->num_ops; k++) {
			const nrt_tensor_batch_op_t *op = &b->ops[k];
			if (write)
				memcpy(data + op->offset, op->buffer, op->size);
			else
				memcpy(op->buffer, data + op->offset, op->size);
		}
	}
	pthread_mutex_unlock(&sn_lock);
	return rc;
}

SN_EXPORT NRT_STATUS nrt_tensor_read_batch(const nrt_tensor_batch_t *batches, uint64_t num_batches,
					   bool unsafe)
{
	(void)unsafe;
	return batch("nrt_tensor_read_batch", batches, num_batches, 0);
}

SN_EXPORT NRT_STATUS nrt_tensor_write_batch(const nrt_tensor_batch_t *batches, uint64_t num_batches,
					    bool unsafe)
{
	(void)unsafe;
	return batch("nrt_tensor_write_batch", batches, num_batches, 1);
}

SN_EXPORT size_t nrt_tensor_get_size(const nrt_tensor_t *tensor)
{
	pthread_mutex_lock(&sn_lock);
	size_t n = sn_handle_is(tensor, SN_TENSOR) ? tensor->size : 0;
	pthread_mutex_unlock(&sn_lock);
	return n;
}

SN_EXPORT void *nrt_tensor_get_va(const nrt_tensor_t *tensor)
{
	pthread_mutex_lock(&sn_lock);
	void *va = sn_handle_is(tensor, SN_TENSOR) ? sn_tensor_data(tensor) : NULL;
	pthread_mutex_unlock(&sn_lock);
	return va;
}

SN_EXPORT NRT_STATUS nrt_tensor_get_device_allocation_info(const nrt_tensor_t *tensor,
							   nrt_tensor_device_allocation_info_t *alloc_info)
{
	pthread_mutex_lock(&sn_lock);
	NRT_STATUS rc = check("nrt_tensor_get_device_allocation_info", tensor);
	if (rc == NRT_SUCCESS && (!alloc_info || tensor->placement != NRT_TENSOR_PLACEMENT_DEVICE))
		rc = sn_fail(NRT_INVALID, "nrt_tensor_get_device_allocation_info: not a device tensor");
	if (rc == NRT_SUCCESS) {
		alloc_info->physical_address = (uint64_t)(uintptr_t)sn_tensor_data(tensor);
		alloc_info->size = tensor->size;
		alloc_info->hbm_index = sn.visible[tensor->vnc];
	}
	pthread_mutex_unlock(&sn_lock);
	return rc;
}

SN_EXPORT NRT_STATUS nrt_tensor_allocate_empty(const char *name, nrt_tensor_t **tensor)
{
	if (!tensor)
		return NRT_INVALID;
	pthread_mutex_lock(&sn_lock);
	NRT_STATUS rc = sn_ready();
	nrt_tensor_t *t = rc == NRT_SUCCESS ? new_tensor(name) : NULL;
	if (rc == NRT_SUCCESS && !t)
		rc = NRT_RESOURCE;
	if (t)
		*tensor = t;
	pthread_mutex_unlock(&sn_lock);
	return rc;
}

SN_EXPORT NRT_STATUS nrt_tensor_attach_buffer(nrt_tensor_t *tensor, void *buffer, size_t size)
{
	pthread_mutex_lock(&sn_lock);
	NRT_STATUS rc = check("nrt_tensor_attach_buffer", tensor);
	if (rc == NRT_SUCCESS && (tensor->buf || !buffer || !size))
		rc = sn_fail(NRT_INVALID, "nrt_tensor_attach_buffer: %s", tensor->buf ?
			     "the tensor has memory already" : "no buffer");
	struct sn_buffer *b = rc == NRT_SUCCESS ? calloc(1, sizeof(*b)) : NULL;
	if (rc == NRT_SUCCESS && !b)
		rc = NRT_RESOURCE;
	if (b) {
		b->data = buffer;
		b->size = size;
		b->refs = 1;
		b->vnc = -1;
		tensor->buf = b;
		tensor->size = size;
		tensor->offset = 0;
		tensor->placement = NRT_TENSOR_PLACEMENT_VIRTUAL;
		tensor->vnc = -1;
	}
	pthread_mutex_unlock(&sn_lock);
	return rc;
}

SN_EXPORT NRT_STATUS nrt_tensor_allocate_slice(const nrt_tensor_t *tensor_source, size_t offset,
					       size_t size, const char *name, nrt_tensor_t **tensor_slice)
{
	if (!tensor_slice)
		return NRT_INVALID;
	pthread_mutex_lock(&sn_lock);
	NRT_STATUS rc = check("nrt_tensor_allocate_slice", tensor_source);
	if (rc == NRT_SUCCESS && (!size || !in_bounds(tensor_source, offset, size)))
		rc = sn_fail(NRT_INVALID, "nrt_tensor_allocate_slice: %zu bytes at %zu of %zu", size,
			     offset, tensor_source->size);
	nrt_tensor_t *t = rc == NRT_SUCCESS ? new_tensor(name) : NULL;
	if (rc == NRT_SUCCESS && !t)
		rc = NRT_RESOURCE;
	if (t) {
		t->placement = tensor_source->placement;
		t->vnc = tensor_source->vnc;
		t->size = size;
		t->offset = tensor_source->offset + offset;
		t->buf = tensor_source->buf;
		t->buf->refs++;
		*tensor_slice = t;
	}
	pthread_mutex_unlock(&sn_lock);
	return rc;
}
