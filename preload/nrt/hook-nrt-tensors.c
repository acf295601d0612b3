/* hook-nrt-tensors.c — the Neuron runtime's tensors and tensor sets: every call records the
 * tensor (handle, name, NeuronCore, placement) and the bytes it allocates, frees, reads,
 * writes, copies or sets; allocations and frees keep the tensor table, and the set calls keep
 * each set's name -> tensor map, from which an execution takes the bytes of its inputs and
 * outputs (the runtime cannot list a set).  Tensor sizes the hooks did not see come from the
 * real nrt_tensor_get_size. */
#include "hook-nrt.h"

/* The bytes of a tensor: from its entry, else from the runtime (the guard is raised). */
static uint64_t tensor_bytes(const struct tprof_nrt_tensor *e, const nrt_tensor_t *tensor)
{
	if (e)
		return e->size;
	return tensor && get_nrt_tensor_get_size() ? real_nrt_tensor_get_size(tensor) : 0;
}

/* ---- sets -------------------------------------------------------------------------------- */

TPROF_EXPORT NRT_STATUS nrt_allocate_tensor_set(nrt_tensor_set_t **set)
{
	struct tprof_thread *t = &tprof_tls;
	nrt_allocate_tensor_set_fn real = get_nrt_allocate_tensor_set();
	if (!tprof_wrapper_records(t, real))
		return real ? real(set) : NRT_NO_RUNTIME;
	struct nrt_call c_, *c = &c_;
	nrt_begin(c, t, NRT_HOOK(nrt_allocate_tensor_set), 1, TPROF_NRT_SET);
	tprof_call_enter(&c->call);
	NRT_STATUS rc = real(set);
	if (rc == NRT_SUCCESS && set && *set) {
		c->a->handle = (uint64_t)(uintptr_t)*set;
		tprof_nrt_set_add(*set);
	}
	return tprof_call_leave(&c->call, rc);
}

TPROF_EXPORT void nrt_destroy_tensor_set(nrt_tensor_set_t **set)
{
	struct tprof_thread *t = &tprof_tls;
	nrt_destroy_tensor_set_fn real = get_nrt_destroy_tensor_set();
	if (!tprof_wrapper_records(t, real)) {
		if (real)
			real(set);
		return;
	}
	struct nrt_call c_, *c = &c_;
	nrt_tensor_set_t *s = set ? *set : NULL;
	struct tprof_nrt_set *e = tprof_nrt_set_find(s);
	nrt_begin(c, t, NRT_HOOK(nrt_destroy_tensor_set), 1, TPROF_NRT_SET);
	c->a->handle = (uint64_t)(uintptr_t)s;
	if (e)
		c->a->bytes = __atomic_load_n(&e->bytes, __ATOMIC_RELAXED);
	tprof_call_enter(&c->call);
	real(set);
	/* The runtime clears the pointer of a set it destroyed. */
	if (e && set && !*set)
		tprof_nrt_set_remove(e);
	tprof_call_leave(&c->call, 0);
}

TPROF_EXPORT NRT_STATUS nrt_add_tensor_to_tensor_set(nrt_tensor_set_t *set, const char *name,
						     nrt_tensor_t *tensor)
{
	struct tprof_thread *t = &tprof_tls;
	nrt_add_tensor_to_tensor_set_fn real = get_nrt_add_tensor_to_tensor_set();
	if (!tprof_wrapper_records(t, real))
		return real ? real(set, name, tensor) : NRT_NO_RUNTIME;
	struct nrt_call c_, *c = &c_;
	nrt_begin(c, t, NRT_HOOK(nrt_add_tensor_to_tensor_set), 1, TPROF_NRT_SET);
	struct tprof_nrt_tensor *e = nrt_tensor_args(c, tensor);
	c->a->handle = (uint64_t)(uintptr_t)set;
	c->a->name = nrt_str(c, name);
	c->call.t->guard++;
	c->a->bytes = tensor_bytes(e, tensor);
	c->call.t->guard--;
	tprof_call_enter(&c->call);
	NRT_STATUS rc = real(set, name, tensor);
	if (rc == NRT_SUCCESS) {
		struct tprof_nrt_set *s = tprof_nrt_set_find(set);
		if (!s)
			s = tprof_nrt_set_add(set);
		tprof_nrt_set_put(s, name, tensor, c->a->bytes);
	}
	return tprof_call_leave(&c->call, rc);
}

