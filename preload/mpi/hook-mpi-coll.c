/* hook-mpi-coll.c — MPI collectives, blocking (op COLL) and nonblocking (op ICOLL, completed
 * by an MPIREQ).  Each records its communicator, root (if any), its number among the
 * collectives called on that communicator (seq: the same on every member, since collectives
 * are ordered per communicator), the bytes this process contributes (args.bytes) and the
 * bytes it obtains (args2.bytes), by the rules of docs/FORMAT.md: count x PMPI_Type_size,
 * summed over the count arrays of the v and w variants; MPI_IN_PLACE takes the size from the
 * other side.  Roots and ranks of inter-communicators follow MPI (MPI_ROOT, MPI_PROC_NULL).
 * The neighbourhood collectives count their topology's sources and destinations
 * (tprof_mpi_comm_degrees). */
#include "hook-mpi-coll.h"

/* ---- the wrappers ------------------------------------------------------------------------- */

/* Blocking (reqp NULL) or nonblocking: the call, its seq on the communicator, then the bytes
 * (`bytes`, with c and z in scope) once the runtime accepted the arguments. */
#define COLL(name, reqp, root_v, sbuf_v, bytes, ...)                                       \
	{                                                                                  \
		struct tprof_thread *t = &tprof_tls;                                       \
		name##_fn real = get_##name();                                             \
		if (!tprof_wrapper_records(t, real) || !tprof_mpi_ready())                 \
			MPI_PASS(name, real, (__VA_ARGS__));                  \
		struct mpi_call c_, *c = &c_;                                              \
		MReq *rq_ = (reqp);                                                        \
		struct tprof_mpi_comm *e;                                                  \
		mpi_begin_room(c, t, MPI_HOOK(name), 2, rq_ ? TPROF_MPI_ICOLL : TPROF_MPI_COLL,     \
			       MPI_REQ_UNITS(rq_ != NULL));                                \
		c->a->comm = mpi_comm_of(comm, &e);                                        \
		c->a->seq = tprof_mpi_coll_seq(e);                                         \
		c->a->peer = (root_v);                                                     \
		if ((sbuf_v) == TMPI_IN_PLACE)                                             \
			c->a->flags |= TPROF_MPIF_INPLACE;                                 \
		if (rq_)                                                                   \
			c->a->flags |= TPROF_MPIF_NONBLOCKING;                             \
		tprof_call_enter(&c->call);                                               \
		int rc = real(__VA_ARGS__);                                                \
		if (rc == TMPI_SUCCESS) {                                                  \
			struct comm_sizes z = sizes_of(e);                                        \
			(void)z;                                                           \
			bytes;                                                             \
			if (rq_) {                                                         \
				c->b->req = (uint64_t)(uintptr_t)MPI_KEY(*rq_);               \
				mpi_track(c, *rq_, TPROF_MPI_ICOLL, 0, NULL);              \
			}                                                                  \
		}                                                                          \
		return tprof_call_leave(&c->call, rc);                                    \
	}


TPROF_EXPORT int MPI_Barrier(MComm comm)
COLL(MPI_Barrier, NULL, NOROOT, NOBUF, (void)0, comm)

TPROF_EXPORT int MPI_Ibarrier(MComm comm, MReq *req)
COLL(MPI_Ibarrier, req, NOROOT, NOBUF, (void)0, comm, req)

TPROF_EXPORT int MPI_Bcast(void *buf, int count, MType type, int root, MComm comm)
COLL(MPI_Bcast, NULL, root_rank(root), NOBUF, bytes_bcast(c, &z, count, type, root),
     buf, count, type, root, comm)

TPROF_EXPORT int MPI_Ibcast(void *buf, int count, MType type, int root, MComm comm, MReq *req)
COLL(MPI_Ibcast, req, root_rank(root), NOBUF, bytes_bcast(c, &z, count, type, root),
     buf, count, type, root, comm, req)

