/* output.h — what every output back end sees: events in (roughly) time order, after ranges
 * are paired and the window is applied.  Chrome JSON and the summary are peers behind these
 * ops; each gets begin, every event, and end (where it writes its per-process metadata). */
#ifndef TPROF_ANALYZE_OUTPUT_H
#define TPROF_ANALYZE_OUTPUT_H

#include <stdio.h>

#include "../read/trace.h"

enum ev_kind {
	EV_RANGE = 1,    /* a closed range: t0..t1, depth */
	EV_MARK,         /* an instant at t0 */
	EV_COUNTER,      /* value from t0 on */
	EV_STEP,         /* training step `step`: t0..t1 (process-wide) */
	EV_CALL,         /* an API call on a host thread: t0..t1, struct call_info */
	EV_DEVICE,       /* work a device ran: t0..t1, struct device_info */
	EV_ASYNC,        /* a range that may cross threads (roctxRangeStart/Stop): t0..t1, id */
	EV_MPIREQ,       /* a nonblocking MPI operation completed (or a persistent one started)
			  * at t0, inside the call on `thread` that did it: struct mpi_info */
	EV_MESSAGE,      /* an MPI message matched, sender to receiver: struct message_info;
			  * emitted once both ends are known (so not in time order); proc and
			  * thread are the receiver's, t0 the send's start, t1 the receive's
			  * completion; kept when t1 lies in the window, never clipped */
	EV_COLLECTIVE,   /* one MPI collective as all members of its communicator ran it:
			  * struct coll_info; emitted when the last member's call is known (or,
			  * flagged EVF_INCOMPLETE, at the end); proc and thread are the last
			  * member to enter, name the call's, t0 the first entry, t1 the last
			  * exit; kept when it overlaps the window, never clipped */
	EV_BEGIN,        /* a range opened at t0 (depth, name, source), only when the
			  * pipeline's want_begins is set; its EV_RANGE follows at its end */
	EV_NCCL,         /* NCCL/RCCL launches of every rank linked by their operations (the
			  * same collective on all ranks): struct nccl_inst (nccl.h); emitted
			  * once all are known (flagged EVF_INCOMPLETE, at the end, when not);
			  * proc and thread are the last to enter, name the first launch's
			  * label, t0..t1 covers their calls and device spans; never clipped */
	EV_SAMPLE,       /* a CPU sample of `thread` at t0: struct sample_info; name = the
			  * innermost frame's function */
	EV_STATE,        /* `thread` was in scheduling state `state` (enum tprof_sched_state)
			  * from t0 to t1; name = the state's name ("Running") */
	EV_FLOW,         /* an imported flow arrow (runtimes/import) from t0 on its `imp`
			  * source thread to t1 on `thread`; name = its name */
	EV_RMA,          /* an MPI one-sided transfer linked to the call that ended its epoch
			  * at the target (runtimes/mpi/rma.c): info = struct rma_info
			  * (runtimes/mpi/mpi.h); proc and thread the target's, name the
			  * transfer's call, t0 its start, t1 the end of the target's call;
			  * emitted once both are known; kept when t1 lies in the window */
};
#define EV_LAST EV_RMA     /* the highest enum ev_kind */

/* A CPU sample (EV_SAMPLE): its call stack as function names (trace-wide string ids),
 * innermost first; the first nkernel are kernel frames, the rest user frames. */
struct sample_info {
	const uint32_t *frames;
	uint32_t n, nkernel;
	uint32_t cpu;                    /* the CPU it ran on */
	int user_trunc;                  /* the user stack was cut at the frame limit */
};

/* A matched MPI message (EV_MESSAGE); times in ns from the trace start. */
struct message_info {
	const struct mpi_comm *comm;
	uint64_t comm_id;
	int32_t src, dst;                /* world ranks */
	int32_t tag;
	uint64_t bytes;                  /* as received */
	uint64_t id;                     /* unique within the job (n * K + analysis process):
					  * flow ids */
	struct proc *sproc, *rproc;
	struct thread *sthread, *rthread;
	int64_t send_t0, send_t1;        /* the sending call (MPI_Send, MPI_Isend...) */
	int64_t recv_t0, recv_t1;        /* the call in which the receive completed (MPI_Recv,
					  * MPI_Wait...) */
	int64_t recv_done;               /* when it completed (inside that call) */
	int64_t post_t0;                 /* the call that posted the receive (= recv_t0 when
					  * blocking) */
	int blocking;                    /* received by a blocking call (late sender applies) */
	uint32_t send_caller, recv_caller, post_caller;   /* the program's functions that made
					  * the send, the call the receive completed in and the
					  * one that posted it (TPROF_CALLSTACK; 0: not known) */
};

