/* hook-mpi-comm.c — the calls that make, free and name MPI communicators (op COMM: args.comm
 * = the communicator it was made from, args2.req = the new one's id).  Each creating call
 * counts as one more over its parent before it runs, on every member alike (these calls are
 * collective over the parent), which is what the new communicator's id is made of
 * (mpi-comm.c); MPI_Comm_idup's communicator gets its id when its request completes. */
#include "hook-mpi.h"

/* A communicator made collectively over `parent` into *out. */
#define MPI_MADE(name, parent, out, params, ...)                                           \
	TPROF_EXPORT int name params                                                       \
	{                                                                                  \
		struct tprof_thread *t = &tprof_tls;                                       \
		name##_fn real = get_##name();                                             \
		if (!tprof_wrapper_records(t, real) || !tprof_mpi_ready())                 \
			MPI_PASS(name, real, (__VA_ARGS__));                  \
		struct mpi_call c_, *c = &c_;                                              \
		struct tprof_mpi_comm *p;                                                  \
		mpi_begin(c, t, MPI_HOOK(name), 2, TPROF_MPI_COMM);                        \
		c->a->comm = mpi_comm_of(parent, &p);                                      \
		uint32_t made_n_ = tprof_mpi_comm_creation(p);                             \
		tprof_call_enter(&c->call);                                               \
		int rc = real(__VA_ARGS__);                                                \
		if (rc == TMPI_SUCCESS && (out))                                           \
			c->b->req = tprof_mpi_comm_made(c->a->comm, made_n_, MPI_KEY(*(out)));      \
		return tprof_call_leave(&c->call, rc);                                    \
	}

MPI_MADE(MPI_Comm_split, comm, out, (MComm comm, int color, int key, MComm *out),
	 comm, color, key, out)
MPI_MADE(MPI_Comm_split_type, comm, out,
	 (MComm comm, int type, int key, MInfo info, MComm *out), comm, type, key, info, out)
MPI_MADE(MPI_Comm_dup, comm, out, (MComm comm, MComm *out), comm, out)
MPI_MADE(MPI_Comm_dup_with_info, comm, out, (MComm comm, MInfo info, MComm *out),
	 comm, info, out)
MPI_MADE(MPI_Comm_create, comm, out, (MComm comm, MGroup group, MComm *out), comm, group, out)
MPI_MADE(MPI_Intercomm_merge, comm, out, (MComm comm, int high, MComm *out), comm, high, out)
MPI_MADE(MPI_Cart_create, comm, out,
	 (MComm comm, int ndims, const int dims[], const int periods[], int reorder, MComm *out),
	 comm, ndims, dims, periods, reorder, out)
MPI_MADE(MPI_Cart_sub, comm, out, (MComm comm, const int remain[], MComm *out), comm, remain, out)
MPI_MADE(MPI_Graph_create, comm, out,
	 (MComm comm, int nnodes, const int index[], const int edges[], int reorder, MComm *out),
	 comm, nnodes, index, edges, reorder, out)
MPI_MADE(MPI_Dist_graph_create, comm, out,
	 (MComm comm, int n, const int nodes[], const int degrees[], const int targets[],
	  const int weights[], MInfo info, int reorder, MComm *out),
	 comm, n, nodes, degrees, targets, weights, info, reorder, out)
MPI_MADE(MPI_Dist_graph_create_adjacent, comm, out,
	 (MComm comm, int indeg, const int sources[], const int sweights[], int outdeg,
	  const int dests[], const int dweights[], MInfo info, int reorder, MComm *out),
	 comm, indeg, sources, sweights, outdeg, dests, dweights, info, reorder, out)

/* Collective only over the group's members: its id comes from the group and the tag. */
TPROF_EXPORT int MPI_Comm_create_group(MComm comm, MGroup group, int tag, MComm *out)
{
	struct tprof_thread *t = &tprof_tls;
	MPI_Comm_create_group_fn real = get_MPI_Comm_create_group();
	if (!tprof_wrapper_records(t, real) || !tprof_mpi_ready())
		MPI_PASS(MPI_Comm_create_group, real, (comm, group, tag, out));
	struct mpi_call c_, *c = &c_;
	mpi_begin(c, t, MPI_HOOK(MPI_Comm_create_group), 2, TPROF_MPI_COMM);
	c->a->comm = mpi_comm_id(comm);
	c->a->tag = mpi_tag(tag);
	tprof_call_enter(&c->call);
	int rc = real(comm, group, tag, out);
	if (rc == TMPI_SUCCESS && out)
		c->b->req = tprof_mpi_comm_made_group(c->a->comm, tag, MPI_KEY(*out));
	return tprof_call_leave(&c->call, rc);
}

