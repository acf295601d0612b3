/* nccl.h — the pipeline's NCCL/RCCL stage and what it hands the outputs.
 *
 * The pipeline decodes NCCL calls (struct nccl_info on their EV_CALL) and collective DEVICE
 * records and passes both, after emitting them, to the matching stage (runtimes/nccl/coll.c).  That
 * stage gathers each rank's launch — one operation outside a group, or the operations of a
 * group and the ncclGroupEnd that launched them — with the device spans that timed it, and
 * links launches across ranks through their operations: a collective by (communicator, seq)
 * on every rank of the communicator, a send by (communicator, sender, receiver, seq) with
 * its receive.  When every launch linked that way is complete it emits them together as one
 * EV_NCCL event (struct nccl_inst): the same collective on every rank.  Every collective
 * EV_DEVICE is named by exactly one later EV_NCCL (incomplete ones at the end of the data),
 * so an output may hold such spans back until it knows their cross-rank facts.
 *
 * runtimes/nccl/ops.c says what NCCL's numbers mean: names of operations, datatypes and reduction
 * operators, datatype sizes, and the nccl-tests bandwidth formulas.  Times are ns from the
 * trace start. */
#ifndef TPROF_ANALYZE_NCCL_H
#define TPROF_ANALYZE_NCCL_H

#include "../../model/output.h"

struct runtime;
extern const struct runtime runtime_nccl;   /* runtime.c */

/* The NCCL side of an EV_CALL of domain NCCL (its call_info's info: nccl_info_of). */
struct nccl_info {
	struct tprof_nccl_args a;
	struct tprof_nccl_args2 b;
	int has_b;
};

static inline const struct nccl_info *nccl_info_of(const struct event *ev)
{
	return ev->call->info;
}

/* One operation of a launch, as its call recorded it. */
struct nccl_op {
	uint32_t name;                   /* the call's name (trace-wide id) */
	uint32_t caller;                 /* the program's function that made the call
					  * (TPROF_CALLSTACK; 0: not known) */
	uint8_t op, dtype, redop, flags; /* enum tprof_nccl_op, ncclDataType_t, ncclRedOp_t,
					  * TPROF_NCCLF_* */
	uint64_t comm, count, bytes;
	uint32_t seq;
	int32_t peer, rank, nranks;
	uint64_t stream;
	uint64_t corr;
	int64_t t0, t1;
	int matched;                     /* its counterpart on every other rank was found */
};

/* One device span of a launch (one per stream a group used). */
struct nccl_span {
	uint64_t stream;
	uint32_t device;
	uint32_t name;                   /* the DEVICE record's name */
	int64_t t0, t1;
	int kept;                        /* the window kept it: the scene of the analysis
					  * process that read it draws it */
};

/* One rank's launch: an operation outside a group, or a group and its ncclGroupEnd. */
struct nccl_launch {
	struct proc *proc;
	struct thread *thread;           /* of the launching call; NULL when it was not seen */
	uint64_t corr;                   /* the launching call's: the DEVICE records' arg */
	uint64_t group;                  /* the group id, 0 outside a group */
	int64_t t0, t1;                  /* the launching call (the operation, or the outermost
					  * ncclGroupEnd); valid when thread is set */
	int call_kept;                   /* the window kept that call: it is drawn */
	int32_t rank, nranks;            /* in the communicator of its first operation */
	uint64_t comm;
	const struct nccl_op *ops;       /* in call order */
	uint32_t nops;
	const struct nccl_span *spans;
	uint32_t nspans, spans_expected; /* expected: one per stream of its timed operations */
	int64_t dev_t0, dev_t1;          /* from the first span's start to the last one's end */
	double algbytes, busbytes;       /* nccl-tests' S and S x the bus factor (nccl_launch_bytes) */
	uint32_t label;                  /* "AllReduce", "ncclGroup (3 ops: AllReduce, Send, Recv)" */
	int complete;                    /* its call, its operations' matches and its spans */
};

/* A send matched with its receive, between two launches of an instance. */
struct nccl_link {
	uint32_t from, to;               /* launch indexes: the sender's, the receiver's */
	uint64_t from_stream, to_stream;
	uint64_t comm, bytes;
	int32_t src, dst;                /* ranks in comm */
	uint32_t seq;
};

