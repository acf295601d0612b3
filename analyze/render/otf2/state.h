/* render/otf2/state.h — the OTF2 renderer's shared state (the files of render/otf2/): the
 * locations the scene's tracks become and what each still owes (regions to leave, slices to
 * put in start order, MPI completions that belong inside a call), the definitions gathered
 * while items are written, and the MPI requests in flight.  Then what each file of the
 * renderer offers the others, in layers; a file calls only files below it in this list:
 *   the renderer            render/otf2/otf2.c: begin, each item to its writer, end
 *   item writers            render/otf2/host.c: threads (calls, ranges, marks, samples)
 *                           render/otf2/mpi.c: the MPI records of a thread's calls
 *                           render/otf2/device.c: device streams and NeuronCore lanes
 *                           render/otf2/process.c: steps, counters, ranges across threads
 *   definition writers      render/otf2/globaldefs.c: every definition, in order, at the end
 *                           render/otf2/unify.c: under --parallel, the analysis processes'
 *                           definitions made one, and each location's mapping tables
 *                           render/otf2/system.c: system tree, location groups, locations
 *                           render/otf2/comms.c: MPI groups and communicators
 *   records                 render/otf2/loc.c: locations, their times, Enter/Leave
 *                           render/otf2/records.c: each location's records, written or
 *                           kept back until the location is worth a writer
 *                           render/otf2/attrs.c: the items' arguments as attributes
 *                           render/otf2/io.c: I/O handles and files, and their records
 *                           render/otf2/rma.c: RMA windows, and their records
 *   definitions registry    render/otf2/contexts.c: CPU samples' calling contexts
 *                           render/otf2/defs.c: refs handed out while items are written
 *   leaves                  render/otf2/collectives.c: libotf2's collective operations
 *                           over the analysis processes
 *                           render/otf2/collop.c: the model's collectives as OTF2's
 *                           render/otf2/error.c: errors of writing
 * The declarations below go from the bottom of the list up.  Nothing here knows a runtime:
 * what the archive holds is what the scene draws (model/scene.h), and the MPI records come
 * from the model's message-passing facts (struct msgpass). */
#ifndef TPROF_ANALYZE_OUT_OTF2_STATE_H
#define TPROF_ANALYZE_OUT_OTF2_STATE_H

#include <string.h>

#include <otf2/otf2.h>

#include "../../model/scene.h"
#include "../../util/hindex.h"
#include "../../util/u64map.h"
#include "../callsites.h"

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
	MR_IO_CREATE,     /* IoCreateHandle (render/otf2/io.c) */
	MR_IO_DESTROY,    /* IoDestroyHandle */
	MR_IO_BEGIN,      /* IoOperationBegin */
	MR_IO_ISSUED,     /* IoOperationIssued */
	MR_IO_DONE,       /* IoOperationComplete */
	MR_RMA_CREATE,    /* RmaWinCreate (render/otf2/rma.c) */
	MR_RMA_DESTROY,   /* RmaWinDestroy */
	MR_RMA_FENCE_BEGIN, /* RmaCollectiveBegin */
	MR_RMA_FENCE_END, /* RmaOpCompleteRemote (a range), RmaCollectiveEnd */
	MR_RMA_LOCK,      /* RmaAcquireLock */
	MR_RMA_UNLOCK,    /* RmaOpCompleteRemote (a range), RmaReleaseLock */
	MR_RMA_DONE,      /* RmaOpCompleteRemote (a range) */
	MR_RMA_OP,        /* RmaPut, RmaGet, RmaAtomic */
	MR_RMA_OP_DONE,   /* RmaOpCompleteNonBlocking */
};

struct mrec {
	uint8_t kind;            /* enum mrec_kind */
	uint8_t op;              /* OTF2_CollectiveOp; I/O: OTF2_IoOperationMode; RMA: put 0,
				  * get 1, atomic 2, or OTF2_LockType */
	uint32_t peer;           /* receiver, sender or root (a rank in comm); I/O: the handle;
				  * RMA: the window */
	uint32_t tag;            /* I/O: OTF2_IoOperationFlag; RMA: the remote rank */
	OTF2_CommRef comm;
	uint64_t bytes;          /* message length; collectives: bytes sent; I/O: bytes asked
				  * for (begin), done (complete) */
	uint64_t bytes2;         /* collectives: bytes received; RMA: fetched, or the last
				  * matching id of a range */
	uint64_t req;            /* request id; I/O, RMA: the operation's matching id (the
				  * first of a range) */
};