/* Two groups joined through their leaders: its id comes from both groups and the tag. */
TPROF_EXPORT int MPI_Intercomm_create(MComm comm, int local_leader, MComm bridge,
				      int remote_leader, int tag, MComm *out)
{
	struct tprof_thread *t = &tprof_tls;
	MPI_Intercomm_create_fn real = get_MPI_Intercomm_create();
	if (!tprof_wrapper_records(t, real) || !tprof_mpi_ready())
		MPI_PASS(MPI_Intercomm_create, real, (comm, local_leader, bridge, remote_leader, tag, out));
	struct mpi_call c_, *c = &c_;
	struct tprof_mpi_comm *p;
	mpi_begin(c, t, MPI_HOOK(MPI_Intercomm_create), 2, TPROF_MPI_COMM);
	c->a->comm = mpi_comm_of(comm, &p);
	c->a->peer = mpi_rank(local_leader);
	c->a->tag = mpi_tag(tag);
	tprof_mpi_comm_creation(p);
	tprof_call_enter(&c->call);
	int rc = real(comm, local_leader, bridge, remote_leader, tag, out);
	if (rc == TMPI_SUCCESS && out)
		c->b->req = tprof_mpi_comm_made_inter(tag, MPI_KEY(*out));
	return tprof_call_leave(&c->call, rc);
}

/* Nonblocking: the request in args2.req; the new communicator's id comes with its MPIREQ. */
TPROF_EXPORT int MPI_Comm_idup(MComm comm, MComm *out, MReq *req)
{
	struct tprof_thread *t = &tprof_tls;
	MPI_Comm_idup_fn real = get_MPI_Comm_idup();
	if (!tprof_wrapper_records(t, real) || !tprof_mpi_ready())
		MPI_PASS(MPI_Comm_idup, real, (comm, out, req));
	struct mpi_call c_, *c = &c_;
	struct tprof_mpi_comm *p;
	mpi_begin_room(c, t, MPI_HOOK(MPI_Comm_idup), 2, TPROF_MPI_COMM, MPI_REQ_UNITS(1));
	c->a->comm = mpi_comm_of(comm, &p);
	c->a->flags = TPROF_MPIF_NONBLOCKING;
	uint32_t n = tprof_mpi_comm_creation(p);
	tprof_call_enter(&c->call);
	int rc = real(comm, out, req);
	if (rc == TMPI_SUCCESS && req) {
		c->b->req = (uint64_t)(uintptr_t)MPI_KEY(*req);
		c->a->seq = n;
		mpi_track(c, *req, TPROF_MPI_COMM, 0, out);
		c->a->seq = 0;
	}
	return tprof_call_leave(&c->call, rc);
}

TPROF_EXPORT int MPI_Comm_free(MComm *comm)
{
	struct tprof_thread *t = &tprof_tls;
	MPI_Comm_free_fn real = get_MPI_Comm_free();
	if (!tprof_wrapper_records(t, real) || !tprof_mpi_ready())
		MPI_PASS(MPI_Comm_free, real, (comm));
	struct mpi_call c_, *c = &c_;
	MComm h = comm ? *comm : 0;
	mpi_begin(c, t, MPI_HOOK(MPI_Comm_free), 1, TPROF_MPI_COMM);
	c->a->comm = mpi_comm_id(h);
	tprof_call_enter(&c->call);
	int rc = real(comm);
	if (rc == TMPI_SUCCESS)
		tprof_mpi_comm_forget(MPI_KEY(h));
	return tprof_call_leave(&c->call, rc);
}

TPROF_EXPORT int MPI_Comm_set_name(MComm comm, const char *name)
{
	struct tprof_thread *t = &tprof_tls;
	MPI_Comm_set_name_fn real = get_MPI_Comm_set_name();
	if (!tprof_wrapper_records(t, real) || !tprof_mpi_ready())
		MPI_PASS(MPI_Comm_set_name, real, (comm, name));
	struct mpi_call c_, *c = &c_;
	mpi_begin(c, t, MPI_HOOK(MPI_Comm_set_name), 1, TPROF_MPI_OTHER);
	c->a->comm = mpi_comm_id(comm);
	tprof_call_enter(&c->call);
	int rc = real(comm, name);
	if (rc == TMPI_SUCCESS)
		tprof_mpi_comm_named(MPI_KEY(comm), name);
	return tprof_call_leave(&c->call, rc);
}
