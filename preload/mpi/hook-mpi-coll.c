/* hook-mpi-coll.c — MPI collectives, blocking (op COLL) and nonblocking (op ICOLL, completed
 * by an MPIREQ).  Each records its communicator, root (if any), its number among the
 * collectives called on that communicator (seq: the same on every member, since collectives
 * are ordered per communicator), the bytes this process contributes (args.bytes) and the
 * bytes it obtains (args2.bytes), by the rules of docs/FORMAT.md: count x PMPI_Type_size,
 * summed over the count arrays of the v and w variants; MPI_IN_PLACE takes the size from the
 * other side.  Roots and ranks of inter-communicators follow MPI (MPI_ROOT, MPI_PROC_NULL).
 * The neighbourhood collectives count their topology's sources and destinations
 * (tprof_mpi_comm_degrees). */
#include "hook-mpi.h"

/* What the byte rules need to know of the communicator. */
struct comm_sizes {
	int n;          /* entries of the count arrays: the group size (remote, for inter) */
	int local;      /* the local group's size */
	int rank;       /* this process's rank */
	int inter;
};

static inline struct comm_sizes sizes_of(const struct tprof_mpi_comm *e)
{
	struct comm_sizes z = { 0, 0, -1, 0 };
	if (e) {
		z.inter = e->kind == TPROF_COMMK_INTER;
		z.local = e->size;
		z.n = z.inter ? e->remote_size : e->size;
		z.rank = e->my_rank;
	}
	return z;
}

static inline int32_t root_rank(int root)
{
	return root == TMPI_ROOT ? TPROF_MPI_NONE : mpi_rank(root);
}

/* Where this process stands in a rooted collective. */
enum { AT_ROOT, AT_LEAF, AT_NONE };
static inline int role(const struct comm_sizes *z, int root)
{
	if (z->inter)
		return root == TMPI_ROOT ? AT_ROOT : root == TMPI_PROC_NULL ? AT_NONE : AT_LEAF;
	return root == z->rank ? AT_ROOT : AT_LEAF;
}

static uint64_t sum(const int *counts, int n, MType type)
{
	uint64_t s = 0;
	int size = 0;
	if (!counts || n <= 0 || tprof_pmpi.Type_size(MPI_KEY(type), &size) != TMPI_SUCCESS || size <= 0)
		return 0;
	for (int i = 0; i < n; i++)
		if (counts[i] > 0)
			s += (uint64_t)counts[i] * (uint64_t)size;
	return s;
}

static uint64_t sum_w(const int *counts, const MType *types, int n)
{
	uint64_t s = 0;
	for (int i = 0; counts && types && i < n; i++)
		s += mpi_bytes(counts[i], types[i]);
	return s;
}

static inline uint64_t at(const int *counts, int i, MType type)
{
	return counts && i >= 0 ? mpi_bytes(counts[i], type) : 0;
}

#define SENT(v) (c->a->bytes = (v))
#define RECV(v) (c->b->bytes = (v))

/* ---- the byte rules, one per collective -------------------------------------------------- */

static void bytes_bcast(struct mpi_call *c, const struct comm_sizes *z, int count, MType type,
			int root)
{
	int r = role(z, root);
	if (r == AT_ROOT)
		SENT(mpi_bytes(count, type));
	else if (r == AT_LEAF)
		RECV(mpi_bytes(count, type));
}

static void bytes_reduce(struct mpi_call *c, const struct comm_sizes *z, int count, MType type,
			 int root)
{
	int r = role(z, root);
	if (!z->inter || r == AT_LEAF)
		SENT(mpi_bytes(count, type));
	if (r == AT_ROOT)
		RECV(mpi_bytes(count, type));
}

static void bytes_both(struct mpi_call *c, int count, MType type)
{
	SENT(mpi_bytes(count, type));
	RECV(mpi_bytes(count, type));
}

static void bytes_gather(struct mpi_call *c, const struct comm_sizes *z, const void *sbuf,
			 int scount,
			 MType stype, int rcount, MType rtype, int root)
{
	int r = role(z, root);
	if (r == AT_ROOT)
		RECV((uint64_t)z->n * mpi_bytes(rcount, rtype));
	if (r == AT_LEAF || (!z->inter && r == AT_ROOT))
		SENT(sbuf == TMPI_IN_PLACE ? mpi_bytes(rcount, rtype) : mpi_bytes(scount, stype));
}

static void bytes_gatherv(struct mpi_call *c, const struct comm_sizes *z, const void *sbuf,
			  int scount,
			  MType stype, const int *rcounts, MType rtype, int root)
{
	int r = role(z, root);
	if (r == AT_ROOT)
		RECV(sum(rcounts, z->n, rtype));
	if (r == AT_LEAF || (!z->inter && r == AT_ROOT))
		SENT(sbuf == TMPI_IN_PLACE ? at(rcounts, z->rank, rtype) : mpi_bytes(scount, stype));
}

static void bytes_scatter(struct mpi_call *c, const struct comm_sizes *z, int scount, MType stype,
			  const void *rbuf, int rcount, MType rtype, int root)
{
	int r = role(z, root);
	if (r == AT_ROOT)
		SENT((uint64_t)z->n * mpi_bytes(scount, stype));
	if (r == AT_LEAF || (!z->inter && r == AT_ROOT))
		RECV(rbuf == TMPI_IN_PLACE ? mpi_bytes(scount, stype) : mpi_bytes(rcount, rtype));
}

