/* hook-mpi-pcoll.c — MPI-4's persistent collectives (MPI_*_init), beside the other collectives
 * (hook-mpi-coll.c) in a file of their own: with all of them in one file the compiler stopped
 * inlining the recording into the collectives' wrappers. */
#include "hook-mpi-coll.h"

/* ---- persistent collectives (MPI-4) ------------------------------------------------------- */

/* Made once (op OTHER, like MPI_Send_init: it posts nothing) with the bytes of one instance;
 * each MPI_Start starts one instance, numbered then among the collectives on the
 * communicator (hook-mpi-req.c), which completes in an MPIREQ. */
#define PCOLL(name, root_v, sbuf_v, bytes, ...)                                            \
	{                                                                                  \
		MPI_WRAPPER_BEGIN(name, 2, TPROF_MPI_OTHER, MPI_REQ_UNITS(1), (__VA_ARGS__)); \
		struct tprof_mpi_comm *e;                                                  \
		c->a->comm = mpi_comm_of(comm, &e);                                        \
		c->a->peer = (root_v);                                                     \
		c->a->flags = TPROF_MPIF_NONBLOCKING | TPROF_MPIF_PERSISTENT;              \
		if ((sbuf_v) == TMPI_IN_PLACE)                                             \
			c->a->flags |= TPROF_MPIF_INPLACE;                                 \
		tprof_call_enter(&c->call);                                               \
		int rc = real(__VA_ARGS__);                                                \
		if (rc == TMPI_SUCCESS && req) {                                           \
			struct comm_sizes z = sizes_of(e);                                 \
			(void)z;                                                           \
			bytes;                                                             \
			c->b->req = (uint64_t)(uintptr_t)MPI_KEY(*req);                    \
			mpi_track(c, *req, TPROF_MPI_ICOLL, 1, e);                         \
		}                                                                          \
		return tprof_call_leave(&c->call, rc);                                    \
	}

TPROF_EXPORT int MPI_Barrier_init(MComm comm, MInfo info, MReq *req)
PCOLL(MPI_Barrier_init, NOROOT, NOBUF, (void)0, comm, info, req)

TPROF_EXPORT int MPI_Bcast_init(void *buf, int count, MType type, int root, MComm comm,
				MInfo info, MReq *req)
PCOLL(MPI_Bcast_init, root_rank(root), NOBUF, bytes_bcast(c, &z, count, type, root),
      buf, count, type, root, comm, info, req)

TPROF_EXPORT int MPI_Reduce_init(const void *sbuf, void *rbuf, int count, MType type, MOp op,
				 int root, MComm comm, MInfo info, MReq *req)
PCOLL(MPI_Reduce_init, root_rank(root), sbuf, bytes_reduce(c, &z, count, type, root),
      sbuf, rbuf, count, type, op, root, comm, info, req)

TPROF_EXPORT int MPI_Allreduce_init(const void *sbuf, void *rbuf, int count, MType type, MOp op,
				    MComm comm, MInfo info, MReq *req)
PCOLL(MPI_Allreduce_init, NOROOT, sbuf, bytes_both(c, count, type),
      sbuf, rbuf, count, type, op, comm, info, req)

TPROF_EXPORT int MPI_Scan_init(const void *sbuf, void *rbuf, int count, MType type, MOp op,
			       MComm comm, MInfo info, MReq *req)
PCOLL(MPI_Scan_init, NOROOT, sbuf, bytes_both(c, count, type),
      sbuf, rbuf, count, type, op, comm, info, req)

TPROF_EXPORT int MPI_Exscan_init(const void *sbuf, void *rbuf, int count, MType type, MOp op,
				 MComm comm, MInfo info, MReq *req)
PCOLL(MPI_Exscan_init, NOROOT, sbuf, bytes_both(c, count, type),
      sbuf, rbuf, count, type, op, comm, info, req)

TPROF_EXPORT int MPI_Gather_init(const void *sbuf, int scount, MType stype, void *rbuf,
				 int rcount, MType rtype, int root, MComm comm, MInfo info,
				 MReq *req)
PCOLL(MPI_Gather_init, root_rank(root), sbuf,
      bytes_gather(c, &z, sbuf, scount, stype, rcount, rtype, root),
      sbuf, scount, stype, rbuf, rcount, rtype, root, comm, info, req)

TPROF_EXPORT int MPI_Scatter_init(const void *sbuf, int scount, MType stype, void *rbuf,
				  int rcount, MType rtype, int root, MComm comm, MInfo info,
				  MReq *req)
PCOLL(MPI_Scatter_init, root_rank(root), rbuf,
      bytes_scatter(c, &z, scount, stype, rbuf, rcount, rtype, root),
      sbuf, scount, stype, rbuf, rcount, rtype, root, comm, info, req)

TPROF_EXPORT int MPI_Allgather_init(const void *sbuf, int scount, MType stype, void *rbuf,
				    int rcount, MType rtype, MComm comm, MInfo info, MReq *req)
PCOLL(MPI_Allgather_init, NOROOT, sbuf,
      bytes_allgather(c, &z, sbuf, scount, stype, rcount, rtype),
      sbuf, scount, stype, rbuf, rcount, rtype, comm, info, req)

TPROF_EXPORT int MPI_Alltoall_init(const void *sbuf, int scount, MType stype, void *rbuf,
				   int rcount, MType rtype, MComm comm, MInfo info, MReq *req)
