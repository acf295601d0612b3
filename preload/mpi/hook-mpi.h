/* hook-mpi.h — the MPI functions tprof wraps, listed once as data (Open MPI 4.1's C
 * prototypes, with the handle types of mpi-abi.h), and what their wrappers share: the CALL
 * record of an MPI call (struct tprof_mpi_args, and struct tprof_mpi_args2 for a second
 * side or a request), ranks and tags as the records store them, byte counts.
 *
 * Q entries get a generated wrapper with no arguments worth recording, QC ones record the
 * communicator they are given first; H entries are written by hand, and so are P entries,
 * the calls that poll (their unsuccessful calls are folded into runs, poll.h): hook-mpi.c (init,
 * finalize), hook-mpi-p2p.c (blocking point-to-point, probes), hook-mpi-req.c (nonblocking
 * and persistent requests, the Wait and Test families), hook-mpi-coll.c (collectives) and
 * hook-mpi-comm.c (communicators). */
#ifndef TPROF_HOOK_MPI_H
#define TPROF_HOOK_MPI_H

#include <string.h>

#include "../events/api.h"
#include "mpi-abi.h"
#include "mpi-comm.h"
#include "mpi-runtime.h"
#include "../events/poll.h"
#include "../core/resolve.h"

typedef tmpi_Comm MComm;
typedef tmpi_Datatype MType;
typedef tmpi_Request MReq;
typedef tmpi_Status MStatus;

