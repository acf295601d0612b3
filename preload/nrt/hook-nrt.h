/* hook-nrt.h — the Neuron runtime (libnrt.so.1) functions tprof wraps, listed once as data,
 * and the types they need, declared here with the layouts of the Neuron SDK 2.28 headers so
 * that the recorder builds without them and works with whichever libnrt the program loads.
 *
 * Q entries get a generated wrapper recording a query (TPROF_NRT_OTHER, nothing else); QM
 * entries a generated one recording a query about the model given first (its handle, name
 * and NeuronCore); H entries are written by hand in hook-nrt.c.  Every one records one CALL
 * with flags TPROF_DOM_NRT, struct tprof_nrt_args (and struct tprof_nrt_exec for executions),
 * the NRT_STATUS returned in the CALL's return code. */
#ifndef TPROF_HOOK_NRT_H
#define TPROF_HOOK_NRT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <string.h>

#include "../events/api.h"
#include "../spool/intern.h"
#include "nrt-objects.h"
#include "../core/resolve.h"

typedef int NRT_STATUS;                 /* enum NRT_STATUS */
typedef struct nrt_model nrt_model_t;
typedef struct nrt_tensor nrt_tensor_t;
typedef void nrt_tensor_set_t;
typedef struct nrt_tensor_info_array nrt_tensor_info_array_t;
typedef struct nrt_vnc_memory_stats nrt_vnc_memory_stats_t;
typedef struct nrt_tensor_device_allocation_info nrt_tensor_device_allocation_info_t;

typedef struct {
	uint64_t rt_major, rt_minor, rt_patch, rt_maintenance;
	char rt_detail[128];
	char git_hash[64];
} nrt_version_t;

typedef struct {
	uint32_t family;
	uint32_t size;
	char arch_name[16];
	char device_revision[8];
} nrt_instance_info_t;

typedef struct {
	uint32_t vnc;
} nrt_model_info_t;

typedef struct {
	uint64_t offset;
	uint64_t size;
	void *buffer;
} nrt_tensor_batch_op_t;

typedef struct {
	const nrt_tensor_t *tensor;
	const nrt_tensor_batch_op_t *ops;
	uint32_t num_ops;
} nrt_tensor_batch_t;

enum {
	NRT_SUCCESS = 0,
	NRT_FAILURE = 1,
	NRT_TENSOR_PLACEMENT_DEVICE = 0,
	NRT_TENSOR_PLACEMENT_HOST = 1,
	NRT_TENSOR_PLACEMENT_VIRTUAL = 2,
	NRT_NEFF_HEADER = 1024,         /* the NEFF header; the model name is at 220 */
	NRT_NEFF_NAME_AT = 220,
	NRT_NEFF_NAME_LEN = 256,
};

/* What a wrapper returns when the runtime itself is missing (found only by probing). */
#define NRT_NO_RUNTIME NRT_FAILURE