/* Attributes kept for a record written later (render/otf2/attrs.c). */
struct attrv {
	OTF2_AttributeRef ref;
	OTF2_Type type;
	OTF2_AttributeValue v;
};
struct saved {
	struct attrv *v;         /* NULL when there are none */
	uint32_t n, cap;
};

/* A record of a location, written or kept back (render/otf2/records.c). */
enum rec_kind { REC_ENTER, REC_LEAVE, REC_SAMPLE, REC_PARAM, REC_METRIC, REC_MPI };
struct rec {
	uint32_t kind;           /* enum rec_kind */
	uint32_t nattrs;         /* kept: the attributes that follow it */
	OTF2_TimeStamp ts;
	union {                  /* only the kind's member is kept */
		OTF2_RegionRef region;                                    /* REC_ENTER, REC_LEAVE */
		struct { OTF2_CallingContextRef context; uint32_t distance; } sample;
		struct { OTF2_ParameterRef ref; uint64_t value; } param;
		struct { OTF2_MetricRef ref; double value; } metric;
		struct mrec mpi;
	} u;
};

/* An open region on a thread's location. */
struct frame {
	OTF2_RegionRef region;
	int64_t t0, end;         /* end: T_OPEN while a range is not closed */
	int32_t depth;           /* ranges: their depth on the thread; calls: -1 */
	uint8_t entered;         /* its Enter is written (a range begun before the window
				  * waits until something inside the window needs it) */
	uint8_t skip;            /* a range begun after the window: never written */
	struct saved leave;      /* the attributes of its Leave (a range's, from its slice) */
	struct mrec pre;         /* written just before the Leave (MpiRecv, collective end) */
};

/* An MPI completion waiting for its call (the two may come in either order). */
struct held {
	int64_t t;
	struct mrec m;
};

/* A slice waiting to be written in start order (render/otf2/device.c). */
struct pend {
	int64_t t0, t1;
	OTF2_RegionRef region;
	struct saved enter;
};

/* A slice a runtime holds, to come later on its location (SI_HELD). */
struct hold {
	int64_t t0, t1;
	uint32_t name;                   /* as announced: the work as the trace recorded it */
};

enum loc_kind {
	LOC_THREAD,              /* a thread's track: calls, ranges, marks */
	LOC_STEPS,               /* a process's training steps */
	LOC_ASYNC,               /* ranges that may end on another thread, in lanes */
	LOC_COUNTERS,            /* a process's counters (a metric location) */
	LOC_DEVICE,              /* a device stream's track */
	LOC_STUB,                /* an empty thread: for an MPI rank, or a process, that
				  * has no thread with events */
	LOC_NEURONCORE,          /* a NeuronCore lane's track */
	LOC_OTHER,               /* a track of another kind: slices in start order */
};

struct loc {
	uint64_t id;                     /* its index in o->locs */
	OTF2_LocationRef ref;            /* in the archive: id * K + the analysis process's
					  * number, K analysis processes (id alone in one) */
	OTF2_EvtWriter *w;               /* its writer, once it is worth one (records.c) */
	unsigned char *kept;             /* until then its records (struct rec, packed) */
	size_t nkept, capkept;
	uint64_t events;                 /* records written or kept */
	int closed;                      /* its writer is closed: the end */
	enum loc_kind kind;
	const struct proc *proc;
	struct track track;              /* the track it renders (LOC_THREAD, LOC_DEVICE,
					  * LOC_NEURONCORE, LOC_OTHER) */
	const struct thread *th;         /* LOC_THREAD */
	uint32_t device;                 /* LOC_DEVICE: the device; LOC_NEURONCORE: the core */
	int lane;                        /* LOC_ASYNC, from 1 */
	char *name;                      /* its track's name (tracks_metadata), at the end */
	int32_t rank;                    /* LOC_STUB without a process: its world rank, or -1
					  * for members no record names */
	int rank_loc;                    /* stands for its process's rank in MPI */
	int64_t last;                    /* latest time written, ns from the trace start */
	uint32_t context;                /* LOC_THREAD: the calling context of its latest CPU
					  * sample (a callsite's number), 0: none yet */
	int64_t sampled;                 /* and its time */
	struct frame *stack;             /* LOC_THREAD */
	size_t depth, cap;
	size_t open_ranges;              /* frames of ranges not closed yet */
	size_t pending;                  /* frames waiting for the window (not entered) */
	struct held *held;
	size_t nheld, capheld;
	struct pend *heap;               /* other tracks: slices by start */
	size_t nheap, capheap;
	struct hold *holds;              /* other tracks: slices still held by a runtime */
	size_t nholds, capholds;
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
	struct loc **others;             /* LOC_OTHER */
	size_t nothers;
	struct loc *mpi_loc;             /* the first thread that wrote MPI records */
	struct loc *stub;                /* an empty thread, where the process needs one */
	OTF2_LocationGroupRef group;
	int rank_slot;                   /* holds its rank in the MPI location list */
	OTF2_LocationRef rank_ref;       /* then the location that stands for it */
	int defined;                     /* has locations worth defining */
};