#define MPI_API(X)                                                                             \
	/* init, finalize, queries */                                                          \
	X(H, MPI_Init, (int *argc, char ***argv), (argc, argv))                                \
	X(H, MPI_Init_thread, (int *argc, char ***argv, int required, int *provided),          \
	  (argc, argv, required, provided))                                                    \
	X(H, MPI_Finalize, (void), ())                                                         \
	X(Q, MPI_Initialized, (int *flag), (flag))                                             \
	X(Q, MPI_Finalized, (int *flag), (flag))                                               \
	X(Q, MPI_Query_thread, (int *provided), (provided))                                    \
	X(Q, MPI_Get_processor_name, (char *name, int *len), (name, len))                      \
	X(Q, MPI_Get_version, (int *version, int *subversion), (version, subversion))          \
	X(QC, MPI_Abort, (MComm comm, int code), (comm, code))                                 \
	X(QC, MPI_Comm_rank, (MComm comm, int *rank), (comm, rank))                            \
	X(QC, MPI_Comm_size, (MComm comm, int *size), (comm, size))                            \
	X(QC, MPI_Comm_remote_size, (MComm comm, int *size), (comm, size))                     \
	/* blocking point-to-point */                                                          \
	X(H, MPI_Send, (const void *buf, int count, MType type, int dest, int tag, MComm comm), \
	  (buf, count, type, dest, tag, comm))                                                 \
	X(H, MPI_Ssend, (const void *buf, int count, MType type, int dest, int tag, MComm comm), \
	  (buf, count, type, dest, tag, comm))                                                 \
	X(H, MPI_Bsend, (const void *buf, int count, MType type, int dest, int tag, MComm comm), \
	  (buf, count, type, dest, tag, comm))                                                 \
	X(H, MPI_Rsend, (const void *buf, int count, MType type, int dest, int tag, MComm comm), \
	  (buf, count, type, dest, tag, comm))                                                 \
	X(H, MPI_Recv, (void *buf, int count, MType type, int source, int tag, MComm comm,     \
			MStatus *status), (buf, count, type, source, tag, comm, status))       \
	X(H, MPI_Sendrecv, (const void *sbuf, int scount, MType stype, int dest, int stag,     \
			    void *rbuf, int rcount, MType rtype, int source, int rtag, MComm comm, \
			    MStatus *status),                                                  \
	  (sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, comm, status))  \
	X(H, MPI_Sendrecv_replace, (void *buf, int count, MType type, int dest, int stag,      \
				    int source, int rtag, MComm comm, MStatus *status),        \
	  (buf, count, type, dest, stag, source, rtag, comm, status))                          \
	X(H, MPI_Probe, (int source, int tag, MComm comm, MStatus *status),                    \
	  (source, tag, comm, status))                                                         \
	X(P, MPI_Iprobe, (int source, int tag, MComm comm, int *flag, MStatus *status),        \
	  (source, tag, comm, flag, status))                                                   \
	X(H, MPI_Mprobe, (int source, int tag, MComm comm, tmpi_Message *msg, MStatus *status), \
	  (source, tag, comm, msg, status))                                                    \
	X(P, MPI_Improbe, (int source, int tag, MComm comm, int *flag, tmpi_Message *msg,      \
			   MStatus *status), (source, tag, comm, flag, msg, status))           \
	X(H, MPI_Mrecv, (void *buf, int count, MType type, tmpi_Message *msg, MStatus *status), \
	  (buf, count, type, msg, status))                                                     \
	/* nonblocking and persistent point-to-point */                                        \
	X(H, MPI_Isend, (const void *buf, int count, MType type, int dest, int tag, MComm comm, \
			 MReq *req), (buf, count, type, dest, tag, comm, req))                 \
	X(H, MPI_Issend, (const void *buf, int count, MType type, int dest, int tag, MComm comm, \
			  MReq *req), (buf, count, type, dest, tag, comm, req))                \
	X(H, MPI_Ibsend, (const void *buf, int count, MType type, int dest, int tag, MComm comm, \
			  MReq *req), (buf, count, type, dest, tag, comm, req))                \
	X(H, MPI_Irsend, (const void *buf, int count, MType type, int dest, int tag, MComm comm, \
			  MReq *req), (buf, count, type, dest, tag, comm, req))                \
	X(H, MPI_Irecv, (void *buf, int count, MType type, int source, int tag, MComm comm,    \
			 MReq *req), (buf, count, type, source, tag, comm, req))               \
	X(H, MPI_Imrecv, (void *buf, int count, MType type, tmpi_Message *msg, MReq *req),     \
	  (buf, count, type, msg, req))                                                        \
	X(H, MPI_Send_init, (const void *buf, int count, MType type, int dest, int tag,        \
			     MComm comm, MReq *req), (buf, count, type, dest, tag, comm, req)) \
	X(H, MPI_Ssend_init, (const void *buf, int count, MType type, int dest, int tag,       \
			      MComm comm, MReq *req), (buf, count, type, dest, tag, comm, req)) \
	X(H, MPI_Bsend_init, (const void *buf, int count, MType type, int dest, int tag,       \
			      MComm comm, MReq *req), (buf, count, type, dest, tag, comm, req)) \
	X(H, MPI_Rsend_init, (const void *buf, int count, MType type, int dest, int tag,       \
			      MComm comm, MReq *req), (buf, count, type, dest, tag, comm, req)) \
	X(H, MPI_Recv_init, (void *buf, int count, MType type, int source, int tag,            \
			     MComm comm, MReq *req), (buf, count, type, source, tag, comm, req)) \
	X(H, MPI_Start, (MReq *req), (req))                                                    \
	X(H, MPI_Startall, (int count, MReq reqs[]), (count, reqs))                            \
	X(H, MPI_Request_free, (MReq *req), (req))                                             \
	X(H, MPI_Cancel, (MReq *req), (req))                                                   \
	/* completion */                                                                       \
	X(H, MPI_Wait, (MReq *req, MStatus *status), (req, status))                            \
	X(H, MPI_Waitall, (int count, MReq reqs[], MStatus statuses[]), (count, reqs, statuses)) \
	X(H, MPI_Waitany, (int count, MReq reqs[], int *index, MStatus *status),               \
	  (count, reqs, index, status))                                                        \
	X(H, MPI_Waitsome, (int count, MReq reqs[], int *outcount, int indices[],              \
			    MStatus statuses[]), (count, reqs, outcount, indices, statuses))   \
	X(P, MPI_Test, (MReq *req, int *flag, MStatus *status), (req, flag, status))           \
	X(P, MPI_Testall, (int count, MReq reqs[], int *flag, MStatus statuses[]),             \
	  (count, reqs, flag, statuses))                                                       \
	X(P, MPI_Testany, (int count, MReq reqs[], int *index, int *flag, MStatus *status),    \
	  (count, reqs, index, flag, status))                                                  \
	X(P, MPI_Testsome, (int count, MReq reqs[], int *outcount, int indices[],              \
			    MStatus statuses[]), (count, reqs, outcount, indices, statuses))   \
	/* collectives */                                                                      \
	MPI_COLL_API(X)                                                                        \
	/* communicators */                                                                    \
	X(H, MPI_Comm_split, (MComm comm, int color, int key, MComm *out), (comm, color, key, out)) \
	X(H, MPI_Comm_split_type, (MComm comm, int type, int key, tmpi_Info info, MComm *out), \
	  (comm, type, key, info, out))                                                        \
	X(H, MPI_Comm_dup, (MComm comm, MComm *out), (comm, out))                              \
	X(H, MPI_Comm_dup_with_info, (MComm comm, tmpi_Info info, MComm *out), (comm, info, out)) \
	X(H, MPI_Comm_idup, (MComm comm, MComm *out, MReq *req), (comm, out, req))             \
	X(H, MPI_Comm_create, (MComm comm, tmpi_Group group, MComm *out), (comm, group, out))  \
	X(H, MPI_Comm_create_group, (MComm comm, tmpi_Group group, int tag, MComm *out),       \
	  (comm, group, tag, out))                                                             \
	X(H, MPI_Intercomm_create, (MComm comm, int local_leader, MComm bridge,                \
				    int remote_leader, int tag, MComm *out),                   \
	  (comm, local_leader, bridge, remote_leader, tag, out))                               \
	X(H, MPI_Intercomm_merge, (MComm comm, int high, MComm *out), (comm, high, out))       \
	X(H, MPI_Cart_create, (MComm comm, int ndims, const int dims[], const int periods[],   \
			       int reorder, MComm *out), (comm, ndims, dims, periods, reorder, out)) \
	X(H, MPI_Cart_sub, (MComm comm, const int remain[], MComm *out), (comm, remain, out))  \
	X(H, MPI_Graph_create, (MComm comm, int nnodes, const int index[], const int edges[],  \
				int reorder, MComm *out), (comm, nnodes, index, edges, reorder, out)) \
	X(H, MPI_Dist_graph_create, (MComm comm, int n, const int nodes[], const int degrees[], \
				     const int targets[], const int weights[], tmpi_Info info, \
				     int reorder, MComm *out),                                 \
	  (comm, n, nodes, degrees, targets, weights, info, reorder, out))                     \
	X(H, MPI_Dist_graph_create_adjacent, (MComm comm, int indeg, const int sources[],      \
					      const int sweights[], int outdeg,                \
					      const int dests[], const int dweights[],         \
					      tmpi_Info info, int reorder, MComm *out),        \
	  (comm, indeg, sources, sweights, outdeg, dests, dweights, info, reorder, out))       \
	X(H, MPI_Comm_free, (MComm *comm), (comm))                                             \
	X(H, MPI_Comm_set_name, (MComm comm, const char *name), (comm, name))

