/* events.h — every record kind, listed once.  The recorder writes them, the reader decodes them;
 * the meaning of each field per kind is in the table and in docs/FORMAT.md.
 *
 * Process stream (stream 0), written under a lock, only from slow paths:
 *   STRING  name=id, t0=ticks, arg=length in bytes; the bytes follow in ext units (no NUL)
 *   PROP    name=key string id; flags&TPROF_PROP_INT ? arg=integer : arg=value string id
 *   THREAD  arg=stream id, t0=ticks, t1=tid, name=thread name id (again when renamed)
 *   CLOCK   t0=ticks, t1=CLOCK_MONOTONIC ns, arg=CLOCK_REALTIME ns, flags=enum tprof_clock_when
 *   DROP    arg=stream id, t1=events dropped, flags=enum tprof_drop_reason, t0=ticks
 *   END     t0=ticks, flags=enum tprof_end_why: the image flushed everything (exit, or before
 *           exec; a failed exec carries on, so records may follow)
 *   COMM    an MPI communicator this process belongs to: arg=communicator id, t0=ticks,
 *           name=its name (0: none); ext: struct tprof_comm_def, then the world ranks of its
 *           members from index `first` on (int32, 8 per unit); larger groups take several
 *           records (the same id, increasing `first`)
 *   CSYNC   one clock offset measurement against a reference process (MPI rank 0):
 *           t0=local ticks at the middle of the best round trip, t1=the reference's ticks
 *           when it answered, arg=that round trip in local ticks, flags=enum
 *           tprof_csync_when, name=the reference's host; ext 1 unit: struct tprof_csync
 *   CAPTURE the capture window (common/capture.h) opened (flags=1) or closed (flags=0): t0=ticks,
 *           arg=why (enum tprof_capture_why).  Written at each change once the image has
 *           files; flags=TPROF_CAPTURE_AT_START: closed from the image's start (its files
 *           are then made at once); a process with none recorded from its start to its end
 * Thread streams (1..), written lock-free by their own thread:
 *   PUSH    name, t0, arg=level+1    a range opens (tprof_range_push, roctxRangePushA) at
 *                                    nesting level `level` of its thread (0 outermost)
 *   POP     t0, arg=level+1          the innermost open range, at level `level`, closes
 *                                    (arg 0: level unknown, as older recorders wrote)
 *   MARK    name, t0                 an instant
 *   COUNTER name, t0, arg=double bits
 *   STEP    t0, arg=step number      training step `arg` starts; with flags=TPROF_STEP_END
 *                                    (tprof_step_end) the open step ends and none starts
 *   CALL    name=API function, t0=entry, t1=return (0: it never returned), flags=enum
 *           tprof_domain, arg=correlation id (bits 0-47) | return code (bits 48-63);
 *           ext 0, 1 or 2 units: struct tprof_call_args, then struct tprof_launch_dims;
 *           MPI calls (flags=TPROF_DOM_MPI) instead: struct tprof_mpi_args, then (for a
 *           second side or a request) struct tprof_mpi_args2; NCCL/RCCL calls
 *           (TPROF_DOM_NCCL): struct tprof_nccl_args, struct tprof_nccl_args2; NRT calls
 *           (TPROF_DOM_NRT): struct tprof_nrt_args, then (executions) struct tprof_nrt_exec
 *   MPIREQ  a nonblocking MPI operation completed (Wait/Test families) or a persistent one
 *           started (MPI_Start/Startall) in the call with correlation id `arg`: t0=when that
 *           call returned, name=the call that made the request (MPI_Irecv, MPI_Send_init...),
 *           flags=TPROF_MPIF_* (TPROF_MPIF_STARTED for a start); ext 2 units: struct
 *           tprof_mpi_args (completions: source, tag and bytes as received), struct
 *           tprof_mpi_args2 (the request)
 *   DEVICE  name=kernel or operation, t0=when written, flags=enum tprof_devop_kind,
 *           arg=correlation id; ext 3 units: struct tprof_devop (times in CLOCK_MONOTONIC ns);
 *           collectives (TPROF_DEVOP_COLLECTIVE) carry struct tprof_devop_coll in place of the
 *           launch dimensions
 *   STACK   arg=correlation id, t1=frames; ext: the frames' function-name string ids, 8
 *           per unit, innermost first
 *   ABEGIN  name, t0, arg=range id   a range that may end on another thread (roctxRangeStartA)
 *   AEND    t0, arg=range id         its end (roctxRangeStop)
 *   GAP     records of this thread were lost here: t0, t1=ticks of the first and the last
 *           record lost, arg=records lost, flags=reasons (bit 1 << enum tprof_drop_reason);
 *           ext 1 unit: struct tprof_gap (what the lost records did to ranges and steps)
 *   POLL    a run of consecutive unsuccessful polls on the thread (MPI_Test with flag 0,
 *           MPI_Iprobe finding nothing...), nothing else recorded in between: name=the first
 *           polling function, flags=enum tprof_domain, t0=entry of the first poll, t1=return
 *           of the last, arg=0; ext 1..TPROF_POLL_FNS units, one struct tprof_poll_fn per
 *           function polled in the run.  Written at the first poll and updated in place
 *           while the run lasts (t1 last, after the counts); a function seen first later in
 *           the run adds its unit and rewrites the header word with the new ext
 *
 * PUSH, POP and MARK carry flags=enum tprof_source (which API made them).
 *
 * The system image (common/system-records.h), written by the sampler, not by a recorder:
 *   TASK    stream 0: a process or thread it follows (seen, created, exec, exit, renamed)
 *   MAPS    stream 0: an executable mapping of a followed process
 *   KSYM    stream 0: a kernel symbol that sampled frames fall in
 *   SAMPLE  streams 2+cpu: a CPU sample of a followed thread with its stacks
 *   SCHED   streams 2+cpu (BPF) or 1 (/proc): a followed thread changes state
 *   SYSCTR  stream 1: a sampled counter (core busy share, memory, RSS, faults, CPU time)
 *
 * An imported image (common/import-records.h), written by tprof-analyze from a Chrome trace:
 *   IBEGIN, IEND     a slice (X, or B and E)
 *   IMARK            an instant (i I R, objects O N D, samples P)
 *   ICOUNTER         one series of a counter event (C)
 *   IASYNC           an async event (b e n)
 *   IFLOW            a flow event (s t f)
 */
