/* hip-minimal-events.c — libhipevents.so: HIP's event functions (and the stream creation a
 * profiler's clock anchor needs), for a program on the minimal runtime (hip-minimal-rt.c) to
 * dlopen() later, as a program loads a library that brings functions missing until then.
 * Work takes no device time there: an event completes when it is recorded, at the host's
 * CLOCK_MONOTONIC, so elapsed times are host times.  Built from C alone. */
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#define API __attribute__((visibility("default")))

typedef int hipError_t;
typedef struct event *hipEvent_t;
typedef void *hipStream_t;
struct event {
	uint32_t magic;
	int recorded;
	int64_t ns;
};

enum { hipSuccess = 0, hipErrorInvalidValue = 1, hipErrorInvalidHandle = 400 };
#define MAGIC 0x65766e74u

API hipError_t hipEventCreate(hipEvent_t *e);
API hipError_t hipEventCreateWithFlags(hipEvent_t *e, unsigned flags);
API hipError_t hipEventRecord(hipEvent_t e, hipStream_t s);
API hipError_t hipEventQuery(hipEvent_t e);
API hipError_t hipEventSynchronize(hipEvent_t e);
API hipError_t hipEventElapsedTime(float *ms, hipEvent_t a, hipEvent_t b);
API hipError_t hipEventDestroy(hipEvent_t e);
API hipError_t hipStreamCreateWithFlags(hipStream_t *s, unsigned flags);

hipError_t hipEventCreateWithFlags(hipEvent_t *e, unsigned flags)
{
	(void)flags;
	if (!e || !(*e = calloc(1, sizeof(**e))))
		return hipErrorInvalidValue;
	(*e)->magic = MAGIC;
	return hipSuccess;
}

hipError_t hipEventCreate(hipEvent_t *e)
{
	return hipEventCreateWithFlags(e, 0);
}

static int valid(hipEvent_t e)
{
	return e && e->magic == MAGIC;
}

hipError_t hipEventRecord(hipEvent_t e, hipStream_t s)
{
	struct timespec ts;
	(void)s;
	if (!valid(e))
		return hipErrorInvalidHandle;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	e->ns = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
	e->recorded = 1;
	return hipSuccess;
}

hipError_t hipEventQuery(hipEvent_t e)
{
	return valid(e) ? hipSuccess : hipErrorInvalidHandle;
}

hipError_t hipEventSynchronize(hipEvent_t e)
{
	return valid(e) ? hipSuccess : hipErrorInvalidHandle;
}

hipError_t hipEventElapsedTime(float *ms, hipEvent_t a, hipEvent_t b)
{
	if (!ms)
		return hipErrorInvalidValue;
	if (!valid(a) || !valid(b) || !a->recorded || !b->recorded)
		return hipErrorInvalidHandle;
	*ms = (float)((double)(b->ns - a->ns) / 1e6);
	return hipSuccess;
}

hipError_t hipEventDestroy(hipEvent_t e)
{
	if (!valid(e))
		return hipErrorInvalidHandle;
	e->magic = 0;
	free(e);
	return hipSuccess;
}

/* A stream of this library is only a name: its work completes as it is queued. */
hipError_t hipStreamCreateWithFlags(hipStream_t *s, unsigned flags)
{
	static char streams;
	(void)flags;
	if (!s)
		return hipErrorInvalidValue;
	*s = &streams;
	return hipSuccess;
}