TPROF_EXPORT NRT_STATUS nrt_get_tensor_from_tensor_set(nrt_tensor_set_t *set, const char *name,
						       nrt_tensor_t **tensor)
{
	struct tprof_thread *t = &tprof_tls;
	nrt_get_tensor_from_tensor_set_fn real = get_nrt_get_tensor_from_tensor_set();
	if (!tprof_wrapper_records(t, real))
		return real ? real(set, name, tensor) : NRT_NO_RUNTIME;
	struct nrt_call c_, *c = &c_;
	nrt_begin(c, t, NRT_HOOK(nrt_get_tensor_from_tensor_set), 1, TPROF_NRT_SET);
	c->a->handle = (uint64_t)(uintptr_t)set;
	c->a->name = nrt_str(c, name);
	c->a->placement = NRT_PLACEMENT_UNKNOWN;
	tprof_call_enter(&c->call);
	NRT_STATUS rc = real(set, name, tensor);
	if (rc == NRT_SUCCESS && tensor && *tensor) {
		struct tprof_nrt_tensor *e = tprof_nrt_tensor_find(*tensor);
		c->a->bytes = tensor_bytes(e, *tensor);
		if (e) {
			c->a->nc = e->nc;
			c->a->placement = e->placement;
		}
	}
	return tprof_call_leave(&c->call, rc);
}

/* ---- allocation -------------------------------------------------------------------------- */

TPROF_EXPORT NRT_STATUS nrt_tensor_allocate(int placement, int vnc, size_t size, const char *name,
					    nrt_tensor_t **tensor)
{
	struct tprof_thread *t = &tprof_tls;
	nrt_tensor_allocate_fn real = get_nrt_tensor_allocate();
	if (!tprof_wrapper_records(t, real))
		return real ? real(placement, vnc, size, name, tensor) : NRT_NO_RUNTIME;
	struct nrt_call c_, *c = &c_;
	int32_t nc = placement == NRT_TENSOR_PLACEMENT_DEVICE ? vnc : -1;
	nrt_begin(c, t, NRT_HOOK(nrt_tensor_allocate), 1, TPROF_NRT_TENSOR_ALLOC);
	c->a->bytes = size;
	c->a->placement = (uint8_t)placement;
	c->a->nc = nc;
	c->a->name = nrt_str(c, name);
	tprof_call_enter(&c->call);
	NRT_STATUS rc = real(placement, vnc, size, name, tensor);
	if (rc == NRT_SUCCESS && tensor && *tensor) {
		c->a->handle = (uint64_t)(uintptr_t)*tensor;
		tprof_nrt_tensor_add(*tensor, name, size, nc, (uint8_t)placement);
	}
	return tprof_call_leave(&c->call, rc);
}

TPROF_EXPORT void nrt_tensor_free(nrt_tensor_t **tensor)
{
	struct tprof_thread *t = &tprof_tls;
	nrt_tensor_free_fn real = get_nrt_tensor_free();
	if (!tprof_wrapper_records(t, real)) {
		if (real)
			real(tensor);
		return;
	}
	struct nrt_call c_, *c = &c_;
	nrt_tensor_t *x = tensor ? *tensor : NULL;
	nrt_begin(c, t, NRT_HOOK(nrt_tensor_free), 1, TPROF_NRT_TENSOR_FREE);
	struct tprof_nrt_tensor *e = nrt_tensor_args(c, x);
	c->a->bytes = e ? e->size : 0;
	tprof_call_enter(&c->call);
	real(tensor);
	/* The runtime clears the pointer of a tensor it freed. */
	if (e && tensor && !*tensor)
		tprof_nrt_tensor_remove(e);
	tprof_call_leave(&c->call, 0);
}

TPROF_EXPORT NRT_STATUS nrt_tensor_allocate_empty(const char *name, nrt_tensor_t **tensor)
{
	struct tprof_thread *t = &tprof_tls;
	nrt_tensor_allocate_empty_fn real = get_nrt_tensor_allocate_empty();
	if (!tprof_wrapper_records(t, real))
		return real ? real(name, tensor) : NRT_NO_RUNTIME;
	struct nrt_call c_, *c = &c_;
	nrt_begin(c, t, NRT_HOOK(nrt_tensor_allocate_empty), 1, TPROF_NRT_TENSOR_ALLOC);
	c->a->placement = NRT_TENSOR_PLACEMENT_VIRTUAL;
	c->a->name = nrt_str(c, name);
	tprof_call_enter(&c->call);
	NRT_STATUS rc = real(name, tensor);
	if (rc == NRT_SUCCESS && tensor && *tensor) {
		c->a->handle = (uint64_t)(uintptr_t)*tensor;
		tprof_nrt_tensor_add(*tensor, name, 0, -1, NRT_TENSOR_PLACEMENT_VIRTUAL);
	}
	return tprof_call_leave(&c->call, rc);
}

