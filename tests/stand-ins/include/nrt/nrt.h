/* nrt.h — the core C API of the Neuron runtime (libnrt.so.1) as the stand-in implements it:
 * the types, enums and prototypes of the Neuron SDK 2.28 header (parameter names as there),
 * written from the fact sheet for test programs built against the stand-in.
 *
 * "vnc" is a NeuronCore index relative to the cores this process may use
 * (NEURON_RT_VISIBLE_CORES=3,4 makes physical cores 3 and 4 the indices 0 and 1). */
#ifndef STANDIN_NRT_H
#define STANDIN_NRT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nrt/nrt_status.h"
#include "nrt/nrt_version.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct nrt_model nrt_model_t;          /* opaque */
typedef struct nrt_tensor nrt_tensor_t;        /* opaque */
typedef void nrt_tensor_set_t;                 /* sets are plain void pointers */

typedef enum {
	NRT_TENSOR_PLACEMENT_DEVICE,    /* the NeuronCore's device memory (HBM) */
	NRT_TENSOR_PLACEMENT_HOST,      /* DMA-able host memory (deprecated, at most 4 MB) */
	NRT_TENSOR_PLACEMENT_VIRTUAL,   /* ordinary host memory */
} nrt_tensor_placement_t;

typedef enum {
	NRT_FRAMEWORK_TYPE_INVALID = 0,
	NRT_FRAMEWORK_TYPE_NO_FW = 1,
	NRT_FRAMEWORK_TYPE_TENSORFLOW,
	NRT_FRAMEWORK_TYPE_PYTORCH,
	NRT_FRAMEWORK_TYPE_MXNET,
	NRT_FRAMEWORK_TYPE_PRECHECK,
} nrt_framework_type_t;

typedef enum {
	NRT_DTYPE_UNKNOWN = 0x0,
	NRT_DTYPE_INVALID = 0x0,
	NRT_DTYPE_UINT64 = 0x1,
	NRT_DTYPE_INT8 = 0x2,
	NRT_DTYPE_UINT8 = 0x3,
	NRT_DTYPE_INT16 = 0x4,
	NRT_DTYPE_UINT16 = 0x5,
	NRT_DTYPE_BFLOAT16 = 0x6,
	NRT_DTYPE_FLOAT16 = 0x7,
	NRT_DTYPE_INT32 = 0x8,
	NRT_DTYPE_UINT32 = 0x9,
	NRT_DTYPE_FLOAT32 = 0xA,
	NRT_DTYPE_FP32R = 0xB,
	NRT_DTYPE_INT64 = 0xC,
	NRT_DTYPE_FP8_E3 = 0xD,
	NRT_DTYPE_FP8_E4 = 0xE,
	NRT_DTYPE_FP8_E5 = 0xF,
} nrt_dtype_t;

/* Instance families (nrt_instance_info_t.family); the values between are newer kinds. */
enum {
	NRT_INSTANCE_UNKNOWN = 0,
	NRT_INSTANCE_INF1 = 1,
	NRT_INSTANCE_TRN1 = 2,
	NRT_INSTANCE_TRN1N = 3,
	NRT_INSTANCE_INF2 = 4,
	NRT_INSTANCE_TRN2 = 5,
	NRT_INSTANCE_TRN3 = 14,
};

typedef struct nrt_instance_info {
	uint32_t family;
	uint32_t size;
	char arch_name[16];
	char device_revision[8];
} nrt_instance_info_t;

typedef struct nrt_vnc_memory_stats {
	size_t bytes_used;
	size_t bytes_limit;
} nrt_vnc_memory_stats_t;

typedef struct nrt_tensor_device_allocation_info {
	uint64_t physical_address;
	size_t size;
	int hbm_index;
} nrt_tensor_device_allocation_info_t;

typedef struct nrt_tensor_batch_op {
	uint64_t offset;
	uint64_t size;
	void *buffer;
} nrt_tensor_batch_op_t;

typedef struct nrt_tensor_batch {
	const nrt_tensor_t *tensor;
	const nrt_tensor_batch_op_t *ops;
	uint32_t num_ops;
} nrt_tensor_batch_t;

