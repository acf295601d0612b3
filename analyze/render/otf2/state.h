/* render/otf2/state.h — the OTF2 writer's shared state (out-otf2*.c): the locations events go
 * to and what each still owes (regions to leave, device work to put in order, MPI
 * completions that belong inside a call), the definitions gathered while events are
 * written, and the MPI requests in flight.  Then what each file of the writer offers the
 * others, in layers; a file calls only files below it in this list:
 *   the output              render/otf2/otf2.c: begin, each event to its writer, end
 *   event writers           render/otf2/host.c: host threads (calls, ranges, marks)
 *                           render/otf2/mpi.c: the MPI records of a thread's calls
 *                           render/otf2/device.c: device streams
 *                           runtimes/nrt/otf2.c: NeuronCores (NRT work on them)
 *                           render/otf2/process.c: steps, counters, ranges across threads
 *   definition writers      render/otf2/globaldefs.c: every definition, in order, at the end
 *                           render/otf2/system.c: system tree, location groups, locations
 *                           render/otf2/comms.c: MPI groups and communicators
 *   records                 render/otf2/loc.c: locations, their times, Enter/Leave, attributes
 *   definitions registry    render/otf2/defs.c: refs handed out while events are written
 *   leaves                  render/otf2/collop.c: MPI collectives by name
 *                           render/otf2/error.c: errors of writing
 * The declarations below go from the bottom of the list up. */
#ifndef TPROF_ANALYZE_OUT_OTF2_STATE_H
#define TPROF_ANALYZE_OUT_OTF2_STATE_H

#include <otf2/otf2.h>

#include "../../model/output.h"

#define T_OPEN INT64_MAX          /* the end of a range not closed yet */

/* An MPI record to write at some time on some location (render/otf2/mpi.c). */
enum mrec_kind {
	MR_NONE = 0,
	MR_SEND,          /* MpiSend */
	MR_RECV,          /* MpiRecv */
	MR_ISEND,         /* MpiIsend */
	MR_ISEND_DONE,    /* MpiIsendComplete */
	MR_IRECV_REQ,     /* MpiIrecvRequest */
	MR_IRECV,         /* MpiIrecv */
	MR_CANCELLED,     /* MpiRequestCancelled */
	MR_COLL_BEGIN,    /* MpiCollectiveBegin */
	MR_COLL_END,      /* MpiCollectiveEnd */
	MR_NBC_REQ,       /* NonBlockingCollectiveRequest */
	MR_NBC_DONE,      /* NonBlockingCollectiveComplete */
};

struct mrec {
	uint8_t kind;            /* enum mrec_kind */
	uint8_t op;              /* OTF2_CollectiveOp */
	uint32_t peer;           /* receiver, sender or root (a rank in comm) */
	uint32_t tag;
	OTF2_CommRef comm;
	uint64_t bytes;          /* message length; collectives: bytes sent */
	uint64_t bytes2;         /* collectives: bytes received */
	uint64_t req;            /* request id */
};

/* An open region on a host location. */
struct frame {
	OTF2_RegionRef region;
	int64_t t0, end;         /* end: T_OPEN while a range is not closed */
	int32_t depth;           /* ranges: their depth in the pipeline; calls: -1 */
	uint8_t entered;         /* its Enter is written (a range begun before the window
				  * waits until something inside the window needs it) */
	uint8_t skip;            /* a range begun after the window: never written */
	unsigned flags;          /* EVF_* of its end, for the Leave's attributes */
	struct mrec pre;         /* written just before the Leave (MpiRecv, collective end) */
};

/* An MPI completion waiting for its call (the two may come in either order). */
struct held {
	int64_t t;
	struct mrec m;
};

/* Device work waiting to be written in start order. */
struct devop {
	int64_t t0, t1;
	OTF2_RegionRef region;
	uint8_t kind, copy_kind;
	unsigned flags;
	uint32_t device, caller;
	uint64_t stream, corr, bytes;
	struct tprof_launch_dims dims;
};

enum loc_kind {
	LOC_THREAD,              /* a host thread */
	LOC_STEPS,               /* a process's training steps */
	LOC_ASYNC,               /* ranges that may end on another thread, in lanes */
	LOC_COUNTERS,            /* a process's counters (a metric location) */
	LOC_DEVICE,              /* one stream of one device */
	LOC_STUB,                /* an empty thread: for an MPI rank, or a process, that
				  * has no thread with events */
	LOC_NEURONCORE,          /* one lane of one NeuronCore of a process (NRT work) */
};

struct loc {
	uint64_t id;
	OTF2_EvtWriter *w;
	enum loc_kind kind;
	struct proc *proc;
	const struct thread *th;         /* LOC_THREAD */
	uint32_t device;                 /* LOC_DEVICE; LOC_NEURONCORE: the core */
	uint64_t stream;
	int stream_no;                   /* per device, in order of appearance; 0: null stream;
					  * LOC_NEURONCORE: the lane, from 0 */
	int lane;                        /* LOC_ASYNC, from 1 */
	int32_t rank;                    /* LOC_STUB without a process: its world rank, or -1
					  * for members no record names */
	int rank_loc;                    /* stands for its process's rank in MPI */
	int64_t last;                    /* latest time written, ns from the trace start */
	uint64_t events;                 /* counted at the end, before its writer closes */
	struct frame *stack;             /* LOC_THREAD */
	size_t depth, cap;
	size_t open_ranges;              /* frames of ranges not closed yet */
	size_t pending;                  /* frames waiting for the window (not entered) */
	struct held *held;
	size_t nheld, capheld;
	struct devop *heap;              /* LOC_DEVICE: by t0 */
	size_t nheap, capheap;
};