#ifndef TPROF_EVENTS_H
#define TPROF_EVENTS_H

#define TPROF_KINDS(X)      \
	X(STRING, 1, "string")  \
	X(PROP, 2, "prop")      \
	X(THREAD, 3, "thread")  \
	X(CLOCK, 4, "clock")    \
	X(DROP, 5, "drop")      \
	X(END, 6, "end")        \
	X(COMM, 7, "comm")      \
	X(CSYNC, 8, "csync")    \
	X(CAPTURE, 9, "capture") \
	X(PUSH, 16, "push")     \
	X(POP, 17, "pop")       \
	X(MARK, 18, "mark")     \
	X(COUNTER, 19, "counter") \
	X(STEP, 20, "step")     \
	X(ABEGIN, 21, "abegin") \
	X(AEND, 22, "aend")     \
	X(GAP, 23, "gap")       \
	X(CALL, 24, "call")     \
	X(DEVICE, 25, "device") \
	X(STACK, 26, "stack")   \
	X(MPIREQ, 27, "mpireq") \
	X(POLL, 28, "poll")     \
	X(TASK, 32, "task")     \
	X(MAPS, 33, "maps")     \
	X(KSYM, 34, "ksym")     \
	X(SAMPLE, 35, "sample") \
	X(SCHED, 36, "sched")   \
	X(SYSCTR, 37, "sysctr") \
	X(IBEGIN, 40, "ibegin") \
	X(IEND, 41, "iend")     \
	X(IMARK, 42, "imark")   \
	X(ICOUNTER, 43, "icounter") \
	X(IASYNC, 44, "iasync") \
	X(IFLOW, 45, "iflow")

enum tprof_kind {
#define TPROF_KIND_ENUM(sym, num, str) TPROF_K_##sym = num,
	TPROF_KINDS(TPROF_KIND_ENUM)
#undef TPROF_KIND_ENUM
	TPROF_K_MAX = 256
};

#define TPROF_PROP_INT 0x01u

#include <stdint.h>
#include "domains.h"

/* Which annotation API made a PUSH, POP or MARK. */
/* STEP flags. */
#define TPROF_STEP_END 1u

