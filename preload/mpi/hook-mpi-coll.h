/* hook-mpi-coll.h — what the collectives' wrappers share (hook-mpi-coll.c, and the persistent
 * ones of hook-mpi-pcoll.c, a file of their own so that the compiler inlines the recording
 * into each wrapper of both): the byte rules of docs/FORMAT.md, one per collective, and the
 * root and buffer of a collective without them. */
#ifndef TPROF_HOOK_MPI_COLL_H
#define TPROF_HOOK_MPI_COLL_H

#include "hook-mpi.h"

#define NOROOT TPROF_MPI_NONE
#define NOBUF ((const void *)0)

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

static inline uint64_t sum(const int *counts, int n, MType type)
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

static inline uint64_t sum_w(const int *counts, const MType *types, int n)
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

static inline void bytes_bcast(struct mpi_call *c, const struct comm_sizes *z, int count, MType type,
			int root)
{
	int r = role(z, root);
	if (r == AT_ROOT)
		SENT(mpi_bytes(count, type));
	else if (r == AT_LEAF)
		RECV(mpi_bytes(count, type));
}

static inline void bytes_reduce(struct mpi_call *c, const struct comm_sizes *z, int count, MType type,
			 int root)
{
	int r = role(z, root);
	if (!z->inter || r == AT_LEAF)
		SENT(mpi_bytes(count, type));
	if (r == AT_ROOT)
		RECV(mpi_bytes(count, type));
}

static inline void bytes_both(struct mpi_call *c, int count, MType type)
{
	SENT(mpi_bytes(count, type));
	RECV(mpi_bytes(count, type));
}

static inline void bytes_gather(struct mpi_call *c, const struct comm_sizes *z, const void *sbuf,
			 int scount,
			 MType stype, int rcount, MType rtype, int root)
{
	int r = role(z, root);
	if (r == AT_ROOT)
		RECV((uint64_t)z->n * mpi_bytes(rcount, rtype));
	if (r == AT_LEAF || (!z->inter && r == AT_ROOT))
		SENT(sbuf == TMPI_IN_PLACE ? mpi_bytes(rcount, rtype) : mpi_bytes(scount, stype));
}

static inline void bytes_gatherv(struct mpi_call *c, const struct comm_sizes *z, const void *sbuf,
			  int scount,
			  MType stype, const int *rcounts, MType rtype, int root)
{
	int r = role(z, root);
	if (r == AT_ROOT)
		RECV(sum(rcounts, z->n, rtype));
	if (r == AT_LEAF || (!z->inter && r == AT_ROOT))
		SENT(sbuf == TMPI_IN_PLACE ? at(rcounts, z->rank, rtype) : mpi_bytes(scount, stype));
}

static inline void bytes_scatter(struct mpi_call *c, const struct comm_sizes *z, int scount, MType stype,
			  const void *rbuf, int rcount, MType rtype, int root)
{
	int r = role(z, root);
	if (r == AT_ROOT)
		SENT((uint64_t)z->n * mpi_bytes(scount, stype));
	if (r == AT_LEAF || (!z->inter && r == AT_ROOT))
		RECV(rbuf == TMPI_IN_PLACE ? mpi_bytes(scount, stype) : mpi_bytes(rcount, rtype));
}

static inline void bytes_scatterv(struct mpi_call *c, const struct comm_sizes *z, const int *scounts,
			   MType stype, const void *rbuf, int rcount, MType rtype, int root)
{
	int r = role(z, root);
	if (r == AT_ROOT)
		SENT(sum(scounts, z->n, stype));
	if (r == AT_LEAF || (!z->inter && r == AT_ROOT))
		RECV(rbuf == TMPI_IN_PLACE ? at(scounts, z->rank, stype) : mpi_bytes(rcount, rtype));
}

static inline void bytes_allgather(struct mpi_call *c, const struct comm_sizes *z, const void *sbuf,
			    int scount,
			    MType stype, int rcount, MType rtype)
{
	SENT(sbuf == TMPI_IN_PLACE ? mpi_bytes(rcount, rtype) : mpi_bytes(scount, stype));
	RECV((uint64_t)z->n * mpi_bytes(rcount, rtype));
}

static inline void bytes_allgatherv(struct mpi_call *c, const struct comm_sizes *z, const void *sbuf,
			     int scount,
			     MType stype, const int *rcounts, MType rtype)
{
	SENT(sbuf == TMPI_IN_PLACE ? at(rcounts, z->rank, rtype) : mpi_bytes(scount, stype));
	RECV(sum(rcounts, z->n, rtype));
}

static inline void bytes_alltoall(struct mpi_call *c, const struct comm_sizes *z, const void *sbuf,
			   int scount,
			   MType stype, int rcount, MType rtype)
{
	uint64_t recv = (uint64_t)z->n * mpi_bytes(rcount, rtype);
	SENT(sbuf == TMPI_IN_PLACE ? recv : (uint64_t)z->n * mpi_bytes(scount, stype));
	RECV(recv);
}

static inline void bytes_alltoallv(struct mpi_call *c, const struct comm_sizes *z, const void *sbuf,
			    const int *scounts, MType stype, const int *rcounts, MType rtype)
{
	uint64_t recv = sum(rcounts, z->n, rtype);
	SENT(sbuf == TMPI_IN_PLACE ? recv : sum(scounts, z->n, stype));
	RECV(recv);
}

static inline void bytes_alltoallw(struct mpi_call *c, const struct comm_sizes *z, const void *sbuf,
			    const int *scounts, const MType *stypes, const int *rcounts,
			    const MType *rtypes)
{
	uint64_t recv = sum_w(rcounts, rtypes, z->n);
	SENT(sbuf == TMPI_IN_PLACE ? recv : sum_w(scounts, stypes, z->n));
	RECV(recv);
}

/* The neighbourhood collectives: the same block to each destination (allgather), a block
 * for each (alltoall), the v and w variants by their counts; from each source. */
static inline void bytes_neighbor(struct mpi_call *c, struct tprof_mpi_comm *e, int scount, MType stype,
			   int rcount, MType rtype)
{
	int in, out;
	tprof_mpi_comm_degrees(e, &in, &out);
	SENT((uint64_t)out * mpi_bytes(scount, stype));
	RECV((uint64_t)in * mpi_bytes(rcount, rtype));
}

static inline void bytes_neighbor_v(struct mpi_call *c, struct tprof_mpi_comm *e, const int *scounts,
			     int scount, MType stype, const int *rcounts, MType rtype)
{
	int in, out;
	tprof_mpi_comm_degrees(e, &in, &out);
	SENT(scounts ? sum(scounts, out, stype) : (uint64_t)out * mpi_bytes(scount, stype));
	RECV(sum(rcounts, in, rtype));
}

static inline void bytes_neighbor_w(struct mpi_call *c, struct tprof_mpi_comm *e, const int *scounts,
			     const MType *stypes, const int *rcounts, const MType *rtypes)
{
	int in, out;
	tprof_mpi_comm_degrees(e, &in, &out);
	SENT(sum_w(scounts, stypes, out));
	RECV(sum_w(rcounts, rtypes, in));
}

static inline void bytes_reduce_scatter(struct mpi_call *c, const struct comm_sizes *z, const int *rcounts,
				 MType type)
{
	SENT(sum(rcounts, z->local, type));
	RECV(at(rcounts, z->rank, type));
}

static inline void bytes_reduce_scatter_block(struct mpi_call *c, const struct comm_sizes *z, int rcount,
				       MType type)
{
	SENT((uint64_t)z->local * mpi_bytes(rcount, type));
	RECV(mpi_bytes(rcount, type));
}

#endif