/* One member's part in a collective (struct coll_info); times in ns from the trace start. */
struct coll_member {
	struct proc *proc;
	struct thread *thread;           /* the thread that entered it */
	int32_t world;                   /* world rank */
	uint32_t name;                   /* its call's name (trace-wide id) */
	uint32_t caller;                 /* the program's function that made that call
					  * (TPROF_CALLSTACK; 0: not known) */
	int64_t t0, t1;                  /* entry (the call, or the nonblocking post) and exit
					  * (the call's return, or the request's completion) */
	int64_t post_t1;                 /* return of the call that entered it */
	int64_t done_t0, done_t1;        /* the call in which it ended (the same call when
					  * blocking; MPI_Wait... for a nonblocking one) */
	struct thread *done_thread;
	uint64_t bytes_sent, bytes_recv;
	int done_kept;                   /* the call it ended in is kept by the window */
};

/* One collective on all members (EV_COLLECTIVE); times in ns from the trace start. */
struct coll_info {
	const struct mpi_comm *comm;
	uint64_t comm_id;
	uint32_t seq;
	uint32_t name;                   /* trace-wide id of the call's name (MPI_Allreduce) */
	uint32_t members, seen;          /* the communicator's size, members whose call was read */
	int32_t root_world;              /* or TPROF_MPI_NONE */
	int64_t first_begin, last_begin; /* earliest and latest entry of a member */
	int64_t first_end, last_end;
	uint64_t bytes_sent, bytes_recv; /* summed over the members */
	uint64_t id;                     /* unique within the job: n * K + analysis process, n
					  * in order of emission */
	const struct coll_member *m;     /* the members seen, in the order they were read */
	uint32_t nm;                     /* = seen */
	int names_differ;                /* a member called something else than m[0] did */
	int64_t wait_total;              /* sum over the members of last_begin - own entry */
	int last_kept;                   /* the call of the last member to enter is kept by the
					  * window (its arrows start there) */
};

/* Message passing as the model describes it: what a call sent or received, which request it posted
 * or which collective it took part in (EV_CALL), or which request completed or was started inside
 * one (EV_MPIREQ), in the terms a trace format of message passing uses (OTF2's MPI records); and
 * the parallel I/O of the same runtime (OTF2's I/O records).  The runtime whose events they are
 * says (struct runtime's msgpass, runtimes/mpi), the scene hands it to its renderers with the
 * call's item, and a renderer that writes such records needs nothing of the runtime's own.  Ranks
 * are ranks in the communicator; a request is the process's handle, which may be reused once it is
 * done. */
enum msgpass_kind {
	MP_SEND = 1,     /* a blocking send: to peer, tag, bytes */
	MP_RECV,         /* a blocking receive: from peer, tag, bytes as received */
	MP_SENDRECV,     /* both: the send in peer, tag, bytes, the receive in peer2, tag2, bytes2 */
	MP_ISEND,        /* a send posted as request req (a call, or a persistent one started) */
	MP_IRECV,        /* a receive posted as request req (likewise) */
	MP_COLL,         /* a blocking collective: coll, root (peer), bytes sent, bytes2 received */
	MP_ICOLL,        /* a nonblocking collective posted as request req: coll, root, bytes... */
	MP_DONE,         /* request req completed; a receive's: from peer, tag, bytes as received;
			  * a read's or write's: bytes as done */
	MP_IO_OPEN,      /* file number `handle` of the process opened: its name `file` */
	MP_IO_CLOSE,     /* file number `handle` closed */
	MP_IO,           /* a blocking read or write (MPF_IO_*) on file `handle`: bytes done */
	MP_IIO,          /* a nonblocking one posted as request req: bytes asked for */
	MP_RMA_WIN,      /* one-sided communication: window `window` of comm made */
	MP_RMA_FREE,     /* freed */
	MP_RMA_FENCE,    /* a fence on it: the operations before it complete */
	MP_RMA_LOCK,     /* rank peer (-1: all) locked (MPF_RMA_EXCLUSIVE) */
	MP_RMA_UNLOCK,   /* rank peer (-1: all) unlocked: the operations before it complete */
	MP_RMA_CLOSE,    /* an access epoch ended or a flush: the operations before it complete */
	MP_RMA_OP,       /* a put, get or atomic operation (MPF_RMA_*) to target peer: bytes sent
			  * or fetched, bytes2 fetched by an atomic one; request req when it has
			  * one */
};