/* An MPI request in flight (render/otf2/mpi.c). */
struct req {
	uint64_t handle;                 /* as recorded (struct msgpass.req) */
	int proc;                        /* process index */
	uint64_t id;                     /* the request id written to the trace */
	struct mrec m;                   /* what its completion writes (kind, comm, ...) */
};

struct otf2_defs;
struct otf2_attrs;
struct pack;
struct unpack;

/* What an analysis process's refs are in the archive, kind by kind (render/otf2/unify.c):
 * its ref i is v[kind][i]. */
enum otf2_idmap_kind {
	OTF2_IDMAP_STRING,
	OTF2_IDMAP_ATTRIBUTE,
	OTF2_IDMAP_REGION,
	OTF2_IDMAP_METRIC,
	OTF2_IDMAP_RMA_WIN,              /* render/otf2/rma.c's windows */
	OTF2_IDMAP_IO_HANDLE,            /* render/otf2/io.c's handles */
	OTF2_IDMAP_CALLING_CONTEXT,      /* render/otf2/contexts.c's callsites */
	OTF2_IDMAP_KINDS
};
struct otf2_idmaps {
	uint32_t *v[OTF2_IDMAP_KINDS];
	size_t n[OTF2_IDMAP_KINDS];
};
struct otf2_io;
struct otf2_rma;
struct sproc;

struct otf2 {
	char *dir;
	struct outname *name;            /* the directory, written under a temporary name */
	const struct window *win;
	const struct trace *tr;
	struct tracks *tracks;
	OTF2_Archive *ar;
	OTF2_AttributeList *attrs;
	struct otf2_defs *defs;
	struct otf2_attrs *args;         /* argument names -> attributes (render/otf2/attrs.c) */
	struct pstate *ps;               /* by place in the trace's list of processes */
	struct u64map ps_of;             /* process number -> place */
	size_t nprocs;
	struct loc **locs;               /* every location, by id */
	size_t nlocs, caplocs;
	size_t kept_bytes;               /* records kept back, all locations (records.c) */
	struct hindex locs_by_track;     /* the locations of tracks: their ids + 1 by track */
	struct loc *last_loc;            /* the one found last: runs of one track */
	const char *last_cat;            /* otf2_cat's last answer */
	enum loc_kind last_where;
	int last_cat_kind;
	int64_t max_t;                   /* latest time written */
	/* CPU samples (render/otf2/contexts.c) */
	struct callsites callsites;      /* their stacks: calling context = number - 1 */
	OTF2_RegionRef *cs_region;       /* by callsite number - 1 */
	struct sample_gap *gaps;         /* intervals between a thread's samples (some) */
	size_t ngaps, capgaps;
	int failed;
	/* MPI */
	struct req *reqs;                /* the requests in flight, in no order */
	size_t nreqs, capreqs;
	struct hindex reqs_by_handle;    /* their numbers (index + 1) by (proc, handle) */
	uint64_t next_req;
	uint64_t mpi_skipped;            /* MPI records left out: communicator unknown */
	uint64_t req_unknown;            /* completions of requests never seen posted */
	struct otf2_io *io;              /* I/O handles and files (render/otf2/io.c) */
	struct otf2_rma *rma;            /* RMA windows (render/otf2/rma.c) */
	/* decided at the end (otf2_system_prepare) */
	int mpi;                         /* the trace has MPI: MPI groups and communicators */
	OTF2_LocationRef *rank_refs;     /* the location of each world rank, then one for
					  * members no record names (when any); known to the
					  * first analysis process once the system is written */
	size_t nrank_locs, world;
	struct sproc *sprocs;            /* every analysis process's processes, described to
					  * the first (render/otf2/system.c) */
	size_t nsprocs;
	struct otf2_idmaps *maps;        /* this analysis process's refs in the archive, when
					  * it is not the first (render/otf2/unify.c) */
};