/* Per process: its locations and, once definitions are prepared, its location group. */
struct pstate {
	struct loc **threads;            /* by stream id */
	size_t nthreads;
	struct loc *steps, *counters;
	struct loc **lanes;
	size_t nlanes;
	struct loc **devs;               /* device streams, in order of appearance */
	size_t ndevs;
	struct loc **ncs;                /* NeuronCore lanes, in order of appearance */
	size_t nncs;
	struct loc *mpi_loc;             /* the first thread that wrote MPI records */
	struct loc *stub;                /* an empty thread, where the process needs one */
	OTF2_LocationGroupRef group;
	int rank_slot;                   /* holds its rank in the MPI location list */
	int defined;                     /* has locations worth defining */
};

/* An MPI request in flight (render/otf2/mpi.c). */
struct req {
	uint64_t handle;                 /* as recorded (tprof_mpi_args2.req) */
	int proc;                        /* process index */
	int used;
	uint64_t id;                     /* the request id written to the trace */
	struct mrec m;                   /* what its completion writes (kind, comm, ...) */
};

struct otf2_defs;

struct otf2 {
	char *dir;
	const struct window *win;
	const struct trace *tr;
	OTF2_Archive *ar;
	OTF2_AttributeList *attrs;
	struct otf2_defs *defs;
	struct pstate *ps;               /* by process index - 1 */
	size_t nprocs;
	struct loc **locs;               /* every location, by id */
	size_t nlocs, caplocs;
	int64_t max_t;                   /* latest time written */
	int failed;
	/* MPI */
	struct req *reqs;
	size_t nreqs, capreqs;
	uint64_t next_req;
	uint64_t mpi_skipped;            /* MPI records left out: communicator unknown */
	uint64_t req_unknown;            /* completions of requests never seen posted */
	/* decided at the end (otf2_system_prepare) */
	int mpi;                         /* the trace has MPI: MPI groups and communicators */
	struct loc **rank_locs;          /* the location of each world rank, then one for
					  * members no record names (when any) */
	size_t nrank_locs, world;
	size_t ngroups;                  /* process groups (device groups follow) */
};

/* ---- render/otf2/error.c: errors of writing -------------------------------------------------- */

/* libotf2's errors are reported through o from here on (until otf2_errors_release). */
void otf2_errors_catch(struct otf2 *o);
void otf2_errors_release(void);
/* A failed call's error is said once; the output is marked failed. */
void otf2_check(struct otf2 *o, OTF2_ErrorCode rc);

/* ---- render/otf2/collop.c -------------------------------------------------------------------- */

int otf2_coll_op(unsigned coll);   /* an enum msgpass_coll as OTF2_CollectiveOp, or -1 */

/* ---- render/otf2/defs.c: the definitions registry -------------------------------------------- */

enum region_cat {
	RC_RANGE,               /* tprof and NVTX ranges */
	RC_ROCTX,               /* roctx ranges, also those across threads */
	RC_MARK,
	RC_STEP,
	RC_CALL,                /* + enum tprof_domain (RC_CALL + 0: unknown domain) */
	RC_DEVICE = RC_CALL + 8, /* + enum tprof_devop_kind (8 of each at most) */
	RC_NRT_EXEC = RC_DEVICE + 8, /* an execution on a NeuronCore, named by its model */
	RC_NRT_CORE,            /* another NRT call on a NeuronCore, named by the call */
};
enum attr_id {
	A_CORR, A_RETURN, A_DEVICE, A_STREAM, A_BYTES, A_COPY_KIND, A_KERNEL, A_GRID, A_BLOCK,
	A_SHMEM, A_CALLER, A_UNFINISHED, A_CLIPPED,
	A_NC, A_MODEL, A_STATUS, A_IN_BYTES, A_OUT_BYTES, A_TENSOR, A_PLACEMENT, A_REPEAT,
	A_POLLS, A_POLL_TIME,
	A_MAX
};
struct otf2_defs *otf2_defs_new(const struct trace *tr);
void otf2_defs_free(struct otf2_defs *d);
OTF2_StringRef otf2_str(struct otf2_defs *d, const char *s);
OTF2_StringRef otf2_tstr(struct otf2_defs *d, uint32_t trace_id);
OTF2_RegionRef otf2_region(struct otf2_defs *d, uint32_t name, int cat);
/* A region whose calls are the collective `coll` (enum msgpass_coll): its role says which. */
void otf2_region_coll(struct otf2_defs *d, OTF2_RegionRef r, unsigned coll);
OTF2_AttributeRef otf2_attr(struct otf2_defs *d, enum attr_id a);
OTF2_ParameterRef otf2_step_param(struct otf2_defs *d);
OTF2_MetricRef otf2_metric(struct otf2_defs *d, uint32_t name, uint64_t recorder);
/* A communicator's ref; OTF2_UNDEFINED_COMM when the trace does not describe it. */
OTF2_CommRef otf2_comm(struct otf2_defs *d, const struct mpi_comm *c, uint64_t id);
/* Communicators by ref (0 .. count-1, the order to define them in): the communicator, or
 * NULL for MPI_COMM_WORLD without a COMM record and for MPI_COMM_SELF (*world, *self). */