/* The collectives, blocking then nonblocking (the same arguments and a request). */
#define MPI_COLL_API(X)                                                                        \
	X(H, MPI_Barrier, (MComm comm), (comm))                                                \
	X(H, MPI_Bcast, (void *buf, int count, MType type, int root, MComm comm),              \
	  (buf, count, type, root, comm))                                                      \
	X(H, MPI_Reduce, (const void *sbuf, void *rbuf, int count, MType type, tmpi_Op op,     \
			  int root, MComm comm), (sbuf, rbuf, count, type, op, root, comm))    \
	X(H, MPI_Allreduce, (const void *sbuf, void *rbuf, int count, MType type, tmpi_Op op,  \
			     MComm comm), (sbuf, rbuf, count, type, op, comm))                 \
	X(H, MPI_Gather, (const void *sbuf, int scount, MType stype, void *rbuf, int rcount,   \
			  MType rtype, int root, MComm comm),                                  \
	  (sbuf, scount, stype, rbuf, rcount, rtype, root, comm))                              \
	X(H, MPI_Gatherv, (const void *sbuf, int scount, MType stype, void *rbuf,              \
			   const int rcounts[], const int displs[], MType rtype, int root,     \
			   MComm comm), (sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm)) \
	X(H, MPI_Scatter, (const void *sbuf, int scount, MType stype, void *rbuf, int rcount,  \
			   MType rtype, int root, MComm comm),                                 \
	  (sbuf, scount, stype, rbuf, rcount, rtype, root, comm))                              \
	X(H, MPI_Scatterv, (const void *sbuf, const int scounts[], const int displs[],         \
			    MType stype, void *rbuf, int rcount, MType rtype, int root,        \
			    MComm comm), (sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm)) \
	X(H, MPI_Allgather, (const void *sbuf, int scount, MType stype, void *rbuf, int rcount, \
			     MType rtype, MComm comm), (sbuf, scount, stype, rbuf, rcount, rtype, comm)) \
	X(H, MPI_Allgatherv, (const void *sbuf, int scount, MType stype, void *rbuf,           \
			      const int rcounts[], const int displs[], MType rtype, MComm comm), \
	  (sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm))                           \
	X(H, MPI_Alltoall, (const void *sbuf, int scount, MType stype, void *rbuf, int rcount, \
			    MType rtype, MComm comm), (sbuf, scount, stype, rbuf, rcount, rtype, comm)) \
	X(H, MPI_Alltoallv, (const void *sbuf, const int scounts[], const int sdispls[],       \
			     MType stype, void *rbuf, const int rcounts[], const int rdispls[], \
			     MType rtype, MComm comm),                                         \
	  (sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm))                \
	X(H, MPI_Alltoallw, (const void *sbuf, const int scounts[], const int sdispls[],       \
			     const MType stypes[], void *rbuf, const int rcounts[],            \
			     const int rdispls[], const MType rtypes[], MComm comm),           \
	  (sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm))              \
	X(H, MPI_Reduce_scatter, (const void *sbuf, void *rbuf, const int rcounts[], MType type, \
				  tmpi_Op op, MComm comm), (sbuf, rbuf, rcounts, type, op, comm)) \
	X(H, MPI_Reduce_scatter_block, (const void *sbuf, void *rbuf, int rcount, MType type,  \
					tmpi_Op op, MComm comm), (sbuf, rbuf, rcount, type, op, comm)) \
	X(H, MPI_Scan, (const void *sbuf, void *rbuf, int count, MType type, tmpi_Op op,       \
			MComm comm), (sbuf, rbuf, count, type, op, comm))                      \
	X(H, MPI_Exscan, (const void *sbuf, void *rbuf, int count, MType type, tmpi_Op op,     \
			  MComm comm), (sbuf, rbuf, count, type, op, comm))                    \
	X(H, MPI_Ibarrier, (MComm comm, MReq *req), (comm, req))                               \
	X(H, MPI_Ibcast, (void *buf, int count, MType type, int root, MComm comm, MReq *req),  \
	  (buf, count, type, root, comm, req))                                                 \
	X(H, MPI_Ireduce, (const void *sbuf, void *rbuf, int count, MType type, tmpi_Op op,    \
			   int root, MComm comm, MReq *req),                                   \
	  (sbuf, rbuf, count, type, op, root, comm, req))                                      \
	X(H, MPI_Iallreduce, (const void *sbuf, void *rbuf, int count, MType type, tmpi_Op op, \
			      MComm comm, MReq *req), (sbuf, rbuf, count, type, op, comm, req)) \
	X(H, MPI_Igather, (const void *sbuf, int scount, MType stype, void *rbuf, int rcount,  \
			   MType rtype, int root, MComm comm, MReq *req),                      \
	  (sbuf, scount, stype, rbuf, rcount, rtype, root, comm, req))                         \
	X(H, MPI_Igatherv, (const void *sbuf, int scount, MType stype, void *rbuf,             \
			    const int rcounts[], const int displs[], MType rtype, int root,    \
			    MComm comm, MReq *req),                                            \
	  (sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm, req))                \
	X(H, MPI_Iscatter, (const void *sbuf, int scount, MType stype, void *rbuf, int rcount, \
			    MType rtype, int root, MComm comm, MReq *req),                     \
	  (sbuf, scount, stype, rbuf, rcount, rtype, root, comm, req))                         \
	X(H, MPI_Iscatterv, (const void *sbuf, const int scounts[], const int displs[],        \
			     MType stype, void *rbuf, int rcount, MType rtype, int root,       \
			     MComm comm, MReq *req),                                           \
	  (sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm, req))                \
	X(H, MPI_Iallgather, (const void *sbuf, int scount, MType stype, void *rbuf,           \
			      int rcount, MType rtype, MComm comm, MReq *req),                 \
	  (sbuf, scount, stype, rbuf, rcount, rtype, comm, req))                               \
	X(H, MPI_Iallgatherv, (const void *sbuf, int scount, MType stype, void *rbuf,          \
			       const int rcounts[], const int displs[], MType rtype, MComm comm, \
			       MReq *req), (sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm, req)) \
	X(H, MPI_Ialltoall, (const void *sbuf, int scount, MType stype, void *rbuf, int rcount, \
			     MType rtype, MComm comm, MReq *req),                              \
	  (sbuf, scount, stype, rbuf, rcount, rtype, comm, req))                               \
	X(H, MPI_Ialltoallv, (const void *sbuf, const int scounts[], const int sdispls[],      \
			      MType stype, void *rbuf, const int rcounts[], const int rdispls[], \
			      MType rtype, MComm comm, MReq *req),                             \
	  (sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm, req))           \
	X(H, MPI_Ialltoallw, (const void *sbuf, const int scounts[], const int sdispls[],      \
			      const MType stypes[], void *rbuf, const int rcounts[],           \
			      const int rdispls[], const MType rtypes[], MComm comm, MReq *req), \
	  (sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm, req))         \
	X(H, MPI_Ireduce_scatter, (const void *sbuf, void *rbuf, const int rcounts[],          \
				   MType type, tmpi_Op op, MComm comm, MReq *req),             \
	  (sbuf, rbuf, rcounts, type, op, comm, req))                                          \
	X(H, MPI_Ireduce_scatter_block, (const void *sbuf, void *rbuf, int rcount, MType type, \
					 tmpi_Op op, MComm comm, MReq *req),                   \
	  (sbuf, rbuf, rcount, type, op, comm, req))                                           \
	X(H, MPI_Iscan, (const void *sbuf, void *rbuf, int count, MType type, tmpi_Op op,      \
			 MComm comm, MReq *req), (sbuf, rbuf, count, type, op, comm, req))     \
	X(H, MPI_Iexscan, (const void *sbuf, void *rbuf, int count, MType type, tmpi_Op op,    \
			   MComm comm, MReq *req), (sbuf, rbuf, count, type, op, comm, req))

