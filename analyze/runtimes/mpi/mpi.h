/* mpi.h — the pipeline's MPI stage: MPI calls and requests, as the pipeline decodes them, go
 * to message matching (runtimes/mpi/match.c) and to collective grouping (runtimes/mpi/coll.c) through
 * runtimes/mpi/pipe.c; those two hand the outputs what they find, EV_MESSAGE and EV_COLLECTIVE
 * events (emit.c).  Times are ns from the trace start. */
#ifndef TPROF_ANALYZE_MPI_H
#define TPROF_ANALYZE_MPI_H

#include "../../model/output.h"

struct runtime;
extern const struct runtime runtime_mpi;   /* runtime.c */

struct scene;
struct scene_args;

/* The MPI side of an EV_CALL of domain MPI, or of an EV_MPIREQ. */
struct mpi_info {
	struct tprof_mpi_args a;         /* as recorded: ranks within the communicator */
	struct tprof_mpi_args2 b;        /* b.file, b.group: a string id of the trace (IO, RMA) */
	int has_b;
	const struct mpi_comm *comm;     /* NULL when no COMM record describes a.comm */
	int32_t peer_world;              /* a.peer as a world rank, or TPROF_MPI_* when none */
	int32_t peer2_world;             /* b.peer likewise (SENDRECV) */
};

/* What MPI call or request ev recorded: the call's (NULL for a run of polls), or the
 * EV_MPIREQ's. */
static inline const struct mpi_info *mpi_info_of(const struct event *ev)
{
	return ev->kind == EV_CALL ? ev->call->info : ev->info;
}

/* runtimes/mpi/scene.c: MPI in the scene */
void mpi_scene_call_args(struct scene_args *sa, const struct event *ev);
int mpi_scene_event(struct scene *s, const struct event *ev, unsigned self);

/* runtimes/mpi/msgpass.c: a call (0 when it passes no message) or a request's completion or
 * start as the model's message-passing fact (struct runtime's msgpass); name: the call's, or
 * the request's maker's */
int mpi_msgpass_call(const struct mpi_info *mi, uint32_t name, struct msgpass *mp);
int mpi_msgpass_req(const struct mpi_info *mi, uint32_t name, struct msgpass *mp);
/* The collective a call's name says (MPI_Iallreduce: MPC_ALLREDUCE), MPC_NONE for others. */
uint8_t mpi_coll_of(const char *name);

/* runtimes/mpi/waits.c: the wait states of a message or a collective (struct runtime's
 * waits hook, model/waits.h) */
struct wait_sink;
void mpi_waits(const struct event *ev, const struct wait_sink *s);
/* transfers.c: its matched messages, for the report's matrix (struct runtime's transfers
 * hook, model/transfers.h) */
struct transfer_sink;
void mpi_transfers(const struct event *ev, const struct transfer_sink *s);

/* runtimes/mpi/hangs.c: what was in progress when the data ended (struct runtime's hangs hook,
 * model/hangs.h) */
struct hang_sink;
void mpi_hangs(const struct event *ev, const struct hang_sink *s);
/* A nonblocking collective this process posted and never completed where the data ends (c:
 * its communicator, NULL when not known): a member that entered it and has not left. */
void mpi_hang_posted(const struct hang_sink *s, const struct mpi_comm *c, uint64_t comm,
		     uint32_t seq, const struct coll_member *mb);

/* runtimes/mpi/pipe.c: what the pipeline calls */
void mpi_call(struct pipeline *pl, struct thread *t, uint32_t name, const struct mpi_info *mi,
	      int64_t t0, int64_t t1, uint64_t corr, uint32_t caller, unsigned flags);
void mpi_req(struct pipeline *pl, struct thread *t, uint32_t name, const struct mpi_info *mi,
	     int64_t at, uint64_t corr);
void mpi_finish(struct pipeline *pl);   /* releases what is held, counts, frees */
/* What an MPIREQ's request is (TPROF_MPI_ISEND, _IRECV, _ICOLL or _OTHER): its recorded op,
 * or failing that the name of the call that made it (name). */
int mpi_req_op(const struct mpi_info *mi, uint32_t name);

/* A call that completed a request (or started it), or made it: where it ran and when. */
struct mpi_where {
	struct thread *thread;
	int64_t t0, t1;
	uint32_t caller;                 /* the program's function that made that call (0: not
					  * known: recorded without TPROF_CALLSTACK) */
};

