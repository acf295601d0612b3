/* internal.h — what the files of the stand-in libnccl.so.2 / librccl.so.1 share: the
 * configuration (STANDIN_NCCL_*), the shared-memory segment a communicator's ranks meet in,
 * the communicator and operation objects, and the entry points each file offers the others.
 * Layering, top to bottom: colls.c, comm.c, split.c -> group.c -> launch.c -> coll-steps.c,
 * p2p.c -> op.c -> join.c -> segment.c -> dtypes.c, config.c. */
#ifndef STANDIN_NCCL_INTERNAL_H
#define STANDIN_NCCL_INTERNAL_H

/* The library is built with -fvisibility=hidden; the public prototypes are exported (the
 * version script keeps nccl* and pnccl* and hides everything else). */
#pragma GCC visibility push(default)
#include <nccl.h>
#pragma GCC visibility pop

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/* ncclX is weak and pncclX a strong alias of it, as NCCL's NCCL_API macro makes them. */
#define SN_API(ret, name, ...)                                                               \
	ret p##name(__VA_ARGS__) __attribute__((alias(#name), visibility("default")));       \
	__attribute__((weak, visibility("default"))) ret name(__VA_ARGS__)

#ifdef STANDIN_RCCL
#define SN_VERSION 22105 /* RCCL 2.21.5 (its NCCL version) */
#define SN_NUM_TYPES 10  /* RCCL built without RCCL_FLOAT8 */
#define SN_LIBNAME "librccl.so.1"
#else
#define SN_VERSION 22803 /* NCCL 2.28.3 */
#define SN_NUM_TYPES 12
#define SN_LIBNAME "libnccl.so.2"
#endif

#define SN_MAX_RANKS 1024
#define SN_MAX_USER_OPS 64     /* ncclRedOpCreatePreMulSum per communicator */

/* ------------------------------------------------------------------ config.c */
struct sn_config {
	double gbps;             /* STANDIN_NCCL_GBPS, default 10 */
	uint64_t latency_ns;     /* STANDIN_NCCL_LATENCY_US, default 20 */
	uint64_t timeout_ns;     /* STANDIN_NCCL_TIMEOUT_S, default 60 */
	size_t chunk_bytes;      /* STANDIN_NCCL_CHUNK_BYTES: staging per rank, default 1 MiB */
	int mismatch_wait;       /* STANDIN_NCCL_MISMATCH=wait: a mismatch waits, as in NCCL */
	const char *trace_path;  /* STANDIN_NCCL_TRACE_FILE (%p: the pid), or NULL */
};
extern struct sn_config sn_cfg;
extern atomic_int sn_exiting;   /* set by the destructor: modelled durations are not waited */

