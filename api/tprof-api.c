/* tprof-api.c — libtprof.so: the annotation API for programs run with or without the profiler.
 * Without it every function does nothing.  Under it, libtrace_preload.so defines the same
 * symbols and, loaded first, takes their place for every call bound by name in the global
 * scope; a call that reaches libtprof's own definitions all the same (found in libtprof's
 * handle: Python's ctypes.CDLL("libtprof.so"), dlopen with RTLD_LOCAL or RTLD_DEEPBIND, a
 * library linked -Bsymbolic) is handed to the recorder through the table it exports
 * (common/recorder-api.h), looked up once. */
#include <dlfcn.h>
#include <stddef.h>

#include <tprof/tprof.h>

#include "../common/recorder-api.h"

#define API __attribute__((visibility("default")))

/* The recorder's table, or NULL; NONE until looked up. */
static const struct tprof_recorder_api *const NONE = (const void *)&NONE;
static const struct tprof_recorder_api *recorder = (const void *)&NONE;

static const struct tprof_recorder_api *look_up(void)
{
	const struct tprof_recorder_api *r = dlsym(RTLD_DEFAULT, TPROF_RECORDER_API_SYMBOL);
	if (r && r->size < offsetof(struct tprof_recorder_api, step_end) + sizeof(r->step_end))
		r = NULL;    /* a recorder older than this table's first fields: none */
	__atomic_store_n(&recorder, r, __ATOMIC_RELEASE);
	return r;
}

static inline const struct tprof_recorder_api *rec(void)
{
	const struct tprof_recorder_api *r = __atomic_load_n(&recorder, __ATOMIC_ACQUIRE);
	return r == NONE ? look_up() : r;
}

API int tprof_range_push(const char *name)
{
	const struct tprof_recorder_api *r = rec();
	return r ? r->range_push(name) : -1;
}

API int tprof_range_pop(void)
{
	const struct tprof_recorder_api *r = rec();
	return r ? r->range_pop() : -1;
}

API void tprof_mark(const char *name)
{
	const struct tprof_recorder_api *r = rec();
	if (r)
		r->mark(name);
}

API void tprof_step(uint64_t step)
{
	const struct tprof_recorder_api *r = rec();
	if (r)
		r->step(step);
}

API void tprof_step_end(void)
{
	const struct tprof_recorder_api *r = rec();
	if (r)
		r->step_end();
}

API void tprof_counter(const char *name, double value)
{
	const struct tprof_recorder_api *r = rec();
	if (r)
		r->counter(name, value);
}

/* A recorder older than these functions (its table ends before them) leaves them undone. */
API void tprof_start(void)
{
	const struct tprof_recorder_api *r = rec();
	if (r && r->size >= offsetof(struct tprof_recorder_api, start) + sizeof(r->start))
		r->start();
}

API void tprof_stop(void)
{
	const struct tprof_recorder_api *r = rec();
	if (r && r->size >= offsetof(struct tprof_recorder_api, stop) + sizeof(r->stop))
		r->stop();
}