/* ---- render/otf2/error.c: errors of writing -------------------------------------------------- */

/* libotf2's errors are reported through o from here on (until otf2_errors_release). */
void otf2_errors_catch(struct otf2 *o);
void otf2_errors_release(void);
/* A failed call's error is said once; the output is marked failed. */
void otf2_check(struct otf2 *o, OTF2_ErrorCode rc);

/* ---- render/otf2/collop.c -------------------------------------------------------------------- */

int otf2_coll_op(unsigned coll);   /* an enum msgpass_coll as OTF2_CollectiveOp, or -1 */

/* ---- render/otf2/contexts.c: CPU samples' calling contexts ----------------------------------- */

/* The calling context of a sample's stack (its innermost callsite's number; 0: none). */
uint32_t otf2_context(struct otf2 *o, const struct scene_stack *st);
/* The unwind distance from the calling context `from` (0: none) to `to` (OTF2's
 * CallingContext): the frames of `to` below the deepest one the two share, plus one. */
uint32_t otf2_unwind_distance(const struct otf2 *o, uint32_t from, uint32_t to);
/* An interval between two samples of one thread, the later at t, for the sampling period. */
struct sample_gap {
	int64_t t, gap;
};
void otf2_sample_gap(struct otf2 *o, int64_t t, int64_t gap);
/* Under --parallel: each analysis process packs its calling contexts and intervals; the first
 * replays every other's, its contexts becoming the first's (m: their refs in the archive). */
void otf2_contexts_pack(const struct otf2 *o, struct pack *b);
void otf2_contexts_replay(struct otf2 *o, struct unpack *u, struct otf2_idmaps *m);
/* The interrupt generator "CPU sampling" and every calling context, after the regions. */
void otf2_contexts_write(struct otf2 *o, OTF2_GlobalDefWriter *gw);
void otf2_contexts_free(struct otf2 *o);

/* ---- render/otf2/defs.c: the definitions registry -------------------------------------------- */

struct otf2_defs *otf2_defs_new(const struct trace *tr);
void otf2_defs_free(struct otf2_defs *d);
OTF2_StringRef otf2_str(struct otf2_defs *d, const char *s);
OTF2_StringRef otf2_tstr(struct otf2_defs *d, uint32_t trace_id);
/* The kind of region a scene category (an item's cat) names, for slices on a location of
 * kind `where`: an index for otf2_region.  Instants are marks, whatever their category. */
int otf2_category(struct otf2_defs *d, const char *cat, enum loc_kind where);
int otf2_category_mark(struct otf2_defs *d);
int otf2_category_step(struct otf2_defs *d);
OTF2_RegionRef otf2_region(struct otf2_defs *d, uint32_t name, int category);
/* A region whose calls are the collective `coll` (enum msgpass_coll): its role says which. */
void otf2_region_coll(struct otf2_defs *d, OTF2_RegionRef r, unsigned coll);
/* The attribute named `name` of type `type` (a new one the first time). */
OTF2_AttributeRef otf2_attr(struct otf2_defs *d, const char *name, const char *desc,
			    OTF2_Type type);
/* The attribute of ref's type named "<ref's name> (k)", for a k-th value of one name in one
 * attribute list (which may hold an attribute once). */
OTF2_AttributeRef otf2_attr_again(struct otf2_defs *d, OTF2_AttributeRef ref, unsigned k);
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
/* The analysis processes' definitions made one: each packs its own; the first replays each
 * other's through its registry, which hands out the refs they have in the archive. */
void otf2_defs_pack(const struct otf2_defs *d, struct pack *b);
void otf2_defs_replay(struct otf2_defs *d, struct unpack *u, struct otf2_idmaps *m);

/* otf2_category, asked of the defs when the category (its address) or `where` changed. */
static inline int otf2_cat(struct otf2 *o, const char *cat, enum loc_kind where)
{
	if (cat != o->last_cat || where != o->last_where || !cat) {
		o->last_cat_kind = otf2_category(o->defs, cat ? cat : "call", where);
		o->last_cat = cat;
		o->last_where = where;
	}
	return o->last_cat_kind;
}