/* X(kind, return type, name, parameters, arguments) */
#define NRT_API(X)                                                                             \
	/* the runtime */                                                                      \
	X(H, NRT_STATUS, nrt_init, (int framework, const char *fw_version, const char *fal_version), \
	  (framework, fw_version, fal_version))                                                \
	X(H, void, nrt_close, (void), ())                                                      \
	X(Q, NRT_STATUS, nrt_get_version, (nrt_version_t *ver, size_t size), (ver, size))      \
	X(Q, NRT_STATUS, nrt_get_total_nc_count, (uint32_t *vnc_count), (vnc_count))           \
	X(Q, NRT_STATUS, nrt_get_total_vnc_count, (uint32_t *vnc_count), (vnc_count))          \
	X(Q, NRT_STATUS, nrt_get_visible_nc_count, (uint32_t *vnc_count), (vnc_count))         \
	X(Q, NRT_STATUS, nrt_get_visible_vnc_count, (uint32_t *vnc_count), (vnc_count))        \
	X(Q, NRT_STATUS, nrt_get_instance_info, (nrt_instance_info_t *info, size_t len), (info, len)) \
	X(H, NRT_STATUS, nrt_get_vnc_memory_stats, (uint32_t vnc, nrt_vnc_memory_stats_t *stats, \
						    size_t in, size_t *out), (vnc, stats, in, out)) \
	X(H, const char *, nrt_get_status_as_str, (NRT_STATUS status), (status))               \
	/* models */                                                                           \
	X(H, NRT_STATUS, nrt_load, (const void *neff, size_t size, int32_t vnc, int32_t vnc_count, \
				    nrt_model_t **model), (neff, size, vnc, vnc_count, model)) \
	X(H, NRT_STATUS, nrt_load_collectives, (const void *neff, size_t size, int32_t vnc,    \
						int32_t vnc_count, uint32_t device_id,         \
						uint32_t device_count, nrt_model_t **model),   \
	  (neff, size, vnc, vnc_count, device_id, device_count, model))                        \
	X(H, NRT_STATUS, nrt_unload, (nrt_model_t *model), (model))                            \
	X(QM, NRT_STATUS, nrt_get_model_nc_count, (const nrt_model_t *model, uint32_t *n), (model, n)) \
	X(QM, NRT_STATUS, nrt_get_model_vnc_count, (const nrt_model_t *model, uint32_t *n), (model, n)) \
	X(QM, NRT_STATUS, nrt_get_model_instance_count, (nrt_model_t *model, uint32_t *n), (model, n)) \
	X(QM, NRT_STATUS, nrt_get_model_info, (const nrt_model_t *model, nrt_model_info_t *info, \
					       size_t in, size_t *out), (model, info, in, out)) \
	X(QM, NRT_STATUS, nrt_get_model_tensor_info, (nrt_model_t *model,                      \
						      nrt_tensor_info_array_t **info), (model, info)) \
	X(Q, NRT_STATUS, nrt_free_model_tensor_info, (nrt_tensor_info_array_t *info), (info))  \
	X(H, NRT_STATUS, nrt_execute, (nrt_model_t *model, const nrt_tensor_set_t *in,         \
				       nrt_tensor_set_t *out), (model, in, out))               \
	X(H, NRT_STATUS, nrt_execute_repeat, (nrt_model_t *model, const nrt_tensor_set_t *in,  \
					      nrt_tensor_set_t *out, int repeat),              \
	  (model, in, out, repeat))                                                            \
	/* tensor sets */                                                                      \
	X(H, NRT_STATUS, nrt_allocate_tensor_set, (nrt_tensor_set_t **set), (set))             \
	X(H, void, nrt_destroy_tensor_set, (nrt_tensor_set_t **set), (set))                    \
	X(H, NRT_STATUS, nrt_add_tensor_to_tensor_set, (nrt_tensor_set_t *set, const char *name, \
							nrt_tensor_t *tensor), (set, name, tensor)) \
	X(H, NRT_STATUS, nrt_get_tensor_from_tensor_set, (nrt_tensor_set_t *set, const char *name, \
							  nrt_tensor_t **tensor), (set, name, tensor)) \
	/* tensors */                                                                          \
	X(H, NRT_STATUS, nrt_tensor_allocate, (int placement, int vnc, size_t size, const char *name, \
					       nrt_tensor_t **tensor), (placement, vnc, size, name, tensor)) \
	X(H, void, nrt_tensor_free, (nrt_tensor_t **tensor), (tensor))                         \
	X(H, NRT_STATUS, nrt_tensor_read, (const nrt_tensor_t *tensor, void *buf, size_t offset, \
					   size_t size), (tensor, buf, offset, size))          \
	X(H, NRT_STATUS, nrt_tensor_write, (nrt_tensor_t *tensor, const void *buf, size_t offset, \
					    size_t size), (tensor, buf, offset, size))         \
	X(H, NRT_STATUS, nrt_tensor_copy, (const nrt_tensor_t *src, size_t src_offset,         \
					   nrt_tensor_t *dst, size_t dst_offset, size_t size), \
	  (src, src_offset, dst, dst_offset, size))                                            \
	X(H, NRT_STATUS, nrt_tensor_memset, (nrt_tensor_t *tensor, uint64_t offset, int value, \
					     size_t size), (tensor, offset, value, size))      \
	X(H, NRT_STATUS, nrt_tensor_read_batch, (const nrt_tensor_batch_t *batches, uint64_t n, \
						 bool unsafe), (batches, n, unsafe))           \
	X(H, NRT_STATUS, nrt_tensor_write_batch, (const nrt_tensor_batch_t *batches, uint64_t n, \
						  bool unsafe), (batches, n, unsafe))          \
	X(H, size_t, nrt_tensor_get_size, (const nrt_tensor_t *tensor), (tensor))              \
	X(H, void *, nrt_tensor_get_va, (const nrt_tensor_t *tensor), (tensor))                \
	X(H, NRT_STATUS, nrt_tensor_get_device_allocation_info, (const nrt_tensor_t *tensor,   \
		nrt_tensor_device_allocation_info_t *info), (tensor, info))                    \
	X(H, NRT_STATUS, nrt_tensor_allocate_empty, (const char *name, nrt_tensor_t **tensor), \
	  (name, tensor))                                                                      \
	X(H, NRT_STATUS, nrt_tensor_attach_buffer, (nrt_tensor_t *tensor, void *buffer, size_t size), \
	  (tensor, buffer, size))                                                              \
	X(H, NRT_STATUS, nrt_tensor_allocate_slice, (const nrt_tensor_t *source, size_t offset, \
						     size_t size, const char *name,            \
						     nrt_tensor_t **slice),                    \
	  (source, offset, size, name, slice))                                                 \
	/* collectives across devices */                                                       \
	X(H, NRT_STATUS, nrt_barrier, (int32_t vnc, uint32_t device_id, uint32_t device_count), \
	  (vnc, device_id, device_count))                                                      \
	X(H, NRT_STATUS, nrt_all_gather, (int32_t vnc, uint32_t device_id, uint32_t device_count, \
					  uint32_t rank_input_size, void *input, void *output), \
	  (vnc, device_id, device_count, rank_input_size, input, output))                      \
	X(H, NRT_STATUS, nrt_build_global_comm, (int32_t vnc, uint32_t device_id,              \
						 uint32_t device_count), (vnc, device_id, device_count)) \
	X(H, NRT_STATUS, nrt_cc_global_comm_init, (uint32_t vnc, uint32_t device_id,           \
						   uint32_t device_count), (vnc, device_id, device_count))