enum tprof_source {
	TPROF_SRC_TPROF = 0,
	TPROF_SRC_ROCTX = 1,
	TPROF_SRC_NVTX = 2,
};

/* The runtime an API call belongs to (flags of CALL): enum tprof_domain, domains.h. */

#define TPROF_CORR_MASK ((1ull << 48) - 1)
#define TPROF_CALL_RET_SHIFT 48

/* What the fields a and b of struct tprof_call_args mean. */
enum tprof_call_shape {
	TPROF_SHAPE_NONE = 0,
	TPROF_SHAPE_COPY = 1,    /* a = bytes, b = direction (enum tprof_copy_kind) */
	TPROF_SHAPE_MEMSET = 2,  /* a = bytes, b = value */
	TPROF_SHAPE_ALLOC = 3,   /* a = bytes, b = the pointer returned */
	TPROF_SHAPE_FREE = 4,    /* b = the pointer freed */
	TPROF_SHAPE_LAUNCH = 5,  /* a = the function's host address; dims in a second unit */
	TPROF_SHAPE_SYNC = 6,    /* a waiting call: stream (and b = event, if any) */
	TPROF_SHAPE_OBJECT = 7,  /* creates or destroys a stream or event: b = handle */
};

/* First extension unit of a CALL. */
struct tprof_call_args {
	uint16_t shape;          /* enum tprof_call_shape */
	uint16_t device;         /* device addressed, 0xffff when none */
	uint32_t name;           /* launches: kernel name string id */
	uint64_t stream;         /* stream handle (0: the null stream) */
	uint64_t a, b;
};

/* Second extension unit of a launching CALL. */
struct tprof_launch_dims {
	uint32_t grid[3], block[3];
	uint64_t shmem;
};

enum tprof_copy_kind {      /* the HIP/CUDA numbering */
	TPROF_COPY_HTOH = 0,
	TPROF_COPY_HTOD = 1,
	TPROF_COPY_DTOH = 2,
	TPROF_COPY_DTOD = 3,
	TPROF_COPY_DEFAULT = 4,
	TPROF_COPY_PEER = 5,
};

enum tprof_devop_kind {
	TPROF_DEVOP_KERNEL = 1,
	TPROF_DEVOP_COPY = 2,
	TPROF_DEVOP_MEMSET = 3,
	TPROF_DEVOP_GRAPH = 4,
	TPROF_DEVOP_COLLECTIVE = 5,
};

/* A collective (or a group of NCCL operations) as it ran on one device stream: which
 * operation on which communicator, so that the same one is found on every rank. */
struct tprof_devop_coll {
	uint64_t comm;               /* communicator id (struct tprof_nccl_args) */
	uint32_t seq;                /* the operation's number on `comm` (its seq) */
	uint8_t op;                  /* enum tprof_nccl_op; TPROF_NCCL_GROUP_END for a group */
	uint8_t dtype;               /* ncclDataType_t as passed */
	uint16_t nops;               /* operations of the group on this stream (1 outside groups) */
	int32_t rank, nranks;        /* this process's rank in `comm`, its size */
	uint64_t group;              /* the group (struct tprof_nccl_args2), 0 outside groups */
};

/* The three extension units of a DEVICE record: one operation as the device ran it. */
struct tprof_devop {
	int64_t start_ns, end_ns;    /* CLOCK_MONOTONIC of the recording host */
	uint64_t stream;
	uint32_t device;
	uint32_t launch_stream;      /* the tprof stream (thread) that launched it */
	uint64_t launch_t0;          /* ticks of the launching call's entry */
	uint64_t bytes;              /* copies, memsets */
	uint32_t copy_kind;          /* enum tprof_copy_kind */
	uint32_t caller;             /* string id of the launching function (TPROF_CALLSTACK) */
	union {
		struct tprof_launch_dims dims;    /* kernels */
		struct tprof_devop_coll coll;     /* TPROF_DEVOP_COLLECTIVE */
	};
	uint64_t reserved;
};
_Static_assert(sizeof(struct tprof_call_args) == 32, "one unit");
_Static_assert(sizeof(struct tprof_launch_dims) == 32, "one unit");
_Static_assert(sizeof(struct tprof_devop_coll) == 32, "one unit");
_Static_assert(sizeof(struct tprof_devop) == 96, "three units");

