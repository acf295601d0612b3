/* waits.h — wait states in neutral terms, for the diagnosis (diagnose/): a process that waited
 * for another (in a receive for its sender, in a collective for the last member), and the
 * process that made it wait, with the time it came late by.  Only a runtime knows what its
 * events mean for waiting (an MPI message, an MPI collective, an NCCL instance); it says so
 * through its struct runtime's `waits` hook (model/runtime.h), so that the diagnosis reads the
 * model's structs, never a runtime's.  Times are ns from the trace start. */
#ifndef TPROF_ANALYZE_WAITS_H
#define TPROF_ANALYZE_WAITS_H

#include "output.h"

/* The kinds of wait state, in Scalasca's terms (and their collective equivalents). */
enum wait_kind {
	WAIT_LATE_SENDER = 1,    /* a receive waited for its message's send to begin */
	WAIT_LATE_RECEIVER,      /* a send that could not finish before its receive was posted */
	WAIT_NXN,                /* an all-to-all collective (allreduce, allgather, alltoall...)
				  * waited for the last member to enter */
	WAIT_BARRIER,            /* a barrier waited for the last member */
	WAIT_LATE_BROADCAST,     /* a one-to-all collective (bcast, scatter) waited for its root */
	WAIT_EARLY_REDUCE,       /* the root of an all-to-one collective (reduce, gather) waited
				  * for the last member */
	WAIT_DEVICE_COLL,        /* a device collective (NCCL/RCCL) waited on the device for the
				  * last rank's kernel to start */
};
#define WAIT_KINDS 8             /* enum wait_kind values, and 0 */

/* A process waited from t0 to t1: on a host thread in a call, or on a device (on_device). */
struct wait_span {
	uint8_t kind;                    /* enum wait_kind */
	uint8_t on_device;
	struct proc *proc;
	int64_t t0, t1;
	uint32_t site;                   /* the call (or the operation) it waited in: string id */
	uint32_t caller;                 /* the program's function that made that call
					  * (TPROF_CALLSTACK; 0: not known) */
	uint64_t comm;                   /* its communicator (0: none known) */
	uint32_t seq;                    /* the collective's number on comm (0: a message) */
	int32_t cause_rank;              /* the rank it waited for (world rank), -1 when unknown */
};

/* Who made others wait, once: `late` came at t1, while the others it made wait had been
 * waiting since t0 at the latest (the last of them to begin waiting): the job waited t1 - t0
 * for it alone.  What `late` was doing from t0 to t1 is the cause. */
struct wait_delay {
	uint8_t kind;                    /* enum wait_kind */
	uint8_t on_device;               /* its arrival was its device's (an NCCL kernel's start) */
	struct proc *late;
	int64_t t0, t1;
	uint32_t site;                   /* the call (or the operation) it came late to */
	uint32_t caller;                 /* the program's function that made that call (0: not
					  * known) */
	uint64_t comm;
	uint32_t seq;                    /* the collective's number on comm (0: a message) */
	uint32_t waiters;                /* the processes that waited for it */
	int64_t waited;                  /* their waits, in all */
};

/* Where a runtime's `waits` hook puts what it finds. */
struct wait_sink {
	void *ctx;
	void (*span)(void *ctx, const struct wait_span *w);
	void (*delay)(void *ctx, const struct wait_delay *d);
};

/* The kind's name ("late_sender"), for JSON, and its words ("late sender"), for text. */
const char *wait_kind_key(unsigned kind);
const char *wait_kind_words(unsigned kind);

#endif