/* The real definitions, found on first use; the wrappers' prototypes. */
#define NRT_DECLARE(kind, ret, name, params, args)                                        \
	TPROF_REAL_EXTERN(ret, name, params, tprof_resolve)                                \
	TPROF_EXPORT ret name params;
NRT_API(NRT_DECLARE)
#undef NRT_DECLARE

#define NRT_INDEX(kind, ret, name, params, args) NRTH_##name,
enum nrt_hook_index {
	NRT_API(NRT_INDEX)
	NRTH_COUNT
};
#undef NRT_INDEX

extern struct tprof_hook tprof_nrt_hooks[];
#define NRT_HOOK(name) (&tprof_nrt_hooks[NRTH_##name])

/* ---- one recorded call -------------------------------------------------------------------- */

/* An NRT call being recorded (struct tprof_call, events/api.h): its arguments go to `a`, in the
 * CALL record or scratch space. */
struct nrt_call {
	struct tprof_call call;
	struct tprof_nrt_args *a;
};

#define NRT_PLACEMENT_UNKNOWN 0xff      /* a tensor the hooks never saw allocated */

/* Reserves the CALL with `ext` units (2 for executions): `op`, no NeuronCore yet. */
static inline void nrt_begin(struct nrt_call *c, struct tprof_thread *t, struct tprof_hook *h,
			     unsigned ext, uint16_t op)
{
	void *u[1];
	tprof_call_begin(&c->call, t, h, ext, 1, u);
	c->call.corr = 0;
	c->a = u[0];
	c->a->op = op;
	c->a->nc = -1;
}

/* A string id for a recorded call (whose record started the image), else 0. */
static inline uint32_t nrt_str(struct nrt_call *c, const char *s)
{
	return c->call.r && s && *s ? tprof_string_id(c->call.t, s) : 0;
}

/* The model's handle, name and NeuronCore into the call; its entry, or NULL. */
static inline struct tprof_nrt_model *nrt_model_args(struct nrt_call *c, const void *model)
{
	struct tprof_nrt_model *m = tprof_nrt_model_find(model);
	c->a->handle = (uint64_t)(uintptr_t)model;
	if (m) {
		c->a->nc = m->nc;
		if (c->call.r)
			c->a->name = tprof_nrt_name(&m->id, m->name);
	}
	return m;
}

/* The tensor's handle, name, NeuronCore and placement into the call; its entry, or NULL. */
static inline struct tprof_nrt_tensor *nrt_tensor_args(struct nrt_call *c, const void *tensor)
{
	struct tprof_nrt_tensor *e = tprof_nrt_tensor_find(tensor);
	c->a->handle = (uint64_t)(uintptr_t)tensor;
	c->a->placement = e ? e->placement : NRT_PLACEMENT_UNKNOWN;
	if (e) {
		c->a->nc = e->nc;
		if (c->call.r)
			c->a->name = tprof_nrt_name(&e->id, e->name);
	}
	return e;
}

#endif