/* runtimes/mpi/match.c: point-to-point messages.  Keys are world ranks; src or tag of a posted
 * receive may be TPROF_MPI_ANY. */
struct match;
struct match *match_new(struct pipeline *pl);
void match_send(struct match *m, const struct mpi_where *w, uint64_t comm, int32_t src,
		int32_t dst, int32_t tag, uint64_t bytes, uint64_t req);
void match_send_cancelled(struct match *m, struct proc *p, uint64_t comm, int32_t src,
			  int32_t dst, int32_t tag, uint64_t req);
/* A receive posted: order is its number in the process's posting order (the recorded seq;
 * 0 when none was recorded: the order of arrival then).  Returns the order used. */
uint64_t match_recv_post(struct match *m, struct proc *p, uint64_t order, uint64_t comm,
			 int32_t src, int32_t tag, int64_t post_t0, uint32_t caller, uint64_t req);
/* A receive completed inside call w at `done`, from src with tag; found by its order, or
 * when that is 0 by its request.  nomsg: MATCH_PROC_NULL or MATCH_CANCELLED, no message. */
#define MATCH_PROC_NULL 1
#define MATCH_CANCELLED 2
void match_recv_done(struct match *m, const struct mpi_where *w, uint64_t order, uint64_t req,
		     uint64_t comm, int32_t src, int32_t tag, uint64_t bytes, int64_t done,
		     int blocking, int nomsg);
void match_finish(struct match *m);     /* and frees m */

/* runtimes/mpi/rma.c: one-sided communication.  What a call on a window is, by its name (a
 * cache by name id, one per user); and each put, get or atomic operation of an origin linked
 * to where it is complete at its target (EV_RMA): the target's fence that ends a fence
 * epoch, its MPI_Win_wait that ends the exposure epoch an access epoch met, or the moment
 * the origin's unlock or flush ended a lock epoch. */
enum rma_kind { RK_OTHER, RK_PUT, RK_GET, RK_ATOMIC, RK_FENCE, RK_LOCK, RK_START, RK_END,
		RK_SYNC, RK_MADE, RK_FREE };
struct rma_kinds {
	uint8_t *kind_of;                /* by name id: its kind (and rma.c's role) + 1; 0: not
					  * looked up */
	size_t n;
};
enum rma_kind rma_kind(struct rma_kinds *k, uint32_t name);
enum rma_kind rma_kind_of(const char *name);    /* the same, uncached */
/* An EV_RMA: the transfer at the origin and where it was complete at the target: the call
 * that ended its epoch there, or (a lock epoch) the target's call at or after the moment. */
struct rma_info {
	uint64_t comm_id;                /* the window's communicator and number over it */
	int32_t window;
	int32_t origin, target;          /* world ranks */
	uint8_t kind;                    /* RK_PUT, RK_GET, RK_ATOMIC */
	uint64_t bytes;                  /* the origin's (sent and fetched, for an atomic one) */
	uint64_t id;                     /* unique within the job (n * K + analysis process):
					  * flow ids */
	struct thread *othread, *tthread;
	int64_t o_t0, o_t1;              /* the origin's call */
	int64_t t_t0, t_t1;              /* the target's call the arrow ends in */
	int64_t t_at;                    /* when it was complete there: in t_t0..t_t1 */
};
struct rmas;
struct rmas *rmas_new(struct pipeline *pl);
void rmas_call(struct rmas *r, const struct mpi_where *w, uint32_t name,
	       const struct mpi_info *mi);
/* Every MPI call that returned, for the lock epochs' operations waiting for their target. */
void rmas_seen(struct rmas *r, const struct mpi_where *w);
void rmas_finish(struct rmas *r);        /* and frees r */

/* runtimes/mpi/coll.c: collectives */
struct colls;
struct colls *colls_new(struct pipeline *pl);
void colls_blocking(struct colls *c, const struct mpi_where *w, uint32_t name,
		    const struct mpi_info *mi);
void colls_post(struct colls *c, const struct mpi_where *w, uint32_t name, const struct mpi_info *mi);
/* A nonblocking collective's request completed inside call w at `at`; name: the call that
 * made the request. */
void colls_done(struct colls *c, const struct mpi_where *w, uint32_t name, const struct mpi_info *mi,
		int64_t at);
void colls_finish(struct colls *c);     /* and frees c */

#endif
