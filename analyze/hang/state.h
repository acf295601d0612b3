/* hang/state.h — what the hang analysis gathers while the events flow (gather.c) and reads at
 * the end (findings.c, report.c): each process's calls in progress, its progress, its steps
 * and its device work launched and not finished; each communicator's members with the newest
 * collective each entered and left; the collectives some member had not left when the data
 * ended; the point-to-point operations without their other end.  Only these files see it. */
#ifndef TPROF_ANALYZE_HANG_STATE_H
#define TPROF_ANALYZE_HANG_STATE_H

#include <stdint.h>

#include "../model/hangs.h"
#include "../util/hpool.h"
#include "../util/u64map.h"
#include "hang.h"

/* A call that never returned. */
struct hcall {
	struct thread *thread;
	uint32_t name;
	uint8_t domain;
	int64_t t0;
	uint8_t waits_device;            /* a waiting call (a stream or device sync) */
	uint64_t stream;                 /* the stream it waits for (when it names one) */
	uint32_t caller;
};

/* Work put on a device and not seen to end. */
struct hwork {
	uint32_t name;                   /* the kernel's, or the call's (a copy) */
	int64_t t0;                      /* its launch */
};

#define HSTREAM_HELD 64                  /* the oldest works kept per stream; more are counted */

/* A device stream of a process, as its launches and its device spans tell. */
struct hstream {
	uint64_t stream;
	uint32_t ordinal;                /* 1, 2...: in the order the process first used it */
	struct hwork held[HSTREAM_HELD]; /* launched, not seen on the device, oldest first */
	uint32_t nheld;
	uint64_t more;                   /* launched after those, not seen either */
	uint64_t spans;                  /* device spans seen */
};

struct hproc {
	struct proc *p;
	struct hcall *calls;             /* in progress, in the order read */
	size_t ncalls, capcalls;
	int64_t progress;                /* the latest moment it was seen to get on: a call
					  * returned, device work ended, a range or step began
					  * or ended; INT64_MIN: never */
	uint32_t last_name;              /* the call that returned then (0: something else) */
	int has_step;
	uint64_t step;                   /* the newest step it began */
	int64_t step_t0;
	struct hstream *streams;
	size_t nstreams, capstreams;
	uint64_t spans;                  /* device spans seen, on every stream */
	int alive;                       /* live view: 1 its process runs, 0 it is gone, -1 not
					  * known (another host, or not asked) */
};

/* A member of a communicator, and the newest collective it entered and left there. */
struct hmember {
	struct hpool_item item;          /* by (comm, process) in hang.members */
	uint64_t comm;
	struct proc *proc;
	int32_t rank;                    /* in comm, -1: not known */
	uint32_t entered, left;          /* seq, 0: none */
	uint32_t entered_name, left_name;
	int64_t entered_t0, left_t1;
};

/* A communicator. */
struct hcomm {
	uint64_t comm;
	uint32_t name;                   /* string id, 0: none */
	uint32_t size;                   /* 0: not known */
	const int32_t *world;            /* as struct hang_coll's */
	uint32_t nworld;
	uint8_t ranks_are_world;
	uint8_t on_device;
	struct hmember **m;              /* its members seen, in the order first seen */
	size_t nm, capm;
};

/* A collective some member had not left (or not every member was seen in). */
struct hcoll {
	struct hpool_item item;          /* by (comm, seq) in hang.colls */
	uint64_t comm;
	uint32_t seq;
	uint32_t size;
	uint32_t comm_name;
	uint8_t on_device;
	struct hang_member *m;
	size_t nm, capm;
	size_t left;                     /* members that left */
};

/* Two members of one collective that asked differently. */
struct hmismatch {
	uint64_t comm;
	uint32_t comm_name, seq;
	struct hang_member a, b;         /* the first member, and the first that differs */
	uint32_t differ;                 /* members that differ from the first */
	uint32_t members;
};
#define MISMATCH_HELD 16

struct hang_ends;

struct hang {
	const struct runtime_set *rts;
	struct hang_sink sink;
	const struct trace *tr;
	int64_t now;                     /* ns from the trace start: the moment looked at */
	int live;                        /* the processes may still run */
	struct hproc *procs;             /* by process number - 1 */
	size_t nprocs;
	struct hpool members;
	struct hcomm *comms;
	size_t ncomms, capcomms;
	struct hpool colls;
	struct hmismatch mismatch[MISMATCH_HELD];
	size_t nmismatch;
	uint64_t mismatches;             /* in all */
	struct hang_p2p *p2p;
	size_t np2p, capp2p;
	struct u64map sending;          /* blocking sends in progress, by send_key: their p2p */
	struct hang_ends *ends;         /* p2p by their ends (ends.h), once settled */
	struct hfinding *findings;       /* findings.c */
	size_t nfindings, capfindings;
};

/* findings.c: at the end of the data, what was found (struct hfinding, findings.h) */
void hang_settle(struct hang *h);

/* gather.c: what the events and the runtimes say, kept (output.c hands them over) */
void hang_gather_init(struct hang *h);
void hang_gather_begin(struct hang *h, const struct trace *tr);
void hang_gather_event(struct hang *h, const struct event *ev);
void hang_gather_free(struct hang *h);
struct hproc *hang_proc(struct hang *h, const struct proc *p);
struct hcomm *hang_comm(struct hang *h, uint64_t comm);
/* The process that is rank `rank` of comm (world ranks for a communicator whose members are
 * listed), NULL when not known. */
struct proc *hang_member_proc(const struct hang *h, const struct hcomm *c, int32_t rank);
/* Counts (and keeps the first MISMATCH_HELD of) a collective whose members asked differently:
 * another call, or another size where both say one. */
void hang_check_alike(struct hang *h, uint64_t comm, uint32_t comm_name, uint32_t seq,
		      const struct hang_member *m, size_t n);
/* The open collectives, in (comm, seq) order (an array the caller frees). */
struct hcoll **hang_open_colls(const struct hang *h, size_t *n);

#endif