void sn_init(void);
uint64_t sn_now_ns(void);
/* Sleeps until CLOCK_MONOTONIC `t` (busy-waits the last 50 us); not at exit. */
void sn_sleep_until(uint64_t t);
/* Nominal duration of an operation moving `bytes` (latency + bytes / bandwidth). */
uint64_t sn_model_ns(uint64_t bytes);
/* Sets the text ncclGetLastError returns and returns `r`. */
ncclResult_t sn_fail(ncclResult_t r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* One line on stderr, "standin-nccl[pid]: ...", for errors no call can return. */
void sn_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
const char *sn_error_string(ncclResult_t r);
/* Appends one line to the trace file (nothing when there is none). */
void sn_trace_line(const char *line, size_t len);
/* FNV-1a, 64-bit: the communicator id of the trace (of the 128 bytes of its ncclUniqueId). */
uint64_t sn_hash(const void *p, size_t n);

/* ------------------------------------------------------------------ dtypes.c */
/* Byte size of a datatype of this build, 0 when it is not one. */
size_t sn_dtype_size(int dt);
const char *sn_dtype_name(int dt);
/* dst[i] = src[i] * scalar, `scalar` one element of type `dt` (pre-multiplied sums). */
void sn_scale(void *dst, const void *src, size_t n, int dt, const void *scalar);
/* acc[i] = acc[i] op x[i] for op ncclSum, ncclProd, ncclMax or ncclMin. */
void sn_accumulate(void *acc, const void *x, size_t n, int dt, int op);
/* acc[i] /= d (integer types: the average of NCCL, a sum divided afterwards). */
void sn_divide(void *acc, size_t n, int dt, int d);
int sn_dtype_is_float(int dt);
/* The element of type `dt` nearest to `v`. */
void sn_from_double(void *dst, int dt, double v);

/* ------------------------------------------------------------------ segment.c */
#define SN_SEG_READY 0x4c434e53u   /* "SNCL": the creator has laid the segment out */

/* What a rank publishes for the collective it is in (read by the others at its first step). */
struct sn_coll_desc {
	uint32_t seq;
	int32_t kind;
	int32_t dtype;
	int32_t redop;          /* a basic op; user (pre-multiplied) ops read as ncclSum */
	int32_t root;
	int32_t pad;
	uint64_t count;
	uint64_t arrival;       /* CLOCK_MONOTONIC ns: when it began on that rank's stream */
};

struct sn_seg_hdr {
	_Atomic uint32_t ready;         /* SN_SEG_READY when laid out */
	uint32_t layout;
	int32_t nranks;
	int32_t pad;
	uint64_t size, slot_bytes, chan_bytes;
	uint64_t off_ranks, off_slots, off_chans, chan_stride;
	uint64_t comm_hash;
	char pad1[64];
	_Atomic uint32_t bell;          /* futex word: bumped at every change of state */
	_Atomic uint32_t waiters;
	_Atomic int32_t joined;         /* ranks that have joined */
	_Atomic int32_t aborted;        /* 1 + a rank that called ncclCommAbort, 0 when none */
	char pad2[48];
};

/* One rank's control block (256-byte aligned). */
struct sn_seg_rank {
	_Atomic int32_t pid;            /* 0 until the rank joins */
	_Atomic int32_t state;          /* SN_RANK_* */
	int32_t device;
	int32_t pad;
	_Atomic uint64_t wrote, read;   /* collective steps: staged / done reading the others' */
	_Atomic uint64_t ctl_wrote, ctl_read; /* host-side exchanges (ncclCommSplit) */
	int64_t ctl[2];
	struct sn_coll_desc desc;
};
enum { SN_RANK_ABSENT = 0, SN_RANK_JOINED = 1, SN_RANK_LEFT = 2 };

/* One direction of one pair of ranks (src -> dst): a ring of chan_bytes after the header. */
struct sn_seg_chan {
	_Atomic uint64_t head;          /* bytes the sender has written, ever */
	_Atomic uint64_t tail;          /* bytes the receiver has consumed, ever */
	_Atomic uint32_t send_posted;   /* number of the latest send posted (from 1) */
	_Atomic uint32_t recv_posted;   /* number of the latest receive posted */
	struct { uint64_t bytes, arrival; } sdesc[2], rdesc[2]; /* by message number & 1 */
};

/* A segment as mapped in this process (shared by the ranks a process holds). */
struct sn_seg {
	char name[64];
	struct sn_seg_hdr *hdr;
	size_t size;
	int refs;
	struct sn_seg *next;
};

/* Maps the segment named after `hash` for a communicator of `nranks`, creating it when this
 * is the first rank (of any process) to arrive.  ncclSuccess or an error (last error set). */
ncclResult_t sn_seg_open(uint64_t hash, int nranks, uint64_t deadline, struct sn_seg **out);
void sn_seg_close(struct sn_seg *s);
void sn_seg_unlink(struct sn_seg *s);
struct sn_seg_rank *sn_seg_rank(struct sn_seg *s, int r);
unsigned char *sn_seg_slot(struct sn_seg *s, int r);
struct sn_seg_chan *sn_seg_chan(struct sn_seg *s, int src, int dst);
unsigned char *sn_seg_chan_data(struct sn_seg *s, int src, int dst);
/* The bell: ring after publishing a change; wait (at most `ns`) while it still reads `seen`. */
void sn_bell_ring(struct sn_seg *s);
uint32_t sn_bell_read(struct sn_seg *s);
void sn_bell_wait(struct sn_seg *s, uint32_t seen, uint64_t ns);
/* 1 when rank r's process is gone or the rank left the communicator. */
int sn_seg_rank_gone(struct sn_seg *s, int r);

/* ------------------------------------------------------------------ communicators */
#define SN_COMM_MAGIC 0x4e43434cu
enum { SN_COMM_INIT, SN_COMM_READY, SN_COMM_FINALIZED, SN_COMM_FAILED, SN_COMM_DEAD };

struct sn_user_op {
	int used;
	int dtype;
	int residence;                 /* ncclScalarResidence_t */
	unsigned char value[8];        /* HostImmediate: the scalar */
	const void *ptr;               /* Device: where to read it when the op runs */
};

struct ncclComm {
	uint32_t magic;
	ncclUniqueId id;
	uint64_t hash;                 /* sn_hash(id) */
	int rank, nranks, device;
	int blocking;                  /* from ncclConfig_t; 1 unless it said 0 */
	struct sn_seg *seg;
	_Atomic int state;             /* SN_COMM_* */
	_Atomic int async_err;         /* ncclResult_t of ncclCommGetAsyncError */
	_Atomic int abort;
	int deferred;                  /* made inside a group: joins at ncclGroupEnd */
	pthread_t init_thread;         /* non-blocking initialisation */
	int init_thread_live;
	/* numbering, by the host threads that launch operations */
	uint32_t coll_seq;
	uint32_t *send_seq, *recv_seq; /* per peer */
	int nsplits;
	/* progress, by the stream workers */
	_Atomic uint32_t coll_done;    /* collectives finished here (in order) */
	_Atomic uint32_t *send_done, *recv_done; /* per peer */
	uint64_t steps;                /* collective steps done (owned by the running collective) */
	uint64_t busy_until;           /* modelled end of the latest collective */
	/* operations queued and not finished */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int pending;
	struct sn_user_op uops[SN_MAX_USER_OPS];
	struct ncclComm *all_next;     /* every communicator ever made (stays reachable) */
};

/* ------------------------------------------------------------------ join.c */
/* A new communicator object (not yet joined), or NULL. */
struct ncclComm *sn_comm_new(const ncclUniqueId *id, int nranks, int rank, int device);
/* Joins the communicator's segment and waits for all ranks (blocking, timeout). */
ncclResult_t sn_comm_join(struct ncclComm *c);
/* The communicator is usable for operations: ncclSuccess, or why not (last error set). */
ncclResult_t sn_comm_check(struct ncclComm *c, const char *fn);
/* Leaves the segment (after its operations finished); frees what the object holds. */
void sn_comm_leave(struct ncclComm *c);
void sn_comm_set_error(struct ncclComm *c, ncclResult_t r);
void sn_comm_wait_idle(struct ncclComm *c);
/* Joins several communicators at once, one thread each (ncclCommInitAll, groups). */
ncclResult_t sn_comm_join_all(struct ncclComm **cs, int n);

/* ------------------------------------------------------------------ operations */
enum sn_kind {
	SN_ALLREDUCE, SN_BROADCAST, SN_REDUCE, SN_ALLGATHER, SN_REDUCESCATTER, SN_ALLTOALL,
	SN_GATHER, SN_SCATTER, SN_ALLTOALLV, SN_SEND, SN_RECV, SN_NKINDS
};
const char *sn_kind_name(int kind);

enum sn_status { SN_OK, SN_TIMEOUT, SN_REMOTE, SN_MISMATCH, SN_ABORTED, SN_SKIPPED };

struct sn_op {
	struct sn_op *next;
	enum sn_kind kind;
	struct ncclComm *comm;
	const void *sendbuff;
	void *recvbuff;
	size_t count;                  /* as passed (per peer for all-to-all, gather, scatter) */
	int dtype;
	size_t esize;
	int redop;                     /* as passed */
	int root;                      /* root, peer, or -1 */
	hipStream_t stream;
	size_t *v;                     /* all-to-all-v: sendcounts, sdispls, recvcounts, rdispls */
	uint64_t model_bytes;          /* nccl-tests "size" of the op */
	/* set at launch */
	uint32_t seq;                  /* collectives: on the comm; send/recv: with the peer */
	int nops;                      /* operations launched together on the stream */
	/* progress (the stream's worker) */
	int started, data_done, done;
	enum sn_status status;
	int waiting_on;                /* the rank it last waited for, -1 */
	uint64_t t_start, t_ready, t_data, t_end, deadline;
	size_t nsteps, step;
	int phase;
	uint64_t step_base;
	uint64_t moved;                /* send/recv: bytes written / read */
	unsigned char scalar[8];       /* pre-multiplied sums: the factor, of type dtype */
	int premul;                    /* stage x * scalar, then sum */
	int postdiv;                   /* sum, then divide by nranks */
};

/* ------------------------------------------------------------------ coll-steps.c, p2p.c */
/* Advance an operation as far as it goes without waiting: 1 when something moved. */
int sn_coll_progress(struct sn_op *op);
int sn_p2p_progress(struct sn_op *op);
void sn_op_finish(struct sn_op *op, enum sn_status st);

/* ------------------------------------------------------------------ launch.c */
/* Queues a list of operations (already numbered) on their streams: one host callback per
 * stream, which runs them all concurrently and holds the stream until they are done. */
ncclResult_t sn_launch(struct sn_op *ops);

/* ------------------------------------------------------------------ group.c */
int sn_group_depth(void);
/* Inside a group: remembers an operation (or a communicator to join) for ncclGroupEnd. */
void sn_group_add_op(struct sn_op *op);
void sn_group_add_init(struct ncclComm *c);
/* Records the first error of a call in the group (ncclGroupEnd returns it). */
ncclResult_t sn_group_error(ncclResult_t r);
/* Numbers an operation and launches it now (outside a group) or at ncclGroupEnd. */
ncclResult_t sn_submit(struct sn_op *op);

#endif