TPROF_EXPORT int MPI_Reduce(const void *sbuf, void *rbuf, int count, MType type, MOp op,
			    int root, MComm comm)
COLL(MPI_Reduce, NULL, root_rank(root), sbuf, bytes_reduce(c, &z, count, type, root),
     sbuf, rbuf, count, type, op, root, comm)

TPROF_EXPORT int MPI_Ireduce(const void *sbuf, void *rbuf, int count, MType type, MOp op,
			     int root, MComm comm, MReq *req)
COLL(MPI_Ireduce, req, root_rank(root), sbuf, bytes_reduce(c, &z, count, type, root),
     sbuf, rbuf, count, type, op, root, comm, req)

TPROF_EXPORT int MPI_Allreduce(const void *sbuf, void *rbuf, int count, MType type, MOp op,
			       MComm comm)
COLL(MPI_Allreduce, NULL, NOROOT, sbuf, bytes_both(c, count, type),
     sbuf, rbuf, count, type, op, comm)

TPROF_EXPORT int MPI_Iallreduce(const void *sbuf, void *rbuf, int count, MType type, MOp op,
				MComm comm, MReq *req)
COLL(MPI_Iallreduce, req, NOROOT, sbuf, bytes_both(c, count, type),
     sbuf, rbuf, count, type, op, comm, req)

TPROF_EXPORT int MPI_Scan(const void *sbuf, void *rbuf, int count, MType type, MOp op,
			  MComm comm)
COLL(MPI_Scan, NULL, NOROOT, sbuf, bytes_both(c, count, type), sbuf, rbuf, count, type, op, comm)

TPROF_EXPORT int MPI_Iscan(const void *sbuf, void *rbuf, int count, MType type, MOp op,
			   MComm comm, MReq *req)
COLL(MPI_Iscan, req, NOROOT, sbuf, bytes_both(c, count, type),
     sbuf, rbuf, count, type, op, comm, req)

TPROF_EXPORT int MPI_Exscan(const void *sbuf, void *rbuf, int count, MType type, MOp op,
			    MComm comm)
COLL(MPI_Exscan, NULL, NOROOT, sbuf, bytes_both(c, count, type),
     sbuf, rbuf, count, type, op, comm)

TPROF_EXPORT int MPI_Iexscan(const void *sbuf, void *rbuf, int count, MType type, MOp op,
			     MComm comm, MReq *req)
COLL(MPI_Iexscan, req, NOROOT, sbuf, bytes_both(c, count, type),
     sbuf, rbuf, count, type, op, comm, req)

TPROF_EXPORT int MPI_Gather(const void *sbuf, int scount, MType stype, void *rbuf, int rcount,
			    MType rtype, int root, MComm comm)
COLL(MPI_Gather, NULL, root_rank(root), sbuf,
     bytes_gather(c, &z, sbuf, scount, stype, rcount, rtype, root),
     sbuf, scount, stype, rbuf, rcount, rtype, root, comm)

TPROF_EXPORT int MPI_Igather(const void *sbuf, int scount, MType stype, void *rbuf, int rcount,
			     MType rtype, int root, MComm comm, MReq *req)
COLL(MPI_Igather, req, root_rank(root), sbuf,
     bytes_gather(c, &z, sbuf, scount, stype, rcount, rtype, root),
     sbuf, scount, stype, rbuf, rcount, rtype, root, comm, req)

TPROF_EXPORT int MPI_Gatherv(const void *sbuf, int scount, MType stype, void *rbuf,
			     const int rcounts[], const int displs[], MType rtype, int root,
			     MComm comm)
COLL(MPI_Gatherv, NULL, root_rank(root), sbuf,
     bytes_gatherv(c, &z, sbuf, scount, stype, rcounts, rtype, root),
     sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm)

