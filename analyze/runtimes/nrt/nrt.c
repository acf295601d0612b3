/* nrt.c — NRT calls decoded for the outputs: the extension units of a CALL of domain
 * TPROF_DOM_NRT made into struct nrt_info (string ids mapped trace-wide, an unnamed model
 * named by its handle), NRT_STATUS and placement names as nrt_status.h and nrt.h spell them,
 * and the NeuronCores a call occupies, so that Chrome, OTF2 and the summary agree on what
 * goes on a NeuronCore. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "nrt.h"

#define MAX_CORES 64   /* more than a trn2 node's 64 logical cores is a bad record */

void nrt_decode(const struct proc *p, const uint8_t *ext, unsigned next, struct nrt_info *ni)
{
	memset(ni, 0, sizeof(*ni));
	ni->a.nc = -1;
	if (next < 1)
		return;
	memcpy(&ni->a, ext, sizeof(ni->a));
	ni->a.name = ni->a.name ? proc_string(p, ni->a.name) : 0;
	if (next >= 2 && ni->a.op == TPROF_NRT_EXECUTE) {
		memcpy(&ni->x, ext + TPROF_UNIT, sizeof(ni->x));
		ni->has_exec = 1;
	}
	if (ni->a.op == TPROF_NRT_LOAD || ni->a.op == TPROF_NRT_UNLOAD || ni->a.op == TPROF_NRT_EXECUTE) {
		if (ni->a.name) {
			ni->model = ni->a.name;
		} else if (ni->a.handle) {
			char buf[40];
			int n = snprintf(buf, sizeof(buf), "model 0x%" PRIx64, ni->a.handle);
			ni->model = strings_add(buf, (size_t)n);
		}
	}
}

const char *nrt_status_name(int status)
{
	static const struct {
		int v;
		const char *name;
	} names[] = {
		{ 0, "NRT_SUCCESS" },
		{ 1, "NRT_FAILURE" },
		{ 2, "NRT_INVALID" },
		{ 3, "NRT_INVALID_HANDLE" },
		{ 4, "NRT_RESOURCE" },
		{ 5, "NRT_TIMEOUT" },
		{ 6, "NRT_HW_ERROR" },
		{ 7, "NRT_QUEUE_FULL" },
		{ 9, "NRT_LOAD_NOT_ENOUGH_NC" },
		{ 10, "NRT_UNSUPPORTED_NEFF_VERSION" },
		{ 11, "NRT_FAIL_HOST_MEM_ALLOC" },
		{ 13, "NRT_UNINITIALIZED" },
		{ 14, "NRT_CLOSED" },
		{ 15, "NRT_QUEUE_EMPTY" },
		{ 101, "NRT_EXEC_UNIT_UNRECOVERABLE" },
		{ 1002, "NRT_EXEC_BAD_INPUT" },
		{ 1003, "NRT_EXEC_COMPLETED_WITH_NUM_ERR" },
		{ 1004, "NRT_EXEC_COMPLETED_WITH_ERR" },
		{ 1005, "NRT_EXEC_NC_BUSY" },
		{ 1006, "NRT_EXEC_OOB" },
		{ 1100, "NRT_COLL_PENDING" },
		{ 1200, "NRT_EXEC_HW_ERR_COLLECTIVES" },
		{ 1201, "NRT_EXEC_HW_ERR_HBM_UE" },
		{ 1202, "NRT_EXEC_HW_ERR_NC_UE" },
		{ 1203, "NRT_EXEC_HW_ERR_DMA_ABORT" },
		{ 1204, "NRT_EXEC_SW_NQ_OVERFLOW" },
		{ 1205, "NRT_EXEC_HW_ERR_REPAIRABLE_HBM_UE" },
		{ 1206, "NRT_NETWORK_PROXY_FAILURE" },
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].v == status)
			return names[i].name;
	return NULL;
}

const char *nrt_placement_name(unsigned placement)
{
	static const char *const names[] = { "device", "host", "virtual" };
	return placement < 3 ? names[placement] : "?";
}

const char *nrt_traffic_name(unsigned op)
{
	switch (op) {
	case TPROF_NRT_TENSOR_READ:
		return "read";
	case TPROF_NRT_TENSOR_WRITE:
		return "write";
	case TPROF_NRT_TENSOR_COPY:
		return "copy";
	case TPROF_NRT_TENSOR_MEMSET:
		return "memset";
	default:
		return NULL;
	}
}

static int clamp_cores(uint32_t n)
{
	return n >= 1 && n <= MAX_CORES ? (int)n : 1;
}

int nrt_cores(const struct nrt_info *ni, int32_t *first)
{
	const struct tprof_nrt_args *a = &ni->a;
	*first = a->nc;
	if (a->nc < 0 || a->nc >= 65536)
		return 0;
	switch (a->op) {
	case TPROF_NRT_EXECUTE:
		return ni->has_exec ? clamp_cores(ni->x.model_nc_count) : 1;
	case TPROF_NRT_LOAD:
		return clamp_cores(a->extra);
	case TPROF_NRT_UNLOAD:
	case TPROF_NRT_COLLECTIVE:
		return 1;
	case TPROF_NRT_TENSOR_ALLOC:
	case TPROF_NRT_TENSOR_FREE:
	case TPROF_NRT_TENSOR_READ:
	case TPROF_NRT_TENSOR_WRITE:
	case TPROF_NRT_TENSOR_COPY:
	case TPROF_NRT_TENSOR_MEMSET:
		return a->placement == 0 ? 1 : 0;   /* NRT_TENSOR_PLACEMENT_DEVICE */
	default:
		return 0;
	}
}
