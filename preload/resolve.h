/* resolve.h — finding the real definition of a symbol this library interposes.  Lookups are
 * lazy (a hook may run before the constructor) and cached in one pointer per symbol. */
#ifndef TPROF_RESOLVE_H
#define TPROF_RESOLVE_H

#include <stddef.h>

/* The next definition of `name` after this library, else its definition in a library the
 * program loaded privately and looked wrapped functions up in (hook-dl.c), or NULL. */
void *tprof_resolve(const char *name);
void *tprof_dlsym_private(const char *name);

/* Declares `real_<name>` and a getter that fills it on first use. */
#define TPROF_REAL(ret, name, params)                                                   \
	typedef ret(*name##_fn) params;                                                 \
	static name##_fn real_##name;                                                   \
	static inline name##_fn get_##name(void)                                        \
	{                                                                               \
		name##_fn f = __atomic_load_n(&real_##name, __ATOMIC_RELAXED);           \
		if (!f) {                                                               \
			f = (name##_fn)tprof_resolve(#name);                             \
			__atomic_store_n(&real_##name, f, __ATOMIC_RELAXED);             \
		}                                                                       \
		return f;                                                               \
	}

#endif