/* One function's share of a POLL record: how often it was called in the run, how many of
 * those calls were timed (0 in files written before some went untimed: all of them), and of
 * the timed ones how long in all (ticks) and the shortest and longest (ticks, saturated at
 * UINT32_MAX).  The run's time in this function is busy * count / timed. */
struct tprof_poll_fn {
	uint64_t count;
	uint64_t busy;
	uint32_t name;           /* the function's string id */
	uint32_t min, max;
	uint32_t timed;          /* saturated at UINT32_MAX */
};
_Static_assert(sizeof(struct tprof_poll_fn) == 32, "one unit");
#define TPROF_POLL_FNS 4     /* functions one run can hold */

/* ---- MPI ---------------------------------------------------------------------------------- */

/* What an MPI call does (op of struct tprof_mpi_args). */
enum tprof_mpi_op {
	TPROF_MPI_OTHER = 0,     /* nothing to match: queries, MPI_Comm_rank, ... */
	TPROF_MPI_INIT = 1,      /* MPI_Init, MPI_Init_thread */
	TPROF_MPI_FINALIZE = 2,
	TPROF_MPI_SEND = 3,      /* blocking send, any mode: peer=destination */
	TPROF_MPI_RECV = 4,      /* blocking receive (MPI_Recv, MPI_Mrecv): peer, tag and bytes
				  * as received (from the status) */
	TPROF_MPI_SENDRECV = 5,  /* send side in args, receive side in args2 */
	TPROF_MPI_ISEND = 6,     /* a send posted: matched like SEND; completes in an MPIREQ */
	TPROF_MPI_IRECV = 7,     /* a receive posted: peer/tag as posted (may be ANY); the
				  * message is known at its completing MPIREQ */
	TPROF_MPI_PROBE = 8,     /* MPI_Probe/Iprobe/Mprobe/Improbe: peer/tag of what was found */
	TPROF_MPI_WAIT = 9,      /* Wait/Test families: nreq MPIREQ completions follow */
	TPROF_MPI_COLL = 10,     /* blocking collective: root, bytes sent/received, seq */
	TPROF_MPI_ICOLL = 11,    /* nonblocking collective posted; completes in an MPIREQ */
	TPROF_MPI_COMM = 12,     /* creates or frees a communicator: args2.req = the new id */
	TPROF_MPI_START = 13,    /* MPI_Start/Startall: nreq MPIREQ records (posts) follow */
	TPROF_MPI_IO = 14,       /* MPI-IO on a file: comm = the file's communicator, seq = the
				  * file's number in the process (from 1, in opening order),
				  * args2.file = its name; reads and writes (TPROF_MPIF_READ,
				  * _WRITE): bytes as done (from the status; args2.bytes: as asked
				  * for), as asked for when nonblocking (the completing MPIREQ has
				  * them as done) */
	TPROF_MPI_RMA = 15,      /* one-sided communication on a window: comm = the window's
				  * communicator, tag = the window's number over it (the same on
				  * every member), seq = the fences called on it before (a fence:
				  * its own number, from 1); puts, gets and accumulates: peer =
				  * the target, bytes the origin's (TPROF_MPIF_WRITE: sent to
				  * the target, _READ: fetched from it; both for the atomic ones,
				  * args2.bytes the bytes fetched); lock, unlock, flush: peer =
				  * the rank; window made: args2.bytes = its size in bytes */
};

/* flags of struct tprof_mpi_args and of MPIREQ records */
#define TPROF_MPIF_NONBLOCKING 0x01u
#define TPROF_MPIF_PERSISTENT 0x02u   /* the request came from MPI_Send_init/Recv_init */
#define TPROF_MPIF_CANCELLED 0x04u    /* completed as cancelled: no message */
#define TPROF_MPIF_INPLACE 0x08u      /* MPI_IN_PLACE was passed */
#define TPROF_MPIF_PROC_NULL 0x10u    /* peer was MPI_PROC_NULL: no message */
#define TPROF_MPIF_STARTED 0x20u      /* MPIREQ: the request was started, not completed */
#define TPROF_MPIF_READ 0x40u         /* IO: reads from the file */
#define TPROF_MPIF_WRITE 0x80u        /* IO: writes to the file */