/* The real definitions, found on first use. */
#define MPI_DECLARE(kind, name, params, args)                                             \
	TPROF_REAL_EXTERN(int, name, params, tprof_mpi_lookup)                             \
	TPROF_EXPORT int name params;
MPI_API(MPI_DECLARE)
#undef MPI_DECLARE

#define MPI_INDEX(kind, name, params, args) MPIH_##name,
enum mpi_hook_index {
	MPI_API(MPI_INDEX)
	MPIH_COUNT
};
#undef MPI_INDEX

extern struct tprof_hook tprof_mpi_hooks[] TPROF_HIDDEN;
#define MPI_HOOK(name) (&tprof_mpi_hooks[MPIH_##name])

/* ---- one recorded call -------------------------------------------------------------------- */

/* An MPI call being recorded (struct tprof_call, events/api.h): its arguments go to `a` and
 * `b`, in the CALL record or scratch space. */
struct mpi_call {
	struct tprof_call call;
	struct tprof_mpi_args *a;
	struct tprof_mpi_args2 *b;
};

/* Reserves the CALL with ext (1 or 2) units; `op` and no peer, tag or communicator yet. */
static inline void mpi_begin(struct mpi_call *c, struct tprof_thread *t, struct tprof_hook *h,
			     unsigned ext, uint8_t op)
{
	void *u[2];
	tprof_call_begin(&c->call, t, h, ext, 2, u);
	c->call.corr = TPROF_LIKELY(c->call.r != NULL) ? tprof_next_corr(t) : 0;
	c->a = u[0];
	c->b = u[1];
	c->a->op = op;
	c->a->peer = TPROF_MPI_NONE;
	c->a->tag = TPROF_MPI_NONE;
	c->b->peer = TPROF_MPI_NONE;
	c->b->tag = TPROF_MPI_NONE;
}