/* Collective operations, as MPI (and OTF2) know them. */
enum msgpass_coll {
	MPC_NONE = 0, MPC_BARRIER, MPC_BCAST, MPC_GATHER, MPC_GATHERV, MPC_SCATTER, MPC_SCATTERV,
	MPC_ALLGATHER, MPC_ALLGATHERV, MPC_ALLTOALL, MPC_ALLTOALLV, MPC_ALLTOALLW, MPC_ALLREDUCE,
	MPC_REDUCE, MPC_REDUCE_SCATTER, MPC_REDUCE_SCATTER_BLOCK, MPC_SCAN, MPC_EXSCAN,
};

#define MPF_NULL 0x1        /* no message passes (MPI_PROC_NULL, a send to no peer) */
#define MPF_CANCELLED 0x2   /* MP_DONE: the request completed as cancelled */
#define MPF_IO_READ 0x4     /* MP_IO, MP_IIO: reads */
#define MPF_IO_WRITE 0x8    /* writes */
#define MPF_IO_COLLECTIVE 0x10   /* every process of the file's communicator takes part */
#define MPF_RMA_PUT 0x4     /* MP_RMA_OP: a put */
#define MPF_RMA_GET 0x8     /* a get */
#define MPF_RMA_ATOMIC 0x10 /* an accumulate, fetch-and-op, compare-and-swap */
#define MPF_RMA_EXCLUSIVE 0x20   /* MP_RMA_LOCK: an exclusive lock */

struct msgpass {
	uint8_t kind;                    /* enum msgpass_kind */
	uint8_t coll;                    /* enum msgpass_coll (MPC_NONE: not one OTF2 knows) */
	uint8_t flags;                   /* MPF_* */
	int32_t peer, tag;               /* peer: a rank in the communicator; negative: none,
					  * or any as posted */
	uint64_t bytes;
	int32_t peer2, tag2;             /* MP_SENDRECV's receive */
	uint64_t bytes2;
	const struct mpi_comm *comm;     /* NULL when no COMM record describes comm_id */
	uint64_t comm_id;
	uint64_t req;                    /* the request's handle (MP_ISEND, MP_IRECV, MP_ICOLL,
					  * MP_IIO, MP_DONE) */
	uint32_t handle;                 /* I/O: the file's number in the process, from 1 */
	uint32_t file;                   /* I/O: its name, a trace string id (0: unknown) */
	int32_t window;                  /* RMA: the window's number over comm */
};


/* A run of unsuccessful polls (MPI_Test finding nothing, again and again), recorded as one
 * POLL record: an EV_CALL from the first poll's entry to the last one's return, named after
 * its functions, with per function the exact number of calls and their time in ns. */
struct poll_fn_info {
	uint32_t name;                   /* trace-wide id */
	uint64_t count;
	int64_t busy, min, max;          /* in all, shortest, longest */
};
struct poll_info {
	unsigned n;
	uint64_t polls;                  /* sum of the counts */
	int64_t busy;                    /* sum of the busy times */
	struct poll_fn_info fn[TPROF_POLL_FNS];
};

/* What an API call recorded (EV_CALL). */
struct call_info {
	uint8_t domain;                  /* enum tprof_domain */
	uint64_t corr;
	int ret;
	int has_args;
	struct tprof_call_args args;
	int has_dims;
	struct tprof_launch_dims dims;
	const uint32_t *stack;           /* frame name ids, innermost first (TPROF_CALLSTACK) */
	uint32_t nstack;
	uint32_t caller;                 /* of the stack, the program's function that made the
					  * call (the first frame outside the runtime); 0: none */
	const struct poll_info *poll;    /* a run of unsuccessful polls, not one call */
	const void *info;                /* what the call's runtime decoded it into (model/runtime.h
					  * pipe_call), for that runtime alone to read: MPI's struct
					  * mpi_info, NCCL's nccl_info, NRT's nrt_info; NULL when
					  * not decoded (a run of polls) */
};

/* What a device ran (EV_DEVICE). */
struct device_info {
	uint8_t kind;                    /* enum tprof_devop_kind */
	uint64_t corr;
	struct tprof_devop op;
	struct thread *launcher;         /* the thread that launched it, when known */
	int64_t launch_ns;               /* its launch, from the trace start */
	int launch_kept;                 /* the window kept the launching call: it is drawn */
};