/* Ranks and tags in the MPI records.  Ranks are as the program saw them: within the call's
 * communicator (the remote group's, for an inter-communicator); the COMM records translate
 * them to world ranks. */
#define TPROF_MPI_NONE (-1)          /* no peer, no root */
#define TPROF_MPI_ANY (-2)           /* MPI_ANY_SOURCE, MPI_ANY_TAG as posted */
#define TPROF_MPI_PROCNULL (-3)      /* MPI_PROC_NULL */

/* Fixed communicator ids; every other id is a 64-bit hash both ends compute alike. */
#define TPROF_COMM_NONE 0u
#define TPROF_COMM_WORLD 1u
#define TPROF_COMM_SELF 2u           /* each process's own; matching adds the rank */

/* First extension unit of an MPI CALL (and of an MPIREQ). */
struct tprof_mpi_args {
	uint64_t comm;           /* communicator id, TPROF_COMM_NONE when none */
	uint64_t bytes;          /* bytes sent (sends, collectives) or received (receives) */
	int32_t peer;            /* destination / source / root, a rank in `comm`, or TPROF_MPI_* */
	int32_t tag;             /* tag, or TPROF_MPI_ANY as posted */
	uint32_t seq;            /* collectives: number of the collective on `comm`, from 1, the
				  * same on every member; receives: number of the receive posted by
				  * this process, from 1 (matching follows posting order) */
	uint8_t op;              /* enum tprof_mpi_op */
	uint8_t flags;           /* TPROF_MPIF_* */
	uint16_t nreq;           /* WAIT, START: requests completed or started, one MPIREQ each */
};

/* Second extension unit: the receive side of a SENDRECV, the bytes a collective received,
 * the request of a nonblocking call. */
struct tprof_mpi_args2 {
	uint64_t req;            /* request handle (nonblocking posts, MPIREQ); COMM: new id */
	uint64_t bytes;          /* SENDRECV: bytes received; collectives: bytes received */
	int32_t peer;            /* SENDRECV: source, as received */
	int32_t tag;             /* SENDRECV: tag, as received */
	uint32_t seq;            /* SENDRECV: receive number (as seq above) */
	union {
		uint32_t file;   /* IO: string id of the file's name as opened, 0 when unknown */
		uint32_t group;  /* RMA, MPI_Win_post and _start: string id of the group's world
				  * ranks ("0-3,7"), 0 when unknown */
	};
};

enum tprof_comm_kind {
	TPROF_COMMK_WORLD = 1,
	TPROF_COMMK_SELF = 2,
	TPROF_COMMK_INTRA = 3,
	TPROF_COMMK_INTER = 4,   /* members: the local group, then the remote group */
};

/* First extension unit of a COMM record. */
struct tprof_comm_def {
	uint64_t id;             /* as arg */
	uint64_t parent;         /* the communicator it was made from, 0 when none */
	uint32_t size;           /* members (local group of an inter-communicator) */
	uint32_t remote_size;    /* inter-communicators: members of the remote group */
	uint32_t first;          /* index of the first member listed in this record */
	int32_t my_rank;         /* this process's rank in it */
};

enum tprof_csync_when {
	TPROF_CSYNC_INIT = 0,    /* in MPI_Init, after the runtime started */
	TPROF_CSYNC_FINALIZE = 1,/* in MPI_Finalize, before the runtime stops */
};

/* Extension unit of a CSYNC record. */
struct tprof_csync {
	int64_t ref_pid;         /* the reference process (MPI rank 0) */
	int32_t ref_rank;
	int32_t rank;            /* this process's world rank */
	uint32_t rounds;         /* round trips made; the shortest is kept */
	uint32_t reserved;
	uint64_t reserved2;
};
_Static_assert(sizeof(struct tprof_mpi_args) == 32, "one unit");
_Static_assert(sizeof(struct tprof_mpi_args2) == 32, "one unit");
_Static_assert(sizeof(struct tprof_comm_def) == 32, "one unit");
_Static_assert(sizeof(struct tprof_csync) == 32, "one unit");

/* ---- NCCL / RCCL -------------------------------------------------------------------------- */