TPROF_EXPORT NRT_STATUS nrt_tensor_attach_buffer(nrt_tensor_t *tensor, void *buffer, size_t size)
{
	struct tprof_thread *t = &tprof_tls;
	nrt_tensor_attach_buffer_fn real = get_nrt_tensor_attach_buffer();
	if (!tprof_wrapper_records(t, real))
		return real ? real(tensor, buffer, size) : NRT_NO_RUNTIME;
	struct nrt_call c_, *c = &c_;
	nrt_begin(c, t, NRT_HOOK(nrt_tensor_attach_buffer), 1, TPROF_NRT_TENSOR_ALLOC);
	struct tprof_nrt_tensor *e = nrt_tensor_args(c, tensor);
	c->a->bytes = size;
	tprof_call_enter(&c->call);
	NRT_STATUS rc = real(tensor, buffer, size);
	if (rc == NRT_SUCCESS) {
		/* It is host memory now. */
		c->a->placement = NRT_TENSOR_PLACEMENT_VIRTUAL;
		c->a->nc = -1;
		if (e) {
			e->size = size;
			e->nc = -1;
			e->placement = NRT_TENSOR_PLACEMENT_VIRTUAL;
		}
	}
	return tprof_call_leave(&c->call, rc);
}

TPROF_EXPORT NRT_STATUS nrt_tensor_allocate_slice(const nrt_tensor_t *source, size_t offset, size_t size,
						  const char *name, nrt_tensor_t **slice)
{
	struct tprof_thread *t = &tprof_tls;
	nrt_tensor_allocate_slice_fn real = get_nrt_tensor_allocate_slice();
	if (!tprof_wrapper_records(t, real))
		return real ? real(source, offset, size, name, slice) : NRT_NO_RUNTIME;
	struct nrt_call c_, *c = &c_;
	nrt_begin(c, t, NRT_HOOK(nrt_tensor_allocate_slice), 1, TPROF_NRT_TENSOR_ALLOC);
	struct tprof_nrt_tensor *e = nrt_tensor_args(c, source);
	c->a->bytes = size;
	c->a->name = nrt_str(c, name);
	tprof_call_enter(&c->call);
	NRT_STATUS rc = real(source, offset, size, name, slice);
	if (rc == NRT_SUCCESS && slice && *slice) {
		c->a->handle = (uint64_t)(uintptr_t)*slice;
		tprof_nrt_tensor_add(*slice, name, size, e ? e->nc : -1,
				     e ? e->placement : NRT_PLACEMENT_UNKNOWN);
	}
	return tprof_call_leave(&c->call, rc);
}

/* ---- data movement ----------------------------------------------------------------------- */

#define NRT_MOVE(name, op, tensor_expr, params, ...)                                       \
	TPROF_EXPORT NRT_STATUS name params                                                \
	{                                                                                  \
		struct tprof_thread *t = &tprof_tls;                                       \
		name##_fn real = get_##name();                                             \
		if (!tprof_wrapper_records(t, real))                                       \
			return real ? real(__VA_ARGS__) : NRT_NO_RUNTIME;                  \
		struct nrt_call c_, *c = &c_;                                              \
		nrt_begin(c, t, NRT_HOOK(name), 1, op);                                    \
		nrt_tensor_args(c, tensor_expr);                                           \
		c->a->bytes = size;                                                        \
		tprof_call_enter(&c->call);                                               \
		return tprof_call_leave(&c->call, real(__VA_ARGS__));                     \
	}

NRT_MOVE(nrt_tensor_read, TPROF_NRT_TENSOR_READ, tensor,
	 (const nrt_tensor_t *tensor, void *buf, size_t offset, size_t size), tensor, buf, offset, size)
NRT_MOVE(nrt_tensor_write, TPROF_NRT_TENSOR_WRITE, tensor,
	 (nrt_tensor_t *tensor, const void *buf, size_t offset, size_t size), tensor, buf, offset, size)
NRT_MOVE(nrt_tensor_memset, TPROF_NRT_TENSOR_MEMSET, tensor,
	 (nrt_tensor_t *tensor, uint64_t offset, int value, size_t size), tensor, offset, value, size)
