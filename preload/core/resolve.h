/* resolve.h — finding the real definition of a symbol this library interposes, and any other
 * function of a runtime it calls.  Lookups are lazy (a hook may run before the constructor)
 * and remembered both ways: a function found in one pointer per symbol, a function missing as
 * the library generation it was missing in, so that it is looked for once, and again only
 * once a library loaded since may have brought it. */
#ifndef TPROF_RESOLVE_H
#define TPROF_RESOLVE_H

#include <stddef.h>
#include <stdint.h>

/* The next definition of `name` after this library, else its definition in a library the
 * program loaded privately and looked wrapped functions up in (hook-dl.c), or NULL. */
void *tprof_resolve(const char *name);
void *tprof_dlsym_private(const char *name);

/* The library generation: bumped by every dlopen (hook-dl.c) and by every library handle
 * the lookups learn of, the moments a missing function may appear. */
extern uint32_t tprof_dl_gen;

/* A lookup that failed keeps `generation + 1` in its miss word (0: never failed). */
static inline int tprof_real_missing(const uint32_t *miss)
{
	return __atomic_load_n(miss, __ATOMIC_RELAXED) ==
	       __atomic_load_n(&tprof_dl_gen, __ATOMIC_ACQUIRE) + 1;
}

/* The slow path of every lazily found function: looks `name` up with `lookup` and keeps the
 * answer in `*slot`, or the failure in `*miss`.  NULL when missing. */
void *tprof_real_find(void **slot, uint32_t *miss, const char *name, void *(*lookup)(const char *));

/* The same for a function whose pointer lives elsewhere: `*slot` if set, else NULL at once
 * when it was missing in this generation, else a lookup. */
static inline void *tprof_real_get(void **slot, uint32_t *miss, const char *name,
				   void *(*lookup)(const char *))
{
	void *f = __atomic_load_n(slot, __ATOMIC_RELAXED);
	if (__builtin_expect(!f, 0) && !tprof_real_missing(miss))
		f = tprof_real_find(slot, miss, name, lookup);
	return f;
}

/* get_<name>(): `real_<name>`, looked up with `lookup` ("name") on first use; NULL while it
 * is missing, looked for again only after a library was loaded. */
#define TPROF_REAL_GETTER(name, lookup)                                                 \
	static inline name##_fn get_##name(void)                                        \
	{                                                                               \
		return (name##_fn)tprof_real_get((void **)&real_##name, &miss_##name,    \
						 #name, lookup);                         \
	}

/* Declares `real_<name>`, its miss word and a getter that fills them on first use. */
#define TPROF_REAL_WITH(ret, name, params, lookup)                                      \
	typedef ret(*name##_fn) params;                                                 \
	static name##_fn real_##name;                                                   \
	static uint32_t miss_##name;                                                    \
	TPROF_REAL_GETTER(name, lookup)
#define TPROF_REAL(ret, name, params) TPROF_REAL_WITH(ret, name, params, tprof_resolve)

/* TPROF_REAL for a function looked up as every process starts (hook-fd.c): its pointer and
 * miss word kept with the start's data (TPROF_START_DATA, core.h). */
#define TPROF_REAL_AT_START(ret, name, params)                                          \
	typedef ret(*name##_fn) params;                                                 \
	static name##_fn real_##name TPROF_START_DATA;                                  \
	static uint32_t miss_##name TPROF_START_DATA;                                   \
	TPROF_REAL_GETTER(name, tprof_resolve)

/* Declared hidden, as -fvisibility=hidden defines them: read directly, not by way of the GOT. */
#define TPROF_REAL_HIDDEN __attribute__((visibility("hidden")))

/* The same for a runtime whose hooks span several files: `real_<name>` and `miss_<name>`
 * are defined once, in the runtime's hook table (TPROF_REAL_DEFINE), and shared. */
#define TPROF_REAL_EXTERN(ret, name, params, lookup)                                    \
	typedef ret(*name##_fn) params;                                                 \
	extern name##_fn real_##name TPROF_REAL_HIDDEN;                                 \
	extern uint32_t miss_##name TPROF_REAL_HIDDEN;                                  \
	TPROF_REAL_GETTER(name, lookup)
#define TPROF_REAL_DEFINE(name)                                                         \
	name##_fn real_##name;                                                          \
	uint32_t miss_##name;

#endif