/* The same for a call that writes up to `follow` units of MPIREQ records before its end
 * (what it completed or started): room for all of them now, in the call's own buffer. */
static inline void mpi_begin_room(struct mpi_call *c, struct tprof_thread *t,
				  struct tprof_hook *h, unsigned ext, uint8_t op, size_t follow)
{
	tprof_room(t, 1 + ext + follow);
	mpi_begin(c, t, h, ext, op);
}

/* Units of the MPIREQ records of n requests. */
#define MPI_REQ_UNITS(n) (3 * (size_t)((n) > 0 ? (n) : 0))

/* ---- calls that poll (P entries) --------------------------------------------------------- */

/* Calls `real_call` (assigning rc) for a polling function h.  When its unsuccessful calls are
 * folded (poll.h), the call is timed without a record: if `missed` (an expression over rc and
 * what the call returned) holds, it is counted in the thread's run of polls and the wrapper
 * returns rc; else its CALL record is written now, as having begun at its entry.  A poll
 * the run does not time (poll.h) reads no clock when it misses, and one that succeeds begins
 * at its return.  Otherwise the CALL is recorded around the call as every call's is.  Either
 * way, what follows fills the record (and up to `follow` units of MPIREQ records) and ends it
 * with tprof_call_leave.  MPI_POLL_AFTER is the same for a call a fast side (mpi_poll_fast) made
 * already, untimed, returning pre_rc, and could not count: its guard is still held. */
