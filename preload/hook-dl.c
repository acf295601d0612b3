/* hook-dl.c — dlsym.  A program that loads a runtime late and looks its functions up in the
 * library's own handle (Python's ctypes does dlopen + dlsym(handle, name)) would get the
 * real functions and bypass the wrappers: for any name tprof wraps, dlsym returns the
 * wrapper instead, and remembers the real function for it.  RTLD_NEXT asked for by another
 * object is answered relative to that object, as the real dlsym would have. */
#include <dlfcn.h>
#include <link.h>
#include <string.h>

#include "api.h"
#include "core.h"

typedef void *(*dlsym_fn)(void *, const char *);

static dlsym_fn real_dlsym_fn(void)
{
	static dlsym_fn real;
	if (!real) {
		/* dlvsym is not wrapped: it finds libc's dlsym (the newest version first). */
		real = (dlsym_fn)dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.34");
		if (!real)
			real = (dlsym_fn)dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.2.5");
	}
	return real;
}

static void *object_base(const void *addr)
{
	Dl_info info;
	return dladdr(addr, &info) ? info.dli_fbase : NULL;
}

/* RTLD_NEXT for a caller in another object: the first object loaded after the caller's that
 * defines `name` itself. */
static void *next_after(const void *caller, const char *name)
{
	Dl_info info;
	struct link_map *lm = NULL;
	if (!dladdr1(caller, &info, (void **)&lm, RTLD_DL_LINKMAP) || !lm)
		return NULL;
	for (struct link_map *m = lm->l_next; m; m = m->l_next) {
		void *r = real_dlsym_fn()(m, name);
		if (r && object_base(r) == object_base(m->l_ld))  /* defined by m itself */
			return r;
	}
	return NULL;
}

TPROF_EXPORT void *dlsym(void *handle, const char *name)
{
	dlsym_fn real = real_dlsym_fn();
	if (!real)
		return NULL;
	if (handle == RTLD_NEXT) {
		const void *caller = __builtin_return_address(0);
		if (object_base(caller) != object_base((void *)dlsym))
			return next_after(caller, name);
		return real(RTLD_NEXT, name);
	}
	void *r = real(handle, name);
	if (!r || handle == RTLD_DEFAULT)
		return r;
	struct tprof_hook *h = tprof_hook_find(name);
	if (!h)
		return r;
	if (!__atomic_load_n(h->real, __ATOMIC_RELAXED))
		__atomic_store_n(h->real, r, __ATOMIC_RELAXED);
	return h->wrapper;
}