/* ---- the runtime ---------------------------------------------------------------------- */
NRT_STATUS nrt_init(nrt_framework_type_t framework, const char *fw_version, const char *fal_version);
void nrt_close(void);
NRT_STATUS nrt_get_total_nc_count(uint32_t *vnc_count);
NRT_STATUS nrt_get_total_vnc_count(uint32_t *vnc_count);
NRT_STATUS nrt_get_visible_nc_count(uint32_t *vnc_count);
NRT_STATUS nrt_get_visible_vnc_count(uint32_t *vnc_count);
NRT_STATUS nrt_get_instance_info(nrt_instance_info_t *info, size_t instance_info_len);
NRT_STATUS nrt_get_vnc_memory_stats(uint32_t vnc, nrt_vnc_memory_stats_t *stats, size_t stats_size_in,
				    size_t *stats_size_out);

/* ---- models --------------------------------------------------------------------------- */
NRT_STATUS nrt_load(const void *neff_bytes, size_t size, int32_t vnc, int32_t vnc_count,
		    nrt_model_t **model);
NRT_STATUS nrt_load_collectives(const void *neff_bytes, size_t size, int32_t vnc, int32_t vnc_count,
				uint32_t ctx_device_id, uint32_t ctx_device_count, nrt_model_t **model);
NRT_STATUS nrt_unload(nrt_model_t *model);
NRT_STATUS nrt_get_model_nc_count(const nrt_model_t *model, uint32_t *vnc_count);
NRT_STATUS nrt_get_model_vnc_count(const nrt_model_t *model, uint32_t *vnc_count);
NRT_STATUS nrt_execute(nrt_model_t *model, const nrt_tensor_set_t *input_set,
		       nrt_tensor_set_t *output_set);
NRT_STATUS nrt_execute_repeat(nrt_model_t *model, const nrt_tensor_set_t *input_set,
			      nrt_tensor_set_t *output_set, int repeat_count);

/* ---- tensor sets ---------------------------------------------------------------------- */
NRT_STATUS nrt_allocate_tensor_set(nrt_tensor_set_t **result);
void nrt_destroy_tensor_set(nrt_tensor_set_t **tensor_set);
NRT_STATUS nrt_add_tensor_to_tensor_set(nrt_tensor_set_t *tensor_set, const char *tensor_name,
					nrt_tensor_t *tensor);
NRT_STATUS nrt_get_tensor_from_tensor_set(nrt_tensor_set_t *tensor_set, const char *tensor_name,
					  nrt_tensor_t **tensor);

/* ---- tensors -------------------------------------------------------------------------- */
NRT_STATUS nrt_tensor_allocate(nrt_tensor_placement_t tensor_placement, int vnc, size_t size,
			       const char *name, nrt_tensor_t **tensor);
void nrt_tensor_free(nrt_tensor_t **tensor);
NRT_STATUS nrt_tensor_read(const nrt_tensor_t *tensor, void *buf, size_t offset, size_t size);
NRT_STATUS nrt_tensor_write(nrt_tensor_t *tensor, const void *buf, size_t offset, size_t size);
NRT_STATUS nrt_tensor_copy(const nrt_tensor_t *src, size_t src_offset, nrt_tensor_t *dst,
			   size_t dst_offset, size_t size);
NRT_STATUS nrt_tensor_read_batch(const nrt_tensor_batch_t *batches, uint64_t num_batches, bool unsafe);
NRT_STATUS nrt_tensor_write_batch(const nrt_tensor_batch_t *batches, uint64_t num_batches, bool unsafe);
size_t nrt_tensor_get_size(const nrt_tensor_t *tensor);
NRT_STATUS nrt_tensor_memset(nrt_tensor_t *tensor, uint64_t offset, int value, size_t size);
NRT_STATUS nrt_tensor_allocate_empty(const char *name, nrt_tensor_t **tensor);
NRT_STATUS nrt_tensor_attach_buffer(nrt_tensor_t *tensor, void *buffer, size_t size);
NRT_STATUS nrt_tensor_allocate_slice(const nrt_tensor_t *tensor_source, size_t offset, size_t size,
				     const char *name, nrt_tensor_t **tensor_slice);
void *nrt_tensor_get_va(const nrt_tensor_t *tensor);
NRT_STATUS nrt_tensor_get_device_allocation_info(const nrt_tensor_t *tensor,
						 nrt_tensor_device_allocation_info_t *alloc_info);

/* ---- collectives across Neuron devices (one process here) ----------------------------- */
NRT_STATUS nrt_build_global_comm(int32_t vnc, uint32_t g_device_id, uint32_t g_device_count);
NRT_STATUS nrt_cc_global_comm_init(uint32_t vnc, uint32_t g_device_id, uint32_t g_device_count);

#ifdef __cplusplus
}
#endif

#endif