#define MPI_POLL(c, t, h, ext, op, follow, rc, real_call, missed)                         \
	MPI_POLL_AFTER(c, t, h, ext, op, follow, rc, 0, 0, real_call, missed)
#define MPI_POLL_AFTER(c, t, h, ext, op, follow, rc, pre, pre_rc, real_call, missed)      \
	int rc;                                                                            \
	if ((pre) || (mpi_folds(h) && tprof_poll_untimed(t))) {                            \
		int missed_;                                                               \
		if (pre) {                                                                 \
			rc = (pre_rc);                                                     \
			missed_ = (missed);                                                \
		} else {                                                                   \
			(t)->guard++;                                                      \
			rc = real_call;                                                   \
			missed_ = (missed);                                                \
			if (missed_ && tprof_poll_count(t, h)) {                           \
				(t)->guard--;                                              \
				return rc;                                                 \
			}                                                                  \
		}                                                                          \
		uint64_t at_ = tprof_now();                                                \
		if (missed_) {                                                             \
			(t)->guard--;                                                      \
			tprof_poll_missed(t, h, at_, at_);                                 \
			return rc;                                                         \
		}                                                                          \
		tprof_poll_close(t, at_);                                                  \
		mpi_begin_room(c, t, h, ext, op, follow);                                  \
		tprof_call_start_at((c)->call.r, h, ext, (c)->call.corr, at_);            \
	} else if (mpi_folds(h)) {                                                         \
		uint64_t t0_ = tprof_now();                                                \
		(t)->guard++;                                                              \
		rc = real_call;                                                           \
		if (missed) {                                                              \
			uint64_t t1_ = tprof_now();                                        \
			(t)->guard--;                                                      \
			tprof_poll_missed(t, h, t0_, t1_);                                 \
			return rc;                                                         \
		}                                                                          \
		mpi_begin_room(c, t, h, ext, op, follow);                                  \
		tprof_call_start_at((c)->call.r, h, ext, (c)->call.corr, t0_);            \
	} else {                                                                           \
		mpi_begin_room(c, t, h, ext, op, follow);                                  \
		tprof_call_enter(&(c)->call);                                             \
		rc = real_call;                                                           \
	}

static inline int mpi_folds(const struct tprof_hook *h)
{
	return h->poll & h->record;
}

