/* nccl-rt.h — which collective library the program uses (RCCL or NCCL, told by the file its
 * functions come from) and which runtime's events time its work on the device: HIP for
 * RCCL; for NCCL the CUDA runtime when one is loaded, else HIP (NCCL built over HIP, as the
 * tests' stand-in is), else none. */
#ifndef TPROF_NCCL_RT_H
#define TPROF_NCCL_RT_H

#include <stdint.h>

#include "../core/core.h"
#include "../events/devtime.h"

/* TPROF_NCCLF_RCCL or 0, with TPROF_NCCL_LIB_KNOWN once found out; the process image whose
 * PROP records describe the library (a fork child writes its own). */
#define TPROF_NCCL_LIB_KNOWN 0x80u
extern uint8_t tprof_nccl_lib;
extern uint32_t tprof_nccl_lib_gen;

/* Finds out (once) from the real function `real` which library this is, and writes the
 * PROP records nccl_library and nccl_version (once per process image).  Called with the
 * thread registered. */
uint8_t tprof_nccl_lib_find(void *real);

/* The library's flags for a call's record (TPROF_NCCLF_RCCL or 0). */
static inline uint8_t tprof_nccl_lib_flags(void *real)
{
	uint8_t v = __atomic_load_n(&tprof_nccl_lib, __ATOMIC_ACQUIRE);
	if (TPROF_UNLIKELY(!v || __atomic_load_n(&tprof_nccl_lib_gen, __ATOMIC_RELAXED) !=
					 tprof_g.generation))
		v = tprof_nccl_lib_find(real);
	return v & ~TPROF_NCCL_LIB_KNOWN;
}

/* The runtime whose events time the library's work now, NULL when none is loaded; the
 * choice is written as the PROP nccl_events when it changes.  Slow path (communicator
 * creation). */
const struct tprof_devrt *tprof_nccl_runtime(void);

#endif