TPROF_EXPORT int MPI_Igatherv(const void *sbuf, int scount, MType stype, void *rbuf,
			      const int rcounts[], const int displs[], MType rtype, int root,
			      MComm comm, MReq *req)
COLL(MPI_Igatherv, req, root_rank(root), sbuf,
     bytes_gatherv(c, &z, sbuf, scount, stype, rcounts, rtype, root),
     sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm, req)

TPROF_EXPORT int MPI_Scatter(const void *sbuf, int scount, MType stype, void *rbuf, int rcount,
			     MType rtype, int root, MComm comm)
COLL(MPI_Scatter, NULL, root_rank(root), rbuf,
     bytes_scatter(c, &z, scount, stype, rbuf, rcount, rtype, root),
     sbuf, scount, stype, rbuf, rcount, rtype, root, comm)

TPROF_EXPORT int MPI_Iscatter(const void *sbuf, int scount, MType stype, void *rbuf, int rcount,
			      MType rtype, int root, MComm comm, MReq *req)
COLL(MPI_Iscatter, req, root_rank(root), rbuf,
     bytes_scatter(c, &z, scount, stype, rbuf, rcount, rtype, root),
     sbuf, scount, stype, rbuf, rcount, rtype, root, comm, req)

TPROF_EXPORT int MPI_Scatterv(const void *sbuf, const int scounts[], const int displs[],
			      MType stype, void *rbuf, int rcount, MType rtype, int root,
			      MComm comm)
COLL(MPI_Scatterv, NULL, root_rank(root), rbuf,
     bytes_scatterv(c, &z, scounts, stype, rbuf, rcount, rtype, root),
     sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm)

TPROF_EXPORT int MPI_Iscatterv(const void *sbuf, const int scounts[], const int displs[],
			       MType stype, void *rbuf, int rcount, MType rtype, int root,
			       MComm comm, MReq *req)
COLL(MPI_Iscatterv, req, root_rank(root), rbuf,
     bytes_scatterv(c, &z, scounts, stype, rbuf, rcount, rtype, root),
     sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm, req)

TPROF_EXPORT int MPI_Allgather(const void *sbuf, int scount, MType stype, void *rbuf, int rcount,
			       MType rtype, MComm comm)
COLL(MPI_Allgather, NULL, NOROOT, sbuf,
     bytes_allgather(c, &z, sbuf, scount, stype, rcount, rtype),
     sbuf, scount, stype, rbuf, rcount, rtype, comm)

TPROF_EXPORT int MPI_Iallgather(const void *sbuf, int scount, MType stype, void *rbuf,
				int rcount, MType rtype, MComm comm, MReq *req)
COLL(MPI_Iallgather, req, NOROOT, sbuf,
     bytes_allgather(c, &z, sbuf, scount, stype, rcount, rtype),
     sbuf, scount, stype, rbuf, rcount, rtype, comm, req)

TPROF_EXPORT int MPI_Allgatherv(const void *sbuf, int scount, MType stype, void *rbuf,
				const int rcounts[], const int displs[], MType rtype, MComm comm)
COLL(MPI_Allgatherv, NULL, NOROOT, sbuf,
     bytes_allgatherv(c, &z, sbuf, scount, stype, rcounts, rtype),
     sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm)

TPROF_EXPORT int MPI_Iallgatherv(const void *sbuf, int scount, MType stype, void *rbuf,
				 const int rcounts[], const int displs[], MType rtype, MComm comm,
				 MReq *req)
COLL(MPI_Iallgatherv, req, NOROOT, sbuf,
     bytes_allgatherv(c, &z, sbuf, scount, stype, rcounts, rtype),
     sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm, req)

TPROF_EXPORT int MPI_Alltoall(const void *sbuf, int scount, MType stype, void *rbuf, int rcount,
			      MType rtype, MComm comm)
COLL(MPI_Alltoall, NULL, NOROOT, sbuf,
     bytes_alltoall(c, &z, sbuf, scount, stype, rcount, rtype),
     sbuf, scount, stype, rbuf, rcount, rtype, comm)