/* What an NCCL call does (op of struct tprof_nccl_args). */
enum tprof_nccl_op {
	TPROF_NCCL_OTHER = 0,          /* queries: version, rank, count, device, errors */
	TPROF_NCCL_COMM_INIT = 1,      /* ncclCommInitRank, ...Config, ...Scalable, one of InitAll */
	TPROF_NCCL_COMM_SPLIT = 2,     /* ncclCommSplit: comm = the new id, aux = the parent's */
	TPROF_NCCL_COMM_END = 3,       /* ncclCommFinalize, ncclCommDestroy, ncclCommAbort */
	TPROF_NCCL_GROUP_START = 4,
	TPROF_NCCL_GROUP_END = 5,
	TPROF_NCCL_ALLREDUCE = 16,
	TPROF_NCCL_BROADCAST = 17,     /* ncclBroadcast, ncclBcast */
	TPROF_NCCL_REDUCE = 18,
	TPROF_NCCL_ALLGATHER = 19,
	TPROF_NCCL_REDUCESCATTER = 20,
	TPROF_NCCL_ALLTOALL = 21,      /* ncclAlltoAll (NCCL), ncclAllToAll (RCCL) */
	TPROF_NCCL_GATHER = 22,
	TPROF_NCCL_SCATTER = 23,
	TPROF_NCCL_SEND = 24,
	TPROF_NCCL_RECV = 25,
	TPROF_NCCL_ALLTOALLV = 26,     /* RCCL: count = the largest of its send and receive counts */
};

/* flags of struct tprof_nccl_args */
#define TPROF_NCCLF_INPLACE 0x01u     /* send and receive buffers alias (in-place) */
#define TPROF_NCCLF_GROUPED 0x02u     /* called inside ncclGroupStart/End: timed with its group */
#define TPROF_NCCLF_RCCL 0x04u        /* the library is RCCL (librccl) */
#define TPROF_NCCLF_UNTIMED 0x08u     /* no device timing for it (no runtime events) */

/* First extension unit of an NCCL CALL. */
struct tprof_nccl_args {
	uint64_t comm;           /* communicator id: a hash of its ncclUniqueId (the same on every
				  * rank); split communicators: a hash of (parent id, split number,
				  * color); 0 when none */
	uint64_t count;          /* the count argument as passed */
	uint64_t bytes;          /* count x the datatype's size */
	uint32_t seq;            /* collectives: number of the collective on `comm`, from 1, the
				  * same on every rank; send/recv: number of the send (or receive)
				  * between this rank and `peer` on `comm`, from 1 */
	uint8_t op;              /* enum tprof_nccl_op */
	uint8_t dtype;           /* ncclDataType_t as passed */
	uint8_t redop;           /* ncclRedOp_t as passed (0xff: none) */
	uint8_t flags;           /* TPROF_NCCLF_* */
};

/* Second extension unit of an NCCL CALL. */
struct tprof_nccl_args2 {
	uint64_t stream;         /* the stream passed (cudaStream_t / hipStream_t) */
	uint64_t aux;            /* operations in a group and GROUP_START/END: the group's id (the
				  * correlation id of its outermost ncclGroupStart); COMM_SPLIT: the
				  * parent's communicator id */
	int32_t peer;            /* root (Broadcast, Reduce, Gather, Scatter) or peer (Send, Recv),
				  * a rank in `comm`; -1 when none */
	int32_t rank;            /* this process's rank in `comm` */
	int32_t nranks;          /* ranks in `comm` */
	int32_t device;          /* the communicator's GPU ordinal, -1 when unknown */
};
_Static_assert(sizeof(struct tprof_nccl_args) == 32, "one unit");
_Static_assert(sizeof(struct tprof_nccl_args2) == 32, "one unit");

/* ---- NRT (Neuron runtime) ----------------------------------------------------------------- */

/* What an NRT call does (op of struct tprof_nrt_args). */
enum tprof_nrt_op {
	TPROF_NRT_OTHER = 0,           /* queries, versions, counts */
	TPROF_NRT_INIT = 1,
	TPROF_NRT_CLOSE = 2,
	TPROF_NRT_LOAD = 3,            /* nrt_load, nrt_load_collectives: bytes = NEFF size */
	TPROF_NRT_UNLOAD = 4,
	TPROF_NRT_EXECUTE = 5,         /* nrt_execute, nrt_execute_repeat: the span is the
					* execution; struct tprof_nrt_exec follows */
	TPROF_NRT_TENSOR_ALLOC = 6,
	TPROF_NRT_TENSOR_FREE = 7,
	TPROF_NRT_TENSOR_READ = 8,     /* device to host */
	TPROF_NRT_TENSOR_WRITE = 9,    /* host to device */
	TPROF_NRT_TENSOR_COPY = 10,
	TPROF_NRT_TENSOR_MEMSET = 11,
	TPROF_NRT_SET = 12,            /* tensor set allocate/destroy/add/get */
	TPROF_NRT_COLLECTIVE = 13,     /* nrt_barrier, nrt_all_gather, global comm building */
};

