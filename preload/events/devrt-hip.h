/* devrt-hip.h — device timing through HIP's events (struct tprof_devrt, devtime.h): the work
 * the HIP hooks put on a device, and RCCL's collectives (NCCL's too, when NCCL runs over HIP).
 * Also the device of a HIP stream, which a launch asks for: the runtime's answer is kept per
 * thread, so that a launch does not ask it each time (a runtime call, under a lock in HIP). */
#ifndef TPROF_DEVRT_HIP_H
#define TPROF_DEVRT_HIP_H

#include <stdint.h>

#include "devtime.h"
#include "../core/core.h"

extern const struct tprof_devrt tprof_hip_rt;

/* The per-thread answers: a stream's device, valid while `gen` is the current generation. */
#define TPROF_HIP_STREAM_CACHE 16
#define TPROF_HIP_SPECIAL_STREAMS 4096  /* handles below are names, not objects */
struct tprof_hip_stream_dev {
	uint64_t stream;
	uint32_t gen;
	int device;
};
extern __thread struct tprof_hip_stream_dev tprof_hip_stream_devs[TPROF_HIP_STREAM_CACHE]
	__attribute__((tls_model("initial-exec"))) TPROF_HIDDEN;
extern uint32_t tprof_hip_streams_gen TPROF_HIDDEN;

/* Slow side of tprof_hip_stream_device: asks the runtime, keeps the answer for a stream the
 * program made. */
int tprof_hip_stream_ask(struct tprof_hip_stream_dev *c, uint64_t stream, uint32_t gen);

/* The device of `stream`, -1 when unknown.  The null and per-thread streams (the current
 * device's) and unknown ones are always asked. */
static inline int tprof_hip_stream_device(uint64_t stream)
{
	struct tprof_hip_stream_dev *c =
		&tprof_hip_stream_devs[(stream >> 6 ^ stream >> 12) % TPROF_HIP_STREAM_CACHE];
	uint32_t gen = __atomic_load_n(&tprof_hip_streams_gen, __ATOMIC_ACQUIRE);
	if (TPROF_LIKELY(c->stream == stream && c->gen == gen))
		return c->device;
	return tprof_hip_stream_ask(c, stream, gen);
}

/* A stream destroyed or a device reset: every thread forgets every stream's device, as a
 * handle may come back for another device. */
static inline void tprof_hip_streams_forget(void)
{
	__atomic_add_fetch(&tprof_hip_streams_gen, 1, __ATOMIC_ACQ_REL);
}

#endif
