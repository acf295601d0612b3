/* resolve.c — dlsym(RTLD_NEXT) behind one function, so hooks never call dlsym directly. */
#include <dlfcn.h>

#include "core.h"
#include "resolve.h"

/* Without the dlsym wrapper (a test build leaves it out) no private handles are known. */
__attribute__((weak)) void *tprof_dlsym_private(const char *name)
{
	(void)name;
	return NULL;
}

void *tprof_resolve(const char *name)
{
	void *p = dlsym(RTLD_NEXT, name);
	/* A runtime the program loaded privately (ctypes) is only in the handles it used. */
	if (!p)
		p = tprof_dlsym_private(name);
	if (!p)
		tprof_log_debug("no definition of %s after the profiler", name);
	return p;
}
