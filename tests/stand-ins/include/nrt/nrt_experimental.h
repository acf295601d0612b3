/* nrt_experimental.h — the Neuron runtime's "experimental" API as the stand-in implements
 * it: a model's input and output tensors, its NeuronCore, and the blocking collectives
 * (Neuron SDK 2.28 prototypes). */
#ifndef STANDIN_NRT_EXPERIMENTAL_H
#define STANDIN_NRT_EXPERIMENTAL_H

#include "nrt/nrt.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum nrt_tensor_usage {
	NRT_TENSOR_USAGE_INPUT = 0,
	NRT_TENSOR_USAGE_OUTPUT,
} nrt_tensor_usage_t;

#define NRT_TENSOR_NAME_MAX 256

typedef struct nrt_tensor_info {
	char name[NRT_TENSOR_NAME_MAX];
	nrt_tensor_usage_t usage;
	size_t size;                 /* bytes */
	nrt_dtype_t dtype;
	uint32_t *shape;
	uint32_t ndim;
} nrt_tensor_info_t;

typedef struct nrt_tensor_info_array {
	uint64_t tensor_count;
	nrt_tensor_info_t tensor_array[];
} nrt_tensor_info_array_t;

/* Grows at the end in later releases: callers pass the size they know. */
typedef struct nrt_model_info {
	uint32_t vnc;
} nrt_model_info_t;

NRT_STATUS nrt_get_model_tensor_info(nrt_model_t *model, nrt_tensor_info_array_t **tensor_info);
NRT_STATUS nrt_free_model_tensor_info(nrt_tensor_info_array_t *tensor_info);
NRT_STATUS nrt_get_model_instance_count(nrt_model_t *model, uint32_t *instance_count);
NRT_STATUS nrt_get_model_info(const nrt_model_t *model, nrt_model_info_t *info, size_t info_size_in,
			      size_t *info_size_out);
NRT_STATUS nrt_barrier(int32_t vnc, uint32_t g_device_id, uint32_t g_device_count);
NRT_STATUS nrt_all_gather(int32_t vnc, uint32_t g_device_id, uint32_t g_device_count,
			  uint32_t rank_input_size, void *input, void *output);

#ifdef __cplusplus
}
#endif

#endif