#define EVF_UNFINISHED 0x1  /* never closed: ends where its process's data ends */
#define EVF_CLIPPED 0x2     /* cut to the window */
#define EVF_INCOMPLETE 0x4  /* EV_COLLECTIVE: not every member's call was found; EV_NCCL: a
                             * launch, a counterpart or a device span is missing */
#define EVF_CUT_BEGIN 0x8   /* a range or step whose begin was lost (a GAP record): it starts
                             * where records began to be lost */
#define EVF_CUT_END 0x10    /* ... whose end was lost: it ends where records began to be lost */

struct event {
	enum ev_kind kind;
	unsigned flags;
	uint32_t name;           /* trace-wide string id */
	uint32_t depth;
	uint8_t source;                  /* ranges and marks: enum tprof_source */
	struct proc *proc;
	struct thread *thread;   /* NULL for process-wide events (steps) */
	int64_t t0, t1;          /* ns from the trace start */
	double value;
	uint64_t step;                   /* EV_STEP; EV_ASYNC: the range id */
	const struct call_info *call;    /* EV_CALL */
	const struct device_info *dev;   /* EV_DEVICE */
	const struct message_info *msg;  /* EV_MESSAGE */
	const struct coll_info *coll;    /* EV_COLLECTIVE */
	const void *info;                /* an event of a runtime's own kind (EV_MPIREQ, EV_NCCL):
					  * what that runtime made of it, for it alone to read (its
					  * calls' is call->info) */
	const struct sample_info *sample;/* EV_SAMPLE */
	const struct imp_info *imp;      /* an event of an imported trace (runtimes/import/import.h):
					  * its category, arguments and what else the file said;
					  * NULL for the profile's own */
	uint8_t state;                   /* EV_STATE: enum tprof_sched_state */
	uint8_t sysctr;                  /* EV_COUNTER of a system image's SYSCTR record: enum
					  * tprof_sysctr; 0 for any other counter */
	uint32_t cpu;                    /* EV_STATE: the CPU it ran on (Running), or UINT32_MAX;
					  * EV_COUNTER of TPROF_SYSCTR_CPU_BUSY: the CPU */
};

struct output_ops {
	const char *name;
	int (*begin)(void *priv, const struct trace *tr);
	void (*event)(void *priv, const struct event *ev);
	/* Finishes the output and frees priv; called once after begin, even a failed one. */
	int (*end)(void *priv, const struct trace *tr);
};

struct output {
	const struct output_ops *ops;
	void *priv;
};

/* The window every output is restricted to, in ns from the trace start. */
struct window {
	int64_t start, end;
	int active;
	char desc[128];
};

struct devorder;
struct hang_sink;
struct runtime_set;
struct imp_info;
struct nccl_info;
struct nccl_inst;

#define RT_MAX 16                /* runtimes in one analysis, at the most (runtime.h) */

struct pipeline {
	struct trace *tr;
	struct output *outs;
	int nouts;
	struct window win;
	int want_begins;                 /* emit EV_BEGIN for ranges (outputs in enter/leave
					  * order, OTF2) */
	/* The events of every range and instant, zero but for what varies, filled anew for each
	 * (zeroing a whole event each time costs more than the rest of handing it over). */
	struct event begin, range, instant;
	struct devorder *devorder;       /* device spans held to be put in order (devorder.c) */
	const struct runtime_set *rts;   /* the runtimes (runtime.h) */
	/* Each runtime's own state in this pipeline, by its place in rts (runtime.h's
	 * pipeline_state): MPI's matching, NCCL's launches in flight...; made by the runtime
	 * when it first needs it, freed by its pipe_finish. */
	void *rt_state[RT_MAX];
	/* Where the runtimes say, at their pipe_finish, what was still waiting for its other
	 * end when the data ended (model/hangs.h); NULL when no hang analysis runs. */
	const struct hang_sink *hangs;
};

void pipeline_record(struct pipeline *pl, struct stream *s, const struct tprof_rec *r, int64_t ns);
void pipeline_finish(struct pipeline *pl);
int merge_run(struct trace *tr, struct pipeline *pl);

/* window.c */
int window_parse_time(const char *s, int64_t *ns);
int window_from_steps(struct trace *tr, const char *spec, struct window *w);
/* Every step number the trace records, in increasing order, with when the last of the
 * processes that ran it started it (ns from the trace start; each process's first start of
 * that number): one pass over the records (under --parallel, every analysis process's, the
 * same on each).  *n = 0 when there are none; free() the array. */
struct step_start {
	uint64_t step;
	int64_t ns;
};
struct step_start *window_step_starts(struct trace *tr, size_t *n);

#endif