/* ---- render/otf2/attrs.c: arguments as attributes -------------------------------------------- */

struct otf2_attrs *otf2_attrs_new(void);
void otf2_attrs_free(struct otf2_attrs *a);
/* The arguments of an item as the attributes of the next record written (save NULL), or
 * kept in *save for a record written later; an argument named `skip` is left out.  (Most
 * items have none: the calls are inline.) */
void otf2_args_add(struct otf2 *o, const struct scene_args *args, struct saved *save,
		   const char *skip);
static inline void otf2_args(struct otf2 *o, const struct scene_args *args, struct saved *save,
			     const char *skip)
{
	if (args && args->n)
		otf2_args_add(o, args, save, skip);
}
/* Kept attributes onto the next record written; *s is emptied. */
void otf2_saved_add(struct otf2 *o, struct saved *s);
void otf2_saved_release(struct saved *s);
static inline void otf2_saved_use(struct otf2 *o, struct saved *s)
{
	if (s->v)
		otf2_saved_add(o, s);
}
static inline void otf2_saved_free(struct saved *s)
{
	if (s->v)
		otf2_saved_release(s);
}
/* "clipped" on the next record written: cut to the window here. */
void otf2_attr_clipped(struct otf2 *o);
/* The unsigned argument `key` (0 when there is none). */
uint64_t otf2_arg_u64(const struct scene_args *args, const char *key);

/* ---- render/otf2/io.c: I/O handles and files ---------------------------------------------- */

/* The handle of process proc's file number `number` (its name a trace string id, opened over
 * comm), made the first time. */
OTF2_IoHandleRef otf2_io_handle(struct otf2 *o, int proc, uint32_t number, uint32_t name,
				OTF2_CommRef comm);
/* The I/O paradigm, files and handles, after the communicators. */
void otf2_io_write_defs(struct otf2 *o, OTF2_GlobalDefWriter *gw);
/* Under --parallel, the handles an analysis process made (render/otf2/unify.c): packed for the
 * first, which makes them its own (the refs they became in m). */
void otf2_io_pack(const struct otf2 *o, struct pack *b);
void otf2_io_replay(struct otf2 *o, struct unpack *u, struct otf2_idmaps *m);
void otf2_io_free(struct otf2 *o);
/* An I/O record (MR_IO_*). */
OTF2_ErrorCode otf2_io_put(OTF2_EvtWriter *w, OTF2_TimeStamp ts, const struct mrec *m);

/* ---- render/otf2/rma.c: RMA windows and operations ------------------------------------- */

/* The RMA records of a call of process proc (1; 0 when it has none of its own kind), and in
 * *on_req what its request's completion writes. */
int otf2_rma_call(struct otf2 *o, const struct msgpass *mp, int proc, struct mrec *after,
		  struct mrec *before, struct mrec *on_req);
/* The windows, after the communicators. */
void otf2_rma_write_defs(struct otf2 *o, OTF2_GlobalDefWriter *gw);
/* Under --parallel, the windows an analysis process met (render/otf2/unify.c): packed for the
 * first, which makes them its own (the refs they became in m). */
void otf2_rma_pack(const struct otf2 *o, struct pack *b);
void otf2_rma_replay(struct otf2 *o, struct unpack *u, struct otf2_idmaps *m);
void otf2_rma_free(struct otf2 *o);
/* An RMA record (MR_RMA_*). */
OTF2_ErrorCode otf2_rma_put(OTF2_EvtWriter *w, OTF2_TimeStamp ts, const struct mrec *m);

/* ---- render/otf2/records.c: each location's records ----------------------------------------- */

/* A record on l (its attributes, for Enter, Leave and a sample: o->attrs, emptied). */
void otf2_record(struct otf2 *o, struct loc *l, struct rec *r);
/* Every location's writer closed, the records still kept written first; at the end. */
void otf2_records_close(struct otf2 *o);

/* ---- render/otf2/loc.c: locations and records ------------------------------------------------ */

