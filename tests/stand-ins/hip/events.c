/* events.c — events.  hipEventRecord queues a marker; when the stream's worker reaches it
 * the event takes the stream's (nominal) device time and completes.  An event belongs to the
 * device current when it was created; recording it on another device's stream and comparing
 * events of two devices fail with hipErrorInvalidHandle, as on real hardware.  Recording again
 * resets the event until the new marker is reached. */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>

struct sh_event {
	uint32_t magic;
	int dev;
	unsigned flags;
	pthread_mutex_t mu;
	struct sh_op *rec; /* the marker of the latest record, or NULL */
};

static hipError_t event_create(hipEvent_t *event, unsigned flags)
{
	const unsigned supported = hipEventDefault | hipEventBlockingSync | hipEventDisableTiming |
				   hipEventReleaseToDevice | hipEventReleaseToSystem |
				   hipEventInterprocess;
	struct sh_event *e;
	int dev = sh_current_device();
	if (!event)
		return hipErrorInvalidValue;
	if ((flags & ~supported) ||
	    (flags & (hipEventReleaseToDevice | hipEventReleaseToSystem)) ==
		    (hipEventReleaseToDevice | hipEventReleaseToSystem))
		return hipErrorInvalidValue;
	if (!sh_valid_device(dev))
		return hipErrorNoDevice;
	e = calloc(1, sizeof(*e));
	if (!e)
		return hipErrorOutOfMemory;
	e->magic = SH_EVENT_MAGIC;
	e->dev = dev;
	e->flags = flags;
	pthread_mutex_init(&e->mu, NULL);
	*event = (hipEvent_t)e;
	return hipSuccess;
}

SH_EXPORT hipError_t hipEventCreate(hipEvent_t *event)
{
	hipError_t r;
	sh_init();
	r = event_create(event, hipEventDefault);
	SH_RET(r, "%p", r == hipSuccess ? (void *)*event : NULL);
}

SH_EXPORT hipError_t hipEventCreateWithFlags(hipEvent_t *event, unsigned flags)
{
	hipError_t r;
	sh_init();
	r = event_create(event, flags);
	SH_RET(r, "%p, flags=%#x", r == hipSuccess ? (void *)*event : NULL, flags);
}

SH_EXPORT hipError_t hipEventDestroy(hipEvent_t event)
{
	struct sh_event *e = (struct sh_event *)event;
	hipError_t r;
	sh_init();
	if (!e || e->magic != SH_EVENT_MAGIC)
		SH_RET(hipErrorInvalidHandle, "%p", (void *)event);
	r = sh_ret(__func__, hipSuccess, "%p", (void *)event); /* traced before the free */
	e->magic = 0;
	sh_op_unref(e->rec); /* a pending marker still completes; it just has no event */
	pthread_mutex_destroy(&e->mu);
	free(e);
	return r;
}

struct sh_op *sh_event_op(hipEvent_t event)
{
	struct sh_event *e = (struct sh_event *)event;
	struct sh_op *op;
	pthread_mutex_lock(&e->mu);
	op = e->rec;
	if (op)
		sh_op_ref(op);
	pthread_mutex_unlock(&e->mu);
	return op;
}

hipError_t sh_event_record(hipEvent_t event, struct sh_stream *s)
{
	struct sh_event *e = (struct sh_event *)event;
	struct sh_op *op, *old;
	if (!e || e->magic != SH_EVENT_MAGIC)
		return hipErrorInvalidHandle;
	if (e->dev != s->dev->id)
		return hipErrorInvalidHandle;
	op = sh_op_new(SH_OP_EVENT);
	if (!op)
		return hipErrorOutOfMemory;
	snprintf(op->label, sizeof(op->label), "event %p", (void *)event);
	/* Hold the event's lock across queueing so concurrent records land in queue order. */
	pthread_mutex_lock(&e->mu);
	old = e->rec;
	sh_op_ref(op);
	e->rec = op;
	sh_enqueue(s, op);
	pthread_mutex_unlock(&e->mu);
	sh_op_unref(old);
	return hipSuccess;
}

SH_EXPORT hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream)
{
	hipError_t r;
	struct sh_stream *s;
	sh_init();
	if (!event)
		SH_RET(hipErrorInvalidHandle, "NULL, %p", (void *)stream);
	s = sh_stream_resolve(stream, &r);
	if (s)
		r = sh_event_record(event, s);
	SH_RET(r, "%p, %p", (void *)event, (void *)stream);
}

SH_EXPORT hipError_t hipEventQuery(hipEvent_t event)
{
	struct sh_event *e = (struct sh_event *)event;
	struct sh_op *op;
	hipError_t r;
	sh_init();
	if (!e || e->magic != SH_EVENT_MAGIC)
		SH_RET(hipErrorInvalidHandle, "%p", (void *)event);
	op = sh_event_op(event);
	r = !op || atomic_load(&op->done) ? hipSuccess : hipErrorNotReady; /* unrecorded: done */
	sh_op_unref(op);
	SH_RET(r, "%p", (void *)event);
}

SH_EXPORT hipError_t hipEventSynchronize(hipEvent_t event)
{
	struct sh_event *e = (struct sh_event *)event;
	struct sh_op *op;
	sh_init();
	if (!e || e->magic != SH_EVENT_MAGIC)
		SH_RET(hipErrorInvalidHandle, "%p", (void *)event);
	op = sh_event_op(event);
	if (op) {
		sh_op_wait(op);
		sh_op_unref(op);
	}
	SH_RET(hipSuccess, "%p", (void *)event);
}

SH_EXPORT hipError_t hipEventElapsedTime(float *ms, hipEvent_t start, hipEvent_t stop)
{
	struct sh_event *a = (struct sh_event *)start, *b = (struct sh_event *)stop;
	struct sh_op *oa, *ob;
	hipError_t r;
	sh_init();
	if (!ms)
		SH_RET(hipErrorInvalidValue, "NULL, %p, %p", (void *)start, (void *)stop);
	if (!a || !b || a->magic != SH_EVENT_MAGIC || b->magic != SH_EVENT_MAGIC)
		SH_RET(hipErrorInvalidHandle, "%p, %p", (void *)start, (void *)stop);
	if (a->dev != b->dev)
		SH_RET(hipErrorInvalidHandle, "%p (device %d), %p (device %d)", (void *)start, a->dev,
		       (void *)stop, b->dev);
	oa = sh_event_op(start);
	ob = sh_event_op(stop);
	if (!oa || !ob || ((a->flags | b->flags) & hipEventDisableTiming))
		r = hipErrorInvalidHandle; /* never recorded, or no timing */
	else if (!atomic_load(&oa->done) || !atomic_load(&ob->done))
		r = hipErrorNotReady;
	else {
		/* Both in the device's clock: the device offset cancels. */
		int64_t d = sh_device_time(a->dev, ob->t_end) - sh_device_time(a->dev, oa->t_end);
		*ms = (float)((double)d / 1e6);
		r = hipSuccess;
	}
	sh_op_unref(oa);
	sh_op_unref(ob);
	if (r == hipSuccess)
		SH_RET(r, "%.6f ms, %p, %p", (double)*ms, (void *)start, (void *)stop);
	SH_RET(r, "%p, %p", (void *)start, (void *)stop);
}

int sh_event_device(hipEvent_t event)
{
	struct sh_event *e = (struct sh_event *)event;
	return e && e->magic == SH_EVENT_MAGIC ? e->dev : -1;
}