/* First extension unit of an NRT CALL. */
struct tprof_nrt_args {
	uint64_t handle;         /* the model (load, unload, execute) or tensor (tensor calls) */
	uint64_t bytes;          /* tensor calls: bytes allocated, read, written, copied or set;
				  * load: NEFF bytes; execute: input + output tensor bytes */
	uint32_t name;           /* string id: model name (load, unload, execute), tensor name
				  * (tensor calls), 0 when unknown */
	int32_t nc;              /* NeuronCore (vnc) addressed, -1 when none (host tensors) */
	uint16_t op;             /* enum tprof_nrt_op */
	uint8_t placement;       /* tensor calls: nrt_tensor_placement_t */
	uint8_t flags;           /* reserved, 0 */
	uint32_t extra;          /* load: NeuronCores requested (vnc_count); execute_repeat: the
				  * repeat count; otherwise 0 */
};

/* Second extension unit of an execution. */
struct tprof_nrt_exec {
	uint64_t in_bytes, out_bytes;   /* bytes of the tensors in the input and output sets */
	uint32_t in_tensors, out_tensors;
	uint32_t model_nc_count;        /* NeuronCores the model occupies */
	uint32_t reserved;
};
_Static_assert(sizeof(struct tprof_nrt_args) == 32, "one unit");
_Static_assert(sizeof(struct tprof_nrt_exec) == 32, "one unit");

enum tprof_clock_when {
	TPROF_CLOCK_START = 0,
	TPROF_CLOCK_PERIODIC = 1,
	TPROF_CLOCK_FINAL = 2,
};

/* The unit of t0/t1 in this process image: flags of the first CLOCK record's PROP "clock". */
enum tprof_clock_source {
	TPROF_CLOCKSRC_TSC = 1,        /* x86 invariant TSC; CLOCK records map it to nanoseconds */
	TPROF_CLOCKSRC_MONOTONIC = 2,  /* CLOCK_MONOTONIC nanoseconds */
};

enum tprof_end_why {
	TPROF_END_EXIT = 0,
	TPROF_END_EXEC = 1,
};

enum tprof_drop_reason {
	TPROF_DROP_MAX_EVENTS = 1,     /* TPROF_MAX_EVENTS reached */
	TPROF_DROP_NO_BUFFER = 2,      /* every buffer full: the flusher fell behind */
	TPROF_DROP_STOPPED = 3,        /* recording stopped after an output error */
	TPROF_DROP_DEVICE = 4,         /* device operations left untimed (queue full, events) */
	TPROF_DROP_SAMPLES = 5,        /* system records the kernel could not hand over (its ring
					* buffer was full) */
	TPROF_DROP_REENTERED = 6,      /* made while its thread was inside the recorder: a signal
					* handler that interrupted the recorder's own work */
	TPROF_DROP_NO_FILES = 7,       /* the process image could not create its files */
};
#define TPROF_DROP_REASONS 8           /* reasons are below this */

/* A GAP record's extension unit: what the lost records did, so that a reader pairs ranges
 * exactly across the gap.  Levels are 1-based (0: none). */
struct tprof_gap {
	uint32_t low;           /* 1 + the lowest level a lost PUSH or POP opened or closed */
	uint32_t depth;         /* ranges open on the thread when recording resumed */
	uint32_t abegins;       /* ABEGIN records lost */
	uint32_t aends;         /* AEND records lost */
	uint32_t steps;         /* STEP records lost */
	uint32_t reserved[3];
};
_Static_assert(sizeof(struct tprof_gap) == 32, "one unit");

const char *tprof_kind_name(unsigned kind);
const char *tprof_drop_reason_name(unsigned reason);

#endif