TPROF_EXPORT int MPI_Ialltoall(const void *sbuf, int scount, MType stype, void *rbuf, int rcount,
			       MType rtype, MComm comm, MReq *req)
COLL(MPI_Ialltoall, req, NOROOT, sbuf,
     bytes_alltoall(c, &z, sbuf, scount, stype, rcount, rtype),
     sbuf, scount, stype, rbuf, rcount, rtype, comm, req)

TPROF_EXPORT int MPI_Alltoallv(const void *sbuf, const int scounts[], const int sdispls[],
			       MType stype, void *rbuf, const int rcounts[], const int rdispls[],
			       MType rtype, MComm comm)
COLL(MPI_Alltoallv, NULL, NOROOT, sbuf,
     bytes_alltoallv(c, &z, sbuf, scounts, stype, rcounts, rtype),
     sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm)

TPROF_EXPORT int MPI_Ialltoallv(const void *sbuf, const int scounts[], const int sdispls[],
				MType stype, void *rbuf, const int rcounts[], const int rdispls[],
				MType rtype, MComm comm, MReq *req)
COLL(MPI_Ialltoallv, req, NOROOT, sbuf,
     bytes_alltoallv(c, &z, sbuf, scounts, stype, rcounts, rtype),
     sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm, req)

TPROF_EXPORT int MPI_Alltoallw(const void *sbuf, const int scounts[], const int sdispls[],
			       const MType stypes[], void *rbuf, const int rcounts[],
			       const int rdispls[], const MType rtypes[], MComm comm)
COLL(MPI_Alltoallw, NULL, NOROOT, sbuf,
     bytes_alltoallw(c, &z, sbuf, scounts, stypes, rcounts, rtypes),
     sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm)

TPROF_EXPORT int MPI_Ialltoallw(const void *sbuf, const int scounts[], const int sdispls[],
				const MType stypes[], void *rbuf, const int rcounts[],
				const int rdispls[], const MType rtypes[], MComm comm, MReq *req)
COLL(MPI_Ialltoallw, req, NOROOT, sbuf,
     bytes_alltoallw(c, &z, sbuf, scounts, stypes, rcounts, rtypes),
     sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm, req)

TPROF_EXPORT int MPI_Reduce_scatter(const void *sbuf, void *rbuf, const int rcounts[], MType type,
				    MOp op, MComm comm)
COLL(MPI_Reduce_scatter, NULL, NOROOT, sbuf, bytes_reduce_scatter(c, &z, rcounts, type),
     sbuf, rbuf, rcounts, type, op, comm)

TPROF_EXPORT int MPI_Ireduce_scatter(const void *sbuf, void *rbuf, const int rcounts[],
				     MType type, MOp op, MComm comm, MReq *req)
COLL(MPI_Ireduce_scatter, req, NOROOT, sbuf, bytes_reduce_scatter(c, &z, rcounts, type),
     sbuf, rbuf, rcounts, type, op, comm, req)

TPROF_EXPORT int MPI_Reduce_scatter_block(const void *sbuf, void *rbuf, int rcount, MType type,
					  MOp op, MComm comm)
COLL(MPI_Reduce_scatter_block, NULL, NOROOT, sbuf,
     bytes_reduce_scatter_block(c, &z, rcount, type), sbuf, rbuf, rcount, type, op, comm)

TPROF_EXPORT int MPI_Ireduce_scatter_block(const void *sbuf, void *rbuf, int rcount, MType type,
					   MOp op, MComm comm, MReq *req)
COLL(MPI_Ireduce_scatter_block, req, NOROOT, sbuf,
     bytes_reduce_scatter_block(c, &z, rcount, type), sbuf, rbuf, rcount, type, op, comm, req)

/* ---- neighbourhood collectives ------------------------------------------------------------ */

