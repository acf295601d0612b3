/* collectives.c — the blocking collectives across Neuron devices (nrt_barrier,
 * nrt_all_gather) and building the global communicator.  A stand-in job is one process on
 * one device: a group of one completes at once (the all-gather copies its input); a larger
 * group would wait for peers that do not exist, so it is refused with NRT_FAILURE. */
#include "internal.h"

#include <string.h>

static NRT_STATUS group(const char *what, int32_t vnc, uint32_t id, uint32_t count)
{
	pthread_mutex_lock(&sn_lock);
	NRT_STATUS rc = sn_ready();
	if (rc == NRT_SUCCESS && (vnc < 0 || vnc >= sn.nvisible))
		rc = sn_fail(NRT_INVALID, "%s: no NeuronCore %d", what, (int)vnc);
	else if (rc == NRT_SUCCESS && (!count || id >= count))
		rc = sn_fail(NRT_INVALID, "%s: device %u of %u", what, id, count);
	else if (rc == NRT_SUCCESS && count > 1)
		rc = sn_fail(NRT_FAILURE, "%s: %u devices, but a stand-in job has one", what, count);
	pthread_mutex_unlock(&sn_lock);
	return rc;
}

SN_EXPORT NRT_STATUS nrt_barrier(int32_t vnc, uint32_t g_device_id, uint32_t g_device_count)
{
	return group("nrt_barrier", vnc, g_device_id, g_device_count);
}

SN_EXPORT NRT_STATUS nrt_all_gather(int32_t vnc, uint32_t g_device_id, uint32_t g_device_count,
				    uint32_t rank_input_size, void *input, void *output)
{
	if ((!input || !output) && rank_input_size)
		return sn_fail(NRT_INVALID, "nrt_all_gather: no buffer");
	NRT_STATUS rc = group("nrt_all_gather", vnc, g_device_id, g_device_count);
	if (rc == NRT_SUCCESS && rank_input_size)
		memmove(output, input, rank_input_size);
	return rc;
}

SN_EXPORT NRT_STATUS nrt_build_global_comm(int32_t vnc, uint32_t g_device_id, uint32_t g_device_count)
{
	return group("nrt_build_global_comm", vnc, g_device_id, g_device_count);
}

SN_EXPORT NRT_STATUS nrt_cc_global_comm_init(uint32_t vnc, uint32_t g_device_id, uint32_t g_device_count)
{
	return group("nrt_cc_global_comm_init", (int32_t)vnc, g_device_id, g_device_count);
}