/* The per-process tables (o->ps), and everything about the locations freed at the end. */
void otf2_locs_new(struct otf2 *o, const struct trace *tr);
void otf2_locs_free(struct otf2 *o);
struct pstate *otf2_pstate(struct otf2 *o, const struct proc *p);
struct loc *otf2_loc_new(struct otf2 *o, enum loc_kind kind, const struct proc *p);
/* The location of an item's track, made the first time (NULL: none for it). */
struct loc *otf2_track_loc(struct otf2 *o, const struct scene_item *it);
/* Each track's name from the scene (tracks_metadata), at the end. */
void otf2_locs_name(struct otf2 *o);
OTF2_TimeStamp otf2_time(struct otf2 *o, struct loc *l, int64_t t);
void otf2_enter(struct otf2 *o, struct loc *l, int64_t t, OTF2_RegionRef r);
void otf2_leave(struct otf2 *o, struct loc *l, int64_t t, OTF2_RegionRef r);
/* An item's name as a trace string id. */
static inline uint32_t otf2_item_name(const struct scene_item *it)
{
	return it->name || !it->name_str ? it->name : strings_add(it->name_str, strlen(it->name_str));
}
/* Where a slice that came from a call ends in the archive: at the window's end when it runs
 * past it (*clipped then set). */
int64_t otf2_call_end(struct otf2 *o, const struct scene_item *it, int *clipped);

/* ---- render/otf2/comms.c: MPI groups and communicators --------------------------------------- */

void otf2_comms_write(struct otf2 *o, OTF2_GlobalDefWriter *gw);

/* ---- render/otf2/system.c: the system tree, location groups and locations -------------------- */

/* Which location stands for each MPI rank, and locations for ranks and processes that
 * have none of their own; before the event writers close. */
void otf2_system_prepare(struct otf2 *o);
int otf2_loc_defined(const struct loc *l);
/* Every analysis process describes its processes to the first (collective), which then
 * writes the tree, the location groups and the locations. */
void otf2_system_gather(struct otf2 *o);
void otf2_system_write(struct otf2 *o, OTF2_GlobalDefWriter *gw);
void otf2_system_free(struct otf2 *o);

/* ---- render/otf2/unify.c: the analysis processes' definitions made one ------------------------ */

/* Under --parallel, every analysis process's definitions to the first, and its refs in the
 * archive back (collective); nothing in one process. */
void otf2_unify(struct otf2 *o);
/* Every defined location's file of local definitions: empty, or the mapping tables from its
 * analysis process's refs to the archive's (collective). */
void otf2_local_defs_write(struct otf2 *o);
void otf2_unify_free(struct otf2 *o);

/* ---- render/otf2/collectives.c --------------------------------------------------------------- */

/* libotf2's collective operations: over the analysis processes under --parallel, else its
 * serial ones. */
OTF2_ErrorCode otf2_collectives_set(OTF2_Archive *ar);

/* ---- render/otf2/globaldefs.c ---------------------------------------------------------------- */

/* Everything the archive needs besides the events; the event writers are closed by then. */
void otf2_globaldefs_write(struct otf2 *o);

/* ---- the item writers --------------------------------------------------------------------- */

/* render/otf2/process.c: a process's steps, counters, ranges across threads */
void otf2_step_item(struct otf2 *o, const struct scene_item *it);
void otf2_counter_item(struct otf2 *o, const struct scene_item *it);
void otf2_async_item(struct otf2 *o, const struct scene_item *it);

/* render/otf2/device.c: device streams, NeuronCore lanes (any track but a thread's) */
void otf2_device_item(struct otf2 *o, struct loc *l, const struct scene_item *it);
void otf2_device_finish(struct otf2 *o, struct loc *l);

/* render/otf2/mpi.c: MPI records from the model's message-passing facts (struct msgpass) */
/* The records of a call of process `proc`: after its Enter, and before its Leave. */
void otf2_mpi_call(struct otf2 *o, const struct msgpass *mp, int proc, struct mrec *after_enter,
		   struct mrec *before_leave);
/* The record of a request completed or started inside a call (MR_NONE: none to write). */
void otf2_mpi_req(struct otf2 *o, const struct msgpass *mp, int proc, struct mrec *m);
void otf2_mpi_write(struct otf2 *o, struct loc *l, int64_t t, const struct mrec *m);
void otf2_mpi_free(struct otf2 *o);

/* render/otf2/host.c: threads (calls, ranges, marks, MPI records in order) */
void otf2_host_item(struct otf2 *o, struct loc *l, const struct scene_item *it);
void otf2_host_finish(struct otf2 *o, struct loc *l);

#endif