/* A copy is recorded with its source tensor. */
NRT_MOVE(nrt_tensor_copy, TPROF_NRT_TENSOR_COPY, src,
	 (const nrt_tensor_t *src, size_t src_offset, nrt_tensor_t *dst, size_t dst_offset, size_t size),
	 src, src_offset, dst, dst_offset, size)

/* Batches: the bytes of every operation; the tensor of the first batch. */
static uint64_t batch_bytes(const nrt_tensor_batch_t *b, uint64_t n)
{
	uint64_t total = 0;
	for (uint64_t i = 0; b && i < n; i++)
		for (uint32_t k = 0; b[i].ops && k < b[i].num_ops; k++)
			total += b[i].ops[k].size;
	return total;
}

#define NRT_BATCH(name, op)                                                                \
	TPROF_EXPORT NRT_STATUS name(const nrt_tensor_batch_t *batches, uint64_t n, bool unsafe) \
	{                                                                                  \
		struct tprof_thread *t = &tprof_tls;                                       \
		name##_fn real = get_##name();                                             \
		if (!tprof_wrapper_records(t, real))                                       \
			return real ? real(batches, n, unsafe) : NRT_NO_RUNTIME;           \
		struct nrt_call c_, *c = &c_;                                              \
		nrt_begin(c, t, NRT_HOOK(name), 1, op);                                    \
		nrt_tensor_args(c, batches && n ? batches[0].tensor : NULL);               \
		c->a->bytes = batch_bytes(batches, n);                                     \
		tprof_call_enter(&c->call);                                               \
		return tprof_call_leave(&c->call, real(batches, n, unsafe));              \
	}

NRT_BATCH(nrt_tensor_read_batch, TPROF_NRT_TENSOR_READ)
NRT_BATCH(nrt_tensor_write_batch, TPROF_NRT_TENSOR_WRITE)

/* ---- queries ----------------------------------------------------------------------------- */

TPROF_EXPORT size_t nrt_tensor_get_size(const nrt_tensor_t *tensor)
{
	struct tprof_thread *t = &tprof_tls;
	nrt_tensor_get_size_fn real = get_nrt_tensor_get_size();
	if (TPROF_UNLIKELY(!real))
		return 0;
	if (!tprof_should_record(t))
		return real(tensor);
	struct nrt_call c_, *c = &c_;
	nrt_begin(c, t, NRT_HOOK(nrt_tensor_get_size), 1, TPROF_NRT_OTHER);
	nrt_tensor_args(c, tensor);
	tprof_call_enter(&c->call);
	size_t n = real(tensor);
	c->a->bytes = n;
	tprof_call_leave(&c->call, 0);
	return n;
}

TPROF_EXPORT void *nrt_tensor_get_va(const nrt_tensor_t *tensor)
{
	struct tprof_thread *t = &tprof_tls;
	nrt_tensor_get_va_fn real = get_nrt_tensor_get_va();
	if (TPROF_UNLIKELY(!real))
		return NULL;
	if (!tprof_should_record(t))
		return real(tensor);
	struct nrt_call c_, *c = &c_;
	nrt_begin(c, t, NRT_HOOK(nrt_tensor_get_va), 1, TPROF_NRT_OTHER);
	struct tprof_nrt_tensor *e = nrt_tensor_args(c, tensor);
	c->a->bytes = e ? e->size : 0;
	tprof_call_enter(&c->call);
	void *va = real(tensor);
	tprof_call_leave(&c->call, 0);
	return va;
}

TPROF_EXPORT NRT_STATUS nrt_tensor_get_device_allocation_info(const nrt_tensor_t *tensor,
							      nrt_tensor_device_allocation_info_t *info)
{
	struct tprof_thread *t = &tprof_tls;
	nrt_tensor_get_device_allocation_info_fn real = get_nrt_tensor_get_device_allocation_info();
	if (!tprof_wrapper_records(t, real))
		return real ? real(tensor, info) : NRT_NO_RUNTIME;
	struct nrt_call c_, *c = &c_;
	nrt_begin(c, t, NRT_HOOK(nrt_tensor_get_device_allocation_info), 1, TPROF_NRT_OTHER);
	struct tprof_nrt_tensor *e = nrt_tensor_args(c, tensor);
	c->a->bytes = e ? e->size : 0;
	tprof_call_enter(&c->call);
	return tprof_call_leave(&c->call, real(tensor, info));
}