OTF2_CommRef otf2_comm_count(const struct otf2_defs *d);
const struct mpi_comm *otf2_comm_at(const struct otf2_defs *d, OTF2_CommRef ref, int *world,
				    int *self);
/* Writing o->defs' definitions: the strings first, then each kind when its turn comes, and
 * done once the last definition naming a string is written. */
void otf2_defs_write_strings(struct otf2 *o, OTF2_GlobalDefWriter *gw);
void otf2_defs_write_attributes(struct otf2 *o, OTF2_GlobalDefWriter *gw);
void otf2_defs_write_regions(struct otf2 *o, OTF2_GlobalDefWriter *gw);
void otf2_defs_write_metrics(struct otf2 *o, OTF2_GlobalDefWriter *gw);
void otf2_defs_write_done(struct otf2 *o);

/* ---- render/otf2/loc.c: locations and records ------------------------------------------------ */

/* The per-process tables (o->ps), and everything about the locations freed at the end. */
void otf2_locs_new(struct otf2 *o, const struct trace *tr);
void otf2_locs_free(struct otf2 *o);
struct pstate *otf2_pstate(struct otf2 *o, const struct proc *p);
struct loc *otf2_loc_new(struct otf2 *o, enum loc_kind kind, struct proc *p);
OTF2_TimeStamp otf2_time(struct otf2 *o, struct loc *l, int64_t t);
void otf2_enter(struct otf2 *o, struct loc *l, int64_t t, OTF2_RegionRef r);
void otf2_leave(struct otf2 *o, struct loc *l, int64_t t, OTF2_RegionRef r);
void otf2_attr_flags(struct otf2 *o, unsigned flags);
void otf2_attr_copy(struct otf2 *o, uint64_t bytes, uint32_t copy_kind);
void otf2_attr_dims(struct otf2 *o, const struct tprof_launch_dims *d);
/* An NRT call's arguments (model, bytes, tensor, placement, status), on core nc (-1: none). */
void otf2_attr_nrt(struct otf2 *o, const struct call_info *ci, int32_t nc);

/* ---- render/otf2/comms.c: MPI groups and communicators --------------------------------------- */

void otf2_comms_write(struct otf2 *o, OTF2_GlobalDefWriter *gw);

/* ---- render/otf2/system.c: the system tree, location groups and locations -------------------- */

/* Which location stands for each MPI rank, and locations for ranks and processes that
 * have none of their own; before the event writers close. */
void otf2_system_prepare(struct otf2 *o);
int otf2_loc_defined(const struct loc *l);
void otf2_system_write(struct otf2 *o, OTF2_GlobalDefWriter *gw);
void otf2_local_defs_write(struct otf2 *o);

/* ---- render/otf2/globaldefs.c ---------------------------------------------------------------- */

/* Everything the archive needs besides the events; the event writers are closed by then. */
void otf2_globaldefs_write(struct otf2 *o);

/* ---- the event writers -------------------------------------------------------------------- */

/* render/otf2/process.c: a process's steps, counters, ranges across threads */
void otf2_step_event(struct otf2 *o, const struct event *ev);
void otf2_counter_event(struct otf2 *o, const struct event *ev);
void otf2_async_event(struct otf2 *o, const struct event *ev);

/* runtimes/nrt/otf2.c: the work of an NRT call (ev->call->nrt set) on the NeuronCores it
 * occupies; none for a call that occupies none */
void otf2_nrt_event(struct otf2 *o, const struct event *ev);

/* render/otf2/device.c: device streams */
void otf2_device_event(struct otf2 *o, const struct event *ev);
void otf2_device_finish(struct otf2 *o, struct loc *l);

/* render/otf2/mpi.c: MPI records from the model's message-passing facts (struct msgpass) */
/* The records of a call of process `proc`: after its Enter, and before its Leave. */
void otf2_mpi_call(struct otf2 *o, const struct msgpass *mp, int proc, struct mrec *after_enter,
		   struct mrec *before_leave);
/* The record of a request completed or started inside a call (MR_NONE: none to write). */
void otf2_mpi_req(struct otf2 *o, const struct msgpass *mp, int proc, struct mrec *m);
void otf2_mpi_write(struct otf2 *o, struct loc *l, int64_t t, const struct mrec *m);
void otf2_mpi_free(struct otf2 *o);

/* render/otf2/host.c: host threads (calls, ranges, marks, MPI records in order) */
void otf2_host_event(struct otf2 *o, const struct event *ev);
void otf2_host_finish(struct otf2 *o, struct loc *l);

#endif
