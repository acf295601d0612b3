/* resolve.c — libc's dlsym(RTLD_NEXT) behind one function, so hooks never call dlsym, and
 * the one slow path that remembers what every lazy lookup found or missed (resolve.h). */
#include <dlfcn.h>

#include "../../common/real-libc.h"
#include "core.h"
#include "resolve.h"

uint32_t tprof_dl_gen TPROF_START_DATA;

/* Without the dlsym wrapper (a test build leaves it out) no private handles are known. */
__attribute__((weak)) void *tprof_dlsym_private(const char *name)
{
	(void)name;
	return NULL;
}

/* Whether p is in this library: a handle of the program's own scope (dlopen(NULL), as
 * ctypes.CDLL(None) makes) finds the recorder's definition first. */
static int ours(void *p)
{
	Dl_info a, b;
	return dladdr(p, &a) && dladdr((void *)tprof_resolve, &b) && a.dli_fbase == b.dli_fbase;
}

TPROF_START_CODE void *tprof_resolve(const char *name)
{
	void *p = tprof_real_dlsym(RTLD_NEXT, name);
	/* A runtime the program loaded privately (ctypes) is only in the handles it used. */
	if (!p) {
		p = tprof_dlsym_private(name);
		if (p && ours(p))
			p = NULL;
	}
	if (!p)
		tprof_log_debug("no definition of %s after the profiler", name);
	return p;
}

/* A miss is kept with the generation read before the lookup, and only if the generation is
 * still that one after it: a library loaded meanwhile may hold the function, and the next call
 * asks again.  A dlopen bumps the generation as it starts (hook-dl.c cannot run code after the
 * real dlopen without becoming its caller); the loader then makes it and dlsym exclude each
 * other, so the one miss that can outlive it is a lookup in another thread that starts after
 * the bump and ends before that dlopen reaches the loader's lock: it lasts until the next
 * library is loaded. */
TPROF_START_CODE void *tprof_real_find(void **slot, uint32_t *miss, const char *name,
				       void *(*lookup)(const char *))
{
	TPROF_KEEP_ERRNO;
	uint32_t gen = __atomic_load_n(&tprof_dl_gen, __ATOMIC_ACQUIRE);
	if (__atomic_load_n(miss, __ATOMIC_RELAXED) == gen + 1)
		return NULL;
	void *f = lookup(name);
	if (f)
		__atomic_store_n(slot, f, __ATOMIC_RELAXED);
	else if (__atomic_load_n(&tprof_dl_gen, __ATOMIC_ACQUIRE) == gen)
		__atomic_store_n(miss, gen + 1, __ATOMIC_RELAXED);
	return f;
}
