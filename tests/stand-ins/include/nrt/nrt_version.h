/* nrt_version.h — the Neuron runtime's version query (Neuron SDK 2.28 layout). */
#ifndef STANDIN_NRT_VERSION_H
#define STANDIN_NRT_VERSION_H

#include <stddef.h>
#include <stdint.h>

#include "nrt/nrt_status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RT_VERSION_DETAIL_LEN 128
#define GIT_HASH_LEN 64

typedef struct nrt_version {
	uint64_t rt_major;
	uint64_t rt_minor;
	uint64_t rt_patch;
	uint64_t rt_maintenance;
	char rt_detail[RT_VERSION_DETAIL_LEN];
	char git_hash[GIT_HASH_LEN];
} nrt_version_t;

/* Fills *ver; size is sizeof(nrt_version_t) as the caller knows it. */
NRT_STATUS nrt_get_version(nrt_version_t *ver, size_t size);

#ifdef __cplusplus
}
#endif

#endif