static void bytes_scatterv(struct mpi_call *c, const struct comm_sizes *z, const int *scounts,
			   MType stype, const void *rbuf, int rcount, MType rtype, int root)
{
	int r = role(z, root);
	if (r == AT_ROOT)
		SENT(sum(scounts, z->n, stype));
	if (r == AT_LEAF || (!z->inter && r == AT_ROOT))
		RECV(rbuf == TMPI_IN_PLACE ? at(scounts, z->rank, stype) : mpi_bytes(rcount, rtype));
}

static void bytes_allgather(struct mpi_call *c, const struct comm_sizes *z, const void *sbuf,
			    int scount,
			    MType stype, int rcount, MType rtype)
{
	SENT(sbuf == TMPI_IN_PLACE ? mpi_bytes(rcount, rtype) : mpi_bytes(scount, stype));
	RECV((uint64_t)z->n * mpi_bytes(rcount, rtype));
}

static void bytes_allgatherv(struct mpi_call *c, const struct comm_sizes *z, const void *sbuf,
			     int scount,
			     MType stype, const int *rcounts, MType rtype)
{
	SENT(sbuf == TMPI_IN_PLACE ? at(rcounts, z->rank, rtype) : mpi_bytes(scount, stype));
	RECV(sum(rcounts, z->n, rtype));
}

static void bytes_alltoall(struct mpi_call *c, const struct comm_sizes *z, const void *sbuf,
			   int scount,
			   MType stype, int rcount, MType rtype)
{
	uint64_t recv = (uint64_t)z->n * mpi_bytes(rcount, rtype);
	SENT(sbuf == TMPI_IN_PLACE ? recv : (uint64_t)z->n * mpi_bytes(scount, stype));
	RECV(recv);
}

static void bytes_alltoallv(struct mpi_call *c, const struct comm_sizes *z, const void *sbuf,
			    const int *scounts, MType stype, const int *rcounts, MType rtype)
{
	uint64_t recv = sum(rcounts, z->n, rtype);
	SENT(sbuf == TMPI_IN_PLACE ? recv : sum(scounts, z->n, stype));
	RECV(recv);
}

static void bytes_alltoallw(struct mpi_call *c, const struct comm_sizes *z, const void *sbuf,
			    const int *scounts, const MType *stypes, const int *rcounts,
			    const MType *rtypes)
{
	uint64_t recv = sum_w(rcounts, rtypes, z->n);
	SENT(sbuf == TMPI_IN_PLACE ? recv : sum_w(scounts, stypes, z->n));
	RECV(recv);
}

/* The neighbourhood collectives: the same block to each destination (allgather), a block
 * for each (alltoall), the v and w variants by their counts; from each source. */
static void bytes_neighbor(struct mpi_call *c, struct tprof_mpi_comm *e, int scount, MType stype,
			   int rcount, MType rtype)
{
	int in, out;
	tprof_mpi_comm_degrees(e, &in, &out);
	SENT((uint64_t)out * mpi_bytes(scount, stype));
	RECV((uint64_t)in * mpi_bytes(rcount, rtype));
}

static void bytes_neighbor_v(struct mpi_call *c, struct tprof_mpi_comm *e, const int *scounts,
			     int scount, MType stype, const int *rcounts, MType rtype)
{
	int in, out;
	tprof_mpi_comm_degrees(e, &in, &out);
	SENT(scounts ? sum(scounts, out, stype) : (uint64_t)out * mpi_bytes(scount, stype));
	RECV(sum(rcounts, in, rtype));
}

static void bytes_neighbor_w(struct mpi_call *c, struct tprof_mpi_comm *e, const int *scounts,
			     const MType *stypes, const int *rcounts, const MType *rtypes)
{
	int in, out;
	tprof_mpi_comm_degrees(e, &in, &out);
	SENT(sum_w(scounts, stypes, out));
	RECV(sum_w(rcounts, rtypes, in));
}

static void bytes_reduce_scatter(struct mpi_call *c, const struct comm_sizes *z, const int *rcounts,
				 MType type)
{
	SENT(sum(rcounts, z->local, type));
	RECV(at(rcounts, z->rank, type));
}

static void bytes_reduce_scatter_block(struct mpi_call *c, const struct comm_sizes *z, int rcount,
				       MType type)
{
	SENT((uint64_t)z->local * mpi_bytes(rcount, type));
	RECV(mpi_bytes(rcount, type));
}

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

#define NOROOT TPROF_MPI_NONE
#define NOBUF ((const void *)0)

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

/* ---- persistent collectives (MPI-4) ------------------------------------------------------- */

/* Made once (op OTHER, like MPI_Send_init: it posts nothing) with the bytes of one instance;
 * each MPI_Start starts one instance, numbered then among the collectives on the
 * communicator (hook-mpi-req.c), which completes in an MPIREQ. */
#define PCOLL(name, root_v, sbuf_v, bytes, ...)                                            \
	{                                                                                  \
		struct tprof_thread *t = &tprof_tls;                                       \
		name##_fn real = get_##name();                                             \
		if (!tprof_wrapper_records(t, real) || !tprof_mpi_ready())                 \
			MPI_PASS(name, real, (__VA_ARGS__));                               \
		struct mpi_call c_, *c = &c_;                                              \
		struct tprof_mpi_comm *e;                                                  \
		mpi_begin_room(c, t, MPI_HOOK(name), 2, TPROF_MPI_OTHER, MPI_REQ_UNITS(1)); \
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
