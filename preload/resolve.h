/* resolve.h — finding the real definition of a symbol this library interposes.  Lookups are
 * lazy (a hook may run before the constructor) and cached in one pointer per symbol. */
#ifndef TPROF_RESOLVE_H
#define TPROF_RESOLVE_H

#include <stddef.h>

/* The next definition of `name` after this library, else its definition in a library the
 * program loaded privately and looked wrapped functions up in (hook-dl.c), or NULL. */
void *tprof_resolve(const char *name);
void *tprof_dlsym_private(const char *name);

/* get_<name>(): `real_<name>`, looked up with `lookup` ("name") on first use. */
#define TPROF_REAL_GETTER(name, lookup)                                                 \
	static inline name##_fn get_##name(void)                                        \
	{                                                                               \
		name##_fn f = __atomic_load_n(&real_##name, __ATOMIC_RELAXED);           \
		if (__builtin_expect(!f, 0)) {                                          \
			f = (name##_fn)lookup(#name);                                    \
			__atomic_store_n(&real_##name, f, __ATOMIC_RELAXED);             \
		}                                                                       \
		return f;                                                               \
	}

/* Declares `real_<name>` and a getter that fills it on first use. */
#define TPROF_REAL(ret, name, params)                                                   \
	typedef ret(*name##_fn) params;                                                 \
	static name##_fn real_##name;                                                   \
	TPROF_REAL_GETTER(name, tprof_resolve)

/* The same for a runtime whose hooks span several files: `real_<name>` is defined once, in
 * the runtime's hook table, and shared. */
#define TPROF_REAL_EXTERN(ret, name, params, lookup)                                    \
	typedef ret(*name##_fn) params;                                                 \
	extern name##_fn real_##name;                                                   \
	TPROF_REAL_GETTER(name, lookup)

#endif