/* Whether a Wait or Test call must find its requests' entries before the real call: when
 * other threads may call MPI meanwhile (MPI_THREAD_MULTIPLE), a request completed in the call
 * could be freed and its handle reused by another thread's new request before a lookup made
 * after it.  Otherwise only the completed requests are looked up, after the call. */
static inline int mpi_lookup_early(void)
{
	return tprof_mpi_h.thread_multiple;
}

_Static_assert(MPI_ARM_IPROBE < TPROF_POLL_ARMS, "a slot for each fast side");

/* Whether a poll with fast side k on thread t can take it: the thread's open run is armed for
 * the function (poll.h: its next poll goes untimed, the function's misses are folded, and
 * under MPI_THREAD_MULTIPLE it needs no lookup of requests before the call,
 * tprof_poll_arms_on), nothing was written on the thread since (else the run is over, and
 * this poll, timed, begins the next) and t records now.  The fast side then makes the call
 * with no more than the handles and status it needs should the call succeed (a call that
 * succeeded wrote its flag), and counts a miss in the run (tprof_poll_count_armed); anything
 * else (a success, an error, a run that closed) goes to the full wrapper, MPI_POLL_AFTER.
 * What is recorded is the same either way: the fast side only leaves out the CALL record's
 * setup (the wrapper's stack frame) on the calls that write none, most of a polling loop's.
 * MPI's state needs no look: a run armed is one that began after MPI_Init, and
 * MPI_Finalize, after which no thread polls, writes a record that ends it.  Nor does the real
 * function: a run counts a function only once it was called. */
static inline int mpi_poll_fast(struct tprof_thread *t, unsigned k)
{
	return t->poll.armed[k] && t->pos == t->poll.end && tprof_should_record(t);
}

/* The real function of a hook whose run is armed (mpi_poll_fast): found, it stays.  Read
 * as volatile, a relaxed load that the call takes as its operand. */
#define MPI_REAL_FOUND(name) (*(name##_fn const volatile *)&real_##name)

/* ---- arguments as the records store them ------------------------------------------------- */

static inline int32_t mpi_rank(int r)
{
	return r >= 0 ? r : r == TMPI_ANY_SOURCE ? TPROF_MPI_ANY
			  : r == TMPI_PROC_NULL ? TPROF_MPI_PROCNULL : TPROF_MPI_NONE;
}

static inline int32_t mpi_tag(int tag)
{
	return tag >= 0 ? tag : tag == TMPI_ANY_TAG ? TPROF_MPI_ANY : TPROF_MPI_NONE;
}

/* Bytes of count elements of type (0 when unknown). */
static inline uint64_t mpi_bytes(int count, MType type)
{
	int size = 0;
	if (count <= 0 || tprof_pmpi.Type_size(type, &size) != TMPI_SUCCESS || size <= 0)
		return 0;
	return (uint64_t)count * (uint64_t)size;
}

/* Fills a receive's peer, tag and bytes from the status it completed with. */
static inline void mpi_received(struct tprof_mpi_args *a, const MStatus *st)
{
	a->peer = mpi_rank(st->MPI_SOURCE);
	a->tag = mpi_tag(st->MPI_TAG);
	a->bytes = st->_ucount;
	if (st->MPI_SOURCE == TMPI_PROC_NULL)
		a->flags |= TPROF_MPIF_PROC_NULL;
}

/* The communicator's id, and its entry in *e. */
static inline uint64_t mpi_comm_of(MComm comm, struct tprof_mpi_comm **e)
{
	*e = tprof_mpi_comm(comm);
	return tprof_mpi_comm_id(*e);
}

static inline uint64_t mpi_comm_id(MComm comm)
{
	return tprof_mpi_comm_id(tprof_mpi_comm(comm));
}

/* hook-mpi-req.c: the request a nonblocking call just made stands for what c recorded (its
 * op, communicator, peer, tag, bytes, seq; `persistent`: made by a *_init call, active only
 * once started; `out`: MPI_Comm_idup's new communicator).  Returns its entry, or NULL when
 * it cannot be tracked or completed already (its MPIREQ is then written at once). */
struct tprof_mpi_req;
struct tprof_mpi_req *mpi_track(struct mpi_call *c, MReq req, uint8_t op, int persistent,
				void *out);

#endif