/* EV_NCCL: launches of every rank linked by their operations, in rank order. */
struct nccl_inst {
	uint64_t id;                     /* unique within the trace, in order of emission */
	const struct nccl_launch *l;
	uint32_t nl;
	const struct nccl_link *links;
	uint32_t nlinks;
	uint32_t ranks_expected;         /* the largest communicator size among its collectives
					  * (2 for send/receive alone) */
	uint32_t unmatched;              /* operations whose counterpart was not found */
	int incomplete;                  /* some launch lacks its call, an operation's
					  * counterpart or a device span */
	/* Entries of the launching calls (launches whose call was seen). */
	int64_t first_entry, last_entry;
	int32_t last_rank;               /* the rank that entered last, -1 when none */
	/* Device spans (launches with one). */
	int64_t first_start, last_start;
	int32_t last_start_rank;
	uint32_t timed;                  /* launches with a device span */
	int copy;                        /* under --parallel, a copy for an analysis process
					  * that read some of its launches (runtimes/nccl/copies.c):
					  * drawn there, counted where it was matched */
};

/* What an EV_NCCL event holds. */
static inline const struct nccl_inst *nccl_inst_of(const struct event *ev)
{
	return ev->info;
}

/* runtimes/nccl/coll.c: what the pipeline calls */
void nccl_call(struct pipeline *pl, const struct event *ev);     /* EV_CALL of domain NCCL */
void nccl_device(struct pipeline *pl, const struct event *ev);   /* EV_DEVICE, collective */
void nccl_finish(struct pipeline *pl);  /* emits what is left (incomplete), frees */

/* runtimes/nccl/waits.c: the wait states of an instance (struct runtime's waits hook) */
struct wait_sink;
void nccl_waits(const struct event *ev, const struct wait_sink *s);

/* runtimes/nccl/transfers.c: its sends matched with their receives, for the report's matrix
 * (struct runtime's transfers hook, model/transfers.h) */
struct transfer_sink;
void nccl_transfers(const struct event *ev, const struct transfer_sink *s);

/* runtimes/nccl/hangs.c: its collectives' members, for the hang analysis (struct runtime's
 * hangs hook, model/hangs.h) */
struct hang_sink;
void nccl_hangs(const struct event *ev, const struct hang_sink *s);

/* runtimes/nccl/scene.c: NCCL in the scene */
struct scene;
struct scene_args;
void nccl_scene_call_args(struct scene_args *sa, const struct event *ev);
int nccl_scene_event(struct scene *sc, const struct event *ev, unsigned self);
void nccl_scene_end(struct scene *sc, unsigned self);

/* runtimes/nccl/ops.c */
const char *nccl_op_name(unsigned op);        /* "AllReduce", "Send", "GroupEnd"... */
const char *nccl_dtype_name(unsigned dtype);  /* "float32", "bfloat16"...; "?" unknown */
unsigned nccl_dtype_size(unsigned dtype);     /* bytes, 0 when unknown */
const char *nccl_redop_name(unsigned redop);  /* "sum"...; "user" from 5; NULL for 0xff */
int nccl_op_is_coll(unsigned op);             /* a collective (not send/recv, not management) */
int nccl_op_is_p2p(unsigned op);              /* send or receive */
/* nccl-tests: S, the bytes algorithm bandwidth divides by the time, from the bytes a call
 * recorded (count x datatype size) and the communicator's size; and the bus factor. */
double nccl_alg_bytes(unsigned op, uint64_t bytes, int32_t nranks);
double nccl_bus_factor(unsigned op, int32_t nranks);
/* A launch's S and bus bytes: the sum over its collectives of S and S x factor, plus for its
 * sends and receives the larger of the bytes sent and received (factor 1), as nccl-tests'
 * sendrecv counts one direction. */
void nccl_launch_bytes(const struct nccl_op *ops, uint32_t n, double *alg, double *bus);

/* runtimes/nccl/pack.c: operations and spans as the analysis processes send them */
struct pack;
struct unpack;
void nccl_ops_pack(struct pack *b, const struct nccl_op *ops, uint32_t n);
struct nccl_op *nccl_ops_unpack(struct unpack *u, uint32_t *n);      /* malloc'd */
void nccl_spans_pack(struct pack *b, const struct nccl_span *spans, uint32_t n);
struct nccl_span *nccl_spans_unpack(struct unpack *u, uint32_t *n);  /* malloc'd */

/* runtimes/nccl/copies.c: under --parallel, instances sent back to the analysis processes
 * that read their launches, emitted there as copies */
struct nccl_copies;
struct nccl_copies *nccl_copies_new(void);
/* The launches of process number index were sent here by analysis process `from`. */
void nccl_copies_read_by(struct nccl_copies *c, int64_t index, int from);
/* The EV_NCCL just emitted, for every analysis process that read one of its launches. */
void nccl_copies_add(struct nccl_copies *c, const struct event *ev);
/* Every analysis process's copies to it, emitted as EV_NCCL (collective). */
void nccl_copies_send(struct nccl_copies *c, struct pipeline *pl);
void nccl_copies_free(struct nccl_copies *c);

/* runtimes/nccl/facts.c: an EV_NCCL as a collective of model/facts.h */
struct facts_sink;
void nccl_facts(const struct event *ev, const struct facts_sink *s);

#endif