#define MPI_NB_BLOCKING(name)                                                              \
	TPROF_EXPORT int name(const void *sbuf, int scount, MType stype, void *rbuf, int rcount, \
			      MType rtype, MComm comm)                                      \
	COLL(name, NULL, NOROOT, NOBUF, bytes_neighbor(c, e, scount, stype, rcount, rtype), \
	     sbuf, scount, stype, rbuf, rcount, rtype, comm)
#define MPI_NB_NONBLOCKING(name)                                                           \
	TPROF_EXPORT int name(const void *sbuf, int scount, MType stype, void *rbuf, int rcount, \
			      MType rtype, MComm comm, MReq *req)                           \
	COLL(name, req, NOROOT, NOBUF, bytes_neighbor(c, e, scount, stype, rcount, rtype),  \
	     sbuf, scount, stype, rbuf, rcount, rtype, comm, req)

MPI_NB_BLOCKING(MPI_Neighbor_allgather)
MPI_NB_BLOCKING(MPI_Neighbor_alltoall)
MPI_NB_NONBLOCKING(MPI_Ineighbor_allgather)
MPI_NB_NONBLOCKING(MPI_Ineighbor_alltoall)

TPROF_EXPORT int MPI_Neighbor_allgatherv(const void *sbuf, int scount, MType stype, void *rbuf,
					 const int rcounts[], const int displs[], MType rtype,
					 MComm comm)
COLL(MPI_Neighbor_allgatherv, NULL, NOROOT, NOBUF,
     bytes_neighbor_v(c, e, NULL, scount, stype, rcounts, rtype),
     sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm)

TPROF_EXPORT int MPI_Ineighbor_allgatherv(const void *sbuf, int scount, MType stype, void *rbuf,
					  const int rcounts[], const int displs[], MType rtype,
					  MComm comm, MReq *req)
COLL(MPI_Ineighbor_allgatherv, req, NOROOT, NOBUF,
     bytes_neighbor_v(c, e, NULL, scount, stype, rcounts, rtype),
     sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm, req)

TPROF_EXPORT int MPI_Neighbor_alltoallv(const void *sbuf, const int scounts[],
					const int sdispls[], MType stype, void *rbuf,
					const int rcounts[], const int rdispls[], MType rtype,
					MComm comm)
COLL(MPI_Neighbor_alltoallv, NULL, NOROOT, NOBUF,
     bytes_neighbor_v(c, e, scounts, 0, stype, rcounts, rtype),
     sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm)

TPROF_EXPORT int MPI_Ineighbor_alltoallv(const void *sbuf, const int scounts[],
					 const int sdispls[], MType stype, void *rbuf,
					 const int rcounts[], const int rdispls[], MType rtype,
					 MComm comm, MReq *req)
COLL(MPI_Ineighbor_alltoallv, req, NOROOT, NOBUF,
     bytes_neighbor_v(c, e, scounts, 0, stype, rcounts, rtype),
     sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm, req)

TPROF_EXPORT int MPI_Neighbor_alltoallw(const void *sbuf, const int scounts[],
					const MAint sdispls[], const MType stypes[], void *rbuf,
					const int rcounts[], const MAint rdispls[],
					const MType rtypes[], MComm comm)
COLL(MPI_Neighbor_alltoallw, NULL, NOROOT, NOBUF,
     bytes_neighbor_w(c, e, scounts, stypes, rcounts, rtypes),
     sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm)

TPROF_EXPORT int MPI_Ineighbor_alltoallw(const void *sbuf, const int scounts[],
					 const MAint sdispls[], const MType stypes[], void *rbuf,
					 const int rcounts[], const MAint rdispls[],
					 const MType rtypes[], MComm comm, MReq *req)
COLL(MPI_Ineighbor_alltoallw, req, NOROOT, NOBUF,
     bytes_neighbor_w(c, e, scounts, stypes, rcounts, rtypes),
     sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm, req)

