/* devtime.h — timing device work with the runtime's own events.  A hook brackets a kernel,
 * copy, memset or collective with two events recorded on the same stream (tprof_dev_begin/
 * _end: a ring slot and two cached events, no lock); a completion thread polls them off the
 * hot path, turns device times into host CLOCK_MONOTONIC nanoseconds through a per-device
 * anchor event, and writes one DEVICE record per operation.  A thread may hold several
 * begun operations at once (an NCCL group opens one per stream and ends them all at its
 * ncclGroupEnd): each begin claims its own slot, and slots are handed to the completion
 * thread in the order they were claimed, once every earlier one has ended. */
#ifndef TPROF_DEVTIME_H
#define TPROF_DEVTIME_H

#include "../core/core.h"

#define TPROF_MAX_DEVICES 32
#define TPROF_MAX_RUNTIMES 2

/* What a runtime offers for timing (HIP, CUDA): the real functions, never the wrappers. */
struct tprof_devrt {
	const char *name;
	int id;                                          /* 0 .. TPROF_MAX_RUNTIMES-1 */
	int (*usable)(void);                             /* has every function below (NULL: yes) */
	int (*event_create)(int device, void **ev);      /* 0 on success */
	void (*event_destroy)(void *ev);
	int (*event_record)(void *ev, uint64_t stream);  /* 0 on success */
	int (*event_query)(void *ev);                    /* 1 done, 0 not yet, -1 error */
	int (*event_sync)(void *ev);                     /* 0 on success */
	int (*elapsed_ms)(void *start, void *stop, float *ms);
	int (*stream_create)(int device, uint64_t *stream);
	int (*device_of_stream)(uint64_t stream);        /* -1 when unknown */
};

/* One operation in flight: filled by the hook, finished by the completion thread. */
struct tprof_devpend {
	const struct tprof_devrt *rt;
	void *ev_start, *ev_end;
	uint64_t corr;
	uint32_t name;                  /* kernel or operation name string id */
	uint8_t kind;                   /* enum tprof_devop_kind */
	uint8_t resolved;               /* completion thread: 1 timed, 2 failed */
	uint8_t state;                  /* owner: enum tprof_devpend_state */
	struct tprof_devop op;
};

enum tprof_devpend_state {
	TPROF_DEVP_OPEN = 0,            /* begun, its end event not yet recorded */
	TPROF_DEVP_READY = 1,           /* both events recorded: to be timed */
	TPROF_DEVP_VOID = 2,            /* given up (the call failed): its events are back */
};

/* Starts timing an operation on `stream` of `device`: records the start event and returns
 * the slot to fill, or NULL (no timing: queue full, no events, a runtime without event
 * functions, an unknown device), the operation then counted as untimed.  Called with the
 * thread's guard raised, so the runtime calls inside are not recorded. */
struct tprof_devpend *tprof_dev_begin(struct tprof_thread *t, const struct tprof_devrt *rt,
				      int device, uint64_t stream);
/* The operation was submitted (ok) or refused: records the end event and hands it over.
 * Slots are ended by the thread that began them, in any order. */
void tprof_dev_end(struct tprof_thread *t, struct tprof_devpend *p, int ok);
/* An operation went untimed because no runtime offers events for it: counted with those
 * whose timing was given up (the DROP record at exit). */
void tprof_dev_untimed(void);
/* Waits for and writes every operation of `device` (all when device < 0), e.g. before a
 * device reset or at exit; forgets the device's events when `forget` is set. */
void tprof_dev_drain(const struct tprof_devrt *rt, int device, int forget);
/* Writes now, without waiting, every operation that has finished (the calling thread writes
 * them): at moments after which a process may leave without exit handlers (_exit), such as
 * the end of an NCCL communicator. */
void tprof_dev_flush(void);
/* Operations whose timing was given up (queue full, events refused, timing failed). */
uint64_t tprof_dev_dropped(void);
/* The fork child has no device work and no completion thread. */
void tprof_dev_reset_child(void);

#endif
