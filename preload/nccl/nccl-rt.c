/* nccl-rt.c — the collective library and the runtime that times its work (nccl-rt.h).
 * RCCL is told from NCCL by the file that holds the real functions (dladdr): the names and
 * prototypes are the same.  The runtime is chosen again at each communicator's creation, so
 * that a runtime loaded late (Python importing its framework after NCCL) is used once
 * there. */
#include <dlfcn.h>
#include <string.h>

#include "nccl-rt.h"
#include "../events/devrt-cuda.h"
#include "../events/devrt-hip.h"
#include "../core/resolve.h"
#include "../spool/spool.h"

/* The library's own ncclGetVersion, found like every lazily found function (the hook
 * table's pointer to it belongs to the wrappers, a layer above this file). */
TPROF_REAL(int, ncclGetVersion, (int *version))

uint8_t tprof_nccl_lib;
uint32_t tprof_nccl_lib_gen;

/* The runtime chosen last and the image that recorded it: (generation << 8) | (id + 1). */
static uint64_t chosen;

/* No lock here: a fork may come at any moment, and the child must still get through. */
uint8_t tprof_nccl_lib_find(void *real)
{
	TPROF_KEEP_ERRNO;
	struct tprof_thread *t = &tprof_tls;
	Dl_info info;
	const char *path = NULL;
	uint8_t v = TPROF_NCCL_LIB_KNOWN;
	t->guard++;
	if (real && dladdr(real, &info) && info.dli_fname) {
		const char *base = strrchr(info.dli_fname, '/');
		path = info.dli_fname;
		if (strstr(base ? base + 1 : path, "rccl"))
			v |= TPROF_NCCLF_RCCL;
	}
	uint8_t was = 0;
	if (!__atomic_compare_exchange_n(&tprof_nccl_lib, &was, v, 0, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE))
		v = was;
	uint32_t gen = __atomic_load_n(&tprof_nccl_lib_gen, __ATOMIC_RELAXED);
	if (gen != tprof_g.generation &&
	    __atomic_compare_exchange_n(&tprof_nccl_lib_gen, &gen, tprof_g.generation, 0,
					__ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
		int code = 0;
		if (path)
			tprof_proc_prop_str("nccl_library", path);
		if (get_ncclGetVersion() && real_ncclGetVersion(&code) == 0)
			tprof_proc_prop_int("nccl_version", code);
	}
	t->guard--;
	return v;
}

const struct tprof_devrt *tprof_nccl_runtime(void)
{
	TPROF_KEEP_ERRNO;
	const struct tprof_devrt *rt = NULL;
	struct tprof_thread *t = &tprof_tls;
	t->guard++;
	if (__atomic_load_n(&tprof_nccl_lib, __ATOMIC_ACQUIRE) & TPROF_NCCLF_RCCL)
		rt = tprof_hip_rt.usable() ? &tprof_hip_rt : NULL;
	else if (tprof_cuda_rt.usable())
		rt = &tprof_cuda_rt;
	else if (tprof_hip_rt.usable())
		rt = &tprof_hip_rt;
	uint64_t now = (uint64_t)tprof_g.generation << 8 | (uint64_t)(rt ? rt->id + 1 : 0);
	if (__atomic_exchange_n(&chosen, now, __ATOMIC_RELAXED) != now)
		tprof_proc_prop_str("nccl_events", rt ? rt->name : "none");
	t->guard--;
	return rt;
}
