/* resolve.c — dlsym(RTLD_NEXT) behind one function, so hooks never call dlsym directly. */
#include <dlfcn.h>

#include "core.h"
#include "resolve.h"

void *tprof_resolve(const char *name)
{
	void *p = dlsym(RTLD_NEXT, name);
	if (!p)
		tprof_log_debug("no definition of %s after the profiler", name);
	return p;
}
