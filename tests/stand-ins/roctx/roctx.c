/* roctx.c — stand-in libroctx64.so.4 (ROCm roctracer's annotation library): the five roctx
 * calls with roctracer's return values.  Push/pop nesting is a thread-local counter (push
 * returns the level it opens at, pop the level it closes or -1 when none is open); range ids
 * come from one process-wide counter starting at 1.  roctxRegisterTracerCallback only keeps
 * the pointer: nothing is ever forwarded to it. */
#include "roctracer/roctx.h"

#include <stdatomic.h>
#include <stddef.h>

#define EXPORT __attribute__((visibility("default")))

static _Thread_local int level;
static atomic_uint_fast64_t next_id = 1;
static int (*_Atomic tracer_callback)(uint32_t domain, uint32_t operation_id, void *data);

EXPORT uint32_t roctx_version_major(void)
{
	return ROCTX_VERSION_MAJOR;
}

EXPORT uint32_t roctx_version_minor(void)
{
	return ROCTX_VERSION_MINOR;
}

EXPORT void roctxMarkA(const char *message)
{
	(void)message;
}

EXPORT int roctxRangePushA(const char *message)
{
	(void)message;
	return level++;
}

EXPORT int roctxRangePop(void)
{
	if (level == 0)
		return -1;
	return --level;
}

EXPORT roctx_range_id_t roctxRangeStartA(const char *message)
{
	(void)message;
	return (roctx_range_id_t)atomic_fetch_add(&next_id, 1);
}

EXPORT void roctxRangeStop(roctx_range_id_t id)
{
	(void)id;
}

/* roctracer's private hook: extern "C" void roctxRegisterTracerCallback(int (*)(activity_domain_t
 * domain, uint32_t operation_id, void* data)); activity_domain_t is an enum (an int). */
EXPORT void roctxRegisterTracerCallback(int (*function)(uint32_t domain, uint32_t operation_id,
							void *data));
EXPORT void roctxRegisterTracerCallback(int (*function)(uint32_t domain, uint32_t operation_id,
							void *data))
{
	atomic_store(&tracer_callback, function);
}