PCOLL(MPI_Alltoall_init, NOROOT, sbuf,
      bytes_alltoall(c, &z, sbuf, scount, stype, rcount, rtype),
      sbuf, scount, stype, rbuf, rcount, rtype, comm, info, req)

TPROF_EXPORT int MPI_Reduce_scatter_block_init(const void *sbuf, void *rbuf, int rcount,
					       MType type, MOp op, MComm comm, MInfo info,
					       MReq *req)
PCOLL(MPI_Reduce_scatter_block_init, NOROOT, sbuf,
      bytes_reduce_scatter_block(c, &z, rcount, type),
      sbuf, rbuf, rcount, type, op, comm, info, req)

TPROF_EXPORT int MPI_Reduce_scatter_init(const void *sbuf, void *rbuf, const int rcounts[],
					 MType type, MOp op, MComm comm, MInfo info, MReq *req)
PCOLL(MPI_Reduce_scatter_init, NOROOT, sbuf, bytes_reduce_scatter(c, &z, rcounts, type),
      sbuf, rbuf, rcounts, type, op, comm, info, req)

TPROF_EXPORT int MPI_Gatherv_init(const void *sbuf, int scount, MType stype, void *rbuf,
				  const int rcounts[], const int displs[], MType rtype, int root,
				  MComm comm, MInfo info, MReq *req)
PCOLL(MPI_Gatherv_init, root_rank(root), sbuf,
      bytes_gatherv(c, &z, sbuf, scount, stype, rcounts, rtype, root),
      sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm, info, req)

TPROF_EXPORT int MPI_Scatterv_init(const void *sbuf, const int scounts[], const int displs[],
				   MType stype, void *rbuf, int rcount, MType rtype, int root,
				   MComm comm, MInfo info, MReq *req)
PCOLL(MPI_Scatterv_init, root_rank(root), rbuf,
      bytes_scatterv(c, &z, scounts, stype, rbuf, rcount, rtype, root),
      sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm, info, req)

TPROF_EXPORT int MPI_Allgatherv_init(const void *sbuf, int scount, MType stype, void *rbuf,
				     const int rcounts[], const int displs[], MType rtype,
				     MComm comm, MInfo info, MReq *req)
PCOLL(MPI_Allgatherv_init, NOROOT, sbuf,
      bytes_allgatherv(c, &z, sbuf, scount, stype, rcounts, rtype),
      sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm, info, req)

TPROF_EXPORT int MPI_Alltoallv_init(const void *sbuf, const int scounts[], const int sdispls[],
				    MType stype, void *rbuf, const int rcounts[],
				    const int rdispls[], MType rtype, MComm comm, MInfo info,
				    MReq *req)
PCOLL(MPI_Alltoallv_init, NOROOT, sbuf,
      bytes_alltoallv(c, &z, sbuf, scounts, stype, rcounts, rtype),
      sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm, info, req)

TPROF_EXPORT int MPI_Alltoallw_init(const void *sbuf, const int scounts[], const int sdispls[],
				    const MType stypes[], void *rbuf, const int rcounts[],
				    const int rdispls[], const MType rtypes[], MComm comm,
				    MInfo info, MReq *req)
PCOLL(MPI_Alltoallw_init, NOROOT, sbuf,
      bytes_alltoallw(c, &z, sbuf, scounts, stypes, rcounts, rtypes),
      sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm, info, req)

#define MPI_NB_PERSISTENT(name)                                                            \
	TPROF_EXPORT int name(const void *sbuf, int scount, MType stype, void *rbuf, int rcount, \
			      MType rtype, MComm comm, MInfo info, MReq *req)               \
	PCOLL(name, NOROOT, NOBUF, bytes_neighbor(c, e, scount, stype, rcount, rtype),      \
	      sbuf, scount, stype, rbuf, rcount, rtype, comm, info, req)

MPI_NB_PERSISTENT(MPI_Neighbor_allgather_init)
MPI_NB_PERSISTENT(MPI_Neighbor_alltoall_init)

TPROF_EXPORT int MPI_Neighbor_allgatherv_init(const void *sbuf, int scount, MType stype,
					      void *rbuf, const int rcounts[], const int displs[],
					      MType rtype, MComm comm, MInfo info, MReq *req)
PCOLL(MPI_Neighbor_allgatherv_init, NOROOT, NOBUF,
      bytes_neighbor_v(c, e, NULL, scount, stype, rcounts, rtype),
      sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm, info, req)

TPROF_EXPORT int MPI_Neighbor_alltoallv_init(const void *sbuf, const int scounts[],
					     const int sdispls[], MType stype, void *rbuf,
					     const int rcounts[], const int rdispls[], MType rtype,
					     MComm comm, MInfo info, MReq *req)
PCOLL(MPI_Neighbor_alltoallv_init, NOROOT, NOBUF,
      bytes_neighbor_v(c, e, scounts, 0, stype, rcounts, rtype),
      sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm, info, req)

TPROF_EXPORT int MPI_Neighbor_alltoallw_init(const void *sbuf, const int scounts[],
					     const MAint sdispls[], const MType stypes[],
					     void *rbuf, const int rcounts[], const MAint rdispls[],
					     const MType rtypes[], MComm comm, MInfo info, MReq *req)
PCOLL(MPI_Neighbor_alltoallw_init, NOROOT, NOBUF,
      bytes_neighbor_w(c, e, scounts, stypes, rcounts, rtypes),
      sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm, info, req)
