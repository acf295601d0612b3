/* hook-mpi-p2p.c — blocking point-to-point MPI calls and probes.  Sends record where, with
 * which tag and how many bytes (count x PMPI_Type_size); receives record what arrived, from
 * the status (the wrapper's own when the program passed MPI_STATUS_IGNORE), and their post
 * number: the n-th message from A to B with tag T on a communicator is received by the n-th
 * receive, in posting order, that received such a message.  A matched probe (MPI_Mprobe,
 * MPI_Improbe) takes the message, so it takes the post number; MPI_Mrecv carries it on. */
#include "hook-mpi.h"
#include "mpi-req.h"

/* ---- sends ------------------------------------------------------------------------------ */

#define MPI_SEND(name)                                                                     \
	TPROF_EXPORT int name(const void *buf, int count, MType type, int dest, int tag,    \
			      MComm comm)                                                  \
	{                                                                                  \
		struct tprof_thread *t = &tprof_tls;                                       \
		name##_fn real = get_##name();                                             \
		if (!tprof_wrapper_records(t, real) || !tprof_mpi_ready())                 \
			MPI_PASS(name, real, (buf, count, type, dest, tag, comm));                                      \
		struct mpi_call c_, *c = &c_;                                              \
		mpi_begin(c, t, MPI_HOOK(name), 1, TPROF_MPI_SEND);                        \
		c->a->comm = mpi_comm_id(comm);                                            \
		c->a->peer = mpi_rank(dest);                                               \
		c->a->tag = mpi_tag(tag);                                                  \
		if (dest == TMPI_PROC_NULL)                                                \
			c->a->flags |= TPROF_MPIF_PROC_NULL;                               \
		tprof_call_enter(&c->call);                                               \
		int rc = real(buf, count, type, dest, tag, comm);                          \
		if (rc == TMPI_SUCCESS)                                                    \
			c->a->bytes = mpi_bytes(count, type);                              \
		return tprof_call_leave(&c->call, rc);                                    \
	}

MPI_SEND(MPI_Send)
MPI_SEND(MPI_Ssend)
MPI_SEND(MPI_Bsend)
MPI_SEND(MPI_Rsend)

/* ---- receives --------------------------------------------------------------------------- */

TPROF_EXPORT int MPI_Recv(void *buf, int count, MType type, int source, int tag, MComm comm,
			  MStatus *status)
{
	struct tprof_thread *t = &tprof_tls;
	MPI_Recv_fn real = get_MPI_Recv();
	if (!tprof_wrapper_records(t, real) || !tprof_mpi_ready())
		MPI_PASS(MPI_Recv, real, (buf, count, type, source, tag, comm, status));
	struct mpi_call c_, *c = &c_;
	MStatus own, *st = MPI_STATUS_OR(status, &own);
	mpi_begin(c, t, MPI_HOOK(MPI_Recv), 1, TPROF_MPI_RECV);
	c->a->comm = mpi_comm_id(comm);
	c->a->peer = mpi_rank(source);
	c->a->tag = mpi_tag(tag);
	c->a->seq = tprof_mpi_next_recv();
	tprof_call_enter(&c->call);
	int rc = real(buf, count, type, source, tag, comm, st);
	if (rc == TMPI_SUCCESS)
		mpi_received(c->a, st);
	return tprof_call_leave(&c->call, rc);
}

/* The send side in a, the receive side in b. */
static inline void sendrecv_begin(struct mpi_call *c, MComm comm, int dest, int stag, int source,
				  int rtag)
{
	c->a->comm = mpi_comm_id(comm);
	c->a->peer = mpi_rank(dest);
	c->a->tag = mpi_tag(stag);
	if (dest == TMPI_PROC_NULL)
		c->a->flags |= TPROF_MPIF_PROC_NULL;
	c->b->peer = mpi_rank(source);
	c->b->tag = mpi_tag(rtag);
	c->b->seq = tprof_mpi_next_recv();
}

static inline void sendrecv_end(struct mpi_call *c, int rc, int scount, MType stype,
				const MStatus *st)
{
	if (rc != TMPI_SUCCESS)
		return;
	c->a->bytes = mpi_bytes(scount, stype);
	c->b->peer = mpi_rank(st->MPI_SOURCE);
	c->b->tag = mpi_tag(st->MPI_TAG);
	c->b->bytes = MPI_STATUS_BYTES(st);
}

TPROF_EXPORT int MPI_Sendrecv(const void *sbuf, int scount, MType stype, int dest, int stag,
			      void *rbuf, int rcount, MType rtype, int source, int rtag, MComm comm,
			      MStatus *status)
{
	struct tprof_thread *t = &tprof_tls;
	MPI_Sendrecv_fn real = get_MPI_Sendrecv();
	if (!tprof_wrapper_records(t, real) || !tprof_mpi_ready())
		MPI_PASS(MPI_Sendrecv, real, (sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, comm, status));
	struct mpi_call c_, *c = &c_;
	MStatus own, *st = MPI_STATUS_OR(status, &own);
	mpi_begin(c, t, MPI_HOOK(MPI_Sendrecv), 2, TPROF_MPI_SENDRECV);
	sendrecv_begin(c, comm, dest, stag, source, rtag);
	tprof_call_enter(&c->call);
	int rc = real(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, comm, st);
	sendrecv_end(c, rc, scount, stype, st);
	return tprof_call_leave(&c->call, rc);
}

TPROF_EXPORT int MPI_Sendrecv_replace(void *buf, int count, MType type, int dest, int stag,
				      int source, int rtag, MComm comm, MStatus *status)
{
	struct tprof_thread *t = &tprof_tls;
	MPI_Sendrecv_replace_fn real = get_MPI_Sendrecv_replace();
	if (!tprof_wrapper_records(t, real) || !tprof_mpi_ready())
		MPI_PASS(MPI_Sendrecv_replace, real, (buf, count, type, dest, stag, source, rtag, comm, status));
	struct mpi_call c_, *c = &c_;
	MStatus own, *st = MPI_STATUS_OR(status, &own);
	mpi_begin(c, t, MPI_HOOK(MPI_Sendrecv_replace), 2, TPROF_MPI_SENDRECV);
	sendrecv_begin(c, comm, dest, stag, source, rtag);
	tprof_call_enter(&c->call);
	int rc = real(buf, count, type, dest, stag, source, rtag, comm, st);
	sendrecv_end(c, rc, count, type, st);
	return tprof_call_leave(&c->call, rc);
}

/* ---- probes ----------------------------------------------------------------------------- */

static inline void probe_begin(struct mpi_call *c, MComm comm, int source, int tag)
{
	c->a->comm = mpi_comm_id(comm);
	c->a->peer = mpi_rank(source);
	c->a->tag = mpi_tag(tag);
}

TPROF_EXPORT int MPI_Probe(int source, int tag, MComm comm, MStatus *status)
{
	struct tprof_thread *t = &tprof_tls;
	MPI_Probe_fn real = get_MPI_Probe();
	if (!tprof_wrapper_records(t, real) || !tprof_mpi_ready())
		MPI_PASS(MPI_Probe, real, (source, tag, comm, status));
	struct mpi_call c_, *c = &c_;
	MStatus own, *st = MPI_STATUS_OR(status, &own);
	mpi_begin(c, t, MPI_HOOK(MPI_Probe), 1, TPROF_MPI_PROBE);
	probe_begin(c, comm, source, tag);
	tprof_call_enter(&c->call);
	int rc = real(source, tag, comm, st);
	if (rc == TMPI_SUCCESS)
		mpi_received(c->a, st);
	return tprof_call_leave(&c->call, rc);
}

/* The full MPI_Iprobe: pre when its fast side made the call already (MPI_POLL_AFTER),
 * returning pre_rc, with status where it wrote the status. */
static __attribute__((noinline)) int iprobe_full(int source, int tag, MComm comm, int *flag,
						 MStatus *status, int pre, int pre_rc)
{
	struct tprof_thread *t = &tprof_tls;
	MPI_Iprobe_fn real = get_MPI_Iprobe();
	if (!pre) {
		if (!tprof_wrapper_records(t, real) || !tprof_mpi_ready())
			MPI_PASS(MPI_Iprobe, real, (source, tag, comm, flag, status));
	}
	struct mpi_call c_, *c = &c_;
	MStatus own, *st = MPI_STATUS_OR(status, &own);
	MPI_POLL_AFTER(c, t, MPI_HOOK(MPI_Iprobe), 1, TPROF_MPI_PROBE, 0, rc, pre, pre_rc,
		       real(source, tag, comm, flag, st), rc == TMPI_SUCCESS && flag && !*flag);
	probe_begin(c, comm, source, tag);
	if (rc == TMPI_SUCCESS && flag && *flag)
		mpi_received(c->a, st);
	return tprof_call_leave(&c->call, rc);
}

/* With a fast side, as MPI_Test's (hook-mpi-req.c): a probe loop's untimed misses. */
TPROF_EXPORT int MPI_Iprobe(int source, int tag, MComm comm, int *flag, MStatus *status)
{
	struct tprof_thread *t = &tprof_tls;
	if (TPROF_LIKELY(mpi_poll_fast(t, MPI_ARM_IPROBE))) {
		MStatus own, *st = MPI_STATUS_OR(status, &own);
		/* in the frame, as MPI_Test's (hook-mpi-req.c) */
		volatile int source_ = source, tag_ = tag;
		volatile MComm comm_ = comm;
		MStatus *volatile st_ = st;
		t->guard++;
		int rc = MPI_REAL_FOUND(MPI_Iprobe)(source, tag, comm, flag, st);
		if (TPROF_LIKELY(rc == TMPI_SUCCESS && !*flag) &&
		    tprof_poll_count_armed(t, MPI_ARM_IPROBE)) {
			t->guard--;
			return rc;
		}
		return iprobe_full(source_, tag_, comm_, flag, st_, 1, rc);
	}
	return iprobe_full(source, tag, comm, flag, status, 0, 0);
}

/* A message matched by a probe: it gets its receive number now, kept for MPI_Mrecv. */
static void matched(struct mpi_call *c, MMsg msg, const MStatus *st)
{
	mpi_received(c->a, st);
	void *key = MPI_KEY(msg);
	if (!key || key == tprof_mpi_h.message_no_proc || key == tprof_mpi_h.message_null)
		return;
	c->a->seq = tprof_mpi_next_recv();
	struct tprof_mpi_req *e = tprof_mpi_req_add(key);
	if (!e)
		return;
	e->comm = c->a->comm;
	e->peer = c->a->peer;
	e->tag = c->a->tag;
	e->bytes = c->a->bytes;
	e->seq = c->a->seq;
	e->op = TPROF_MPI_PROBE;
	e->hook = (uint16_t)(c->call.h - tprof_mpi_hooks);
}

TPROF_EXPORT int MPI_Mprobe(int source, int tag, MComm comm, MMsg *msg, MStatus *status)
{
	struct tprof_thread *t = &tprof_tls;
	MPI_Mprobe_fn real = get_MPI_Mprobe();
	if (!tprof_wrapper_records(t, real) || !tprof_mpi_ready())
		MPI_PASS(MPI_Mprobe, real, (source, tag, comm, msg, status));
	struct mpi_call c_, *c = &c_;
	MStatus own, *st = MPI_STATUS_OR(status, &own);
	mpi_begin(c, t, MPI_HOOK(MPI_Mprobe), 1, TPROF_MPI_PROBE);
	probe_begin(c, comm, source, tag);
	tprof_call_enter(&c->call);
	int rc = real(source, tag, comm, msg, st);
	if (rc == TMPI_SUCCESS)
		matched(c, *msg, st);
	return tprof_call_leave(&c->call, rc);
}

TPROF_EXPORT int MPI_Improbe(int source, int tag, MComm comm, int *flag, MMsg *msg,
			     MStatus *status)
{
	struct tprof_thread *t = &tprof_tls;
	MPI_Improbe_fn real = get_MPI_Improbe();
	if (!tprof_wrapper_records(t, real) || !tprof_mpi_ready())
		MPI_PASS(MPI_Improbe, real, (source, tag, comm, flag, msg, status));
	struct mpi_call c_, *c = &c_;
	MStatus own, *st = MPI_STATUS_OR(status, &own);
	MPI_POLL(c, t, MPI_HOOK(MPI_Improbe), 1, TPROF_MPI_PROBE, 0, rc,
		 real(source, tag, comm, flag, msg, st), rc == TMPI_SUCCESS && flag && !*flag);
	probe_begin(c, comm, source, tag);
	if (rc == TMPI_SUCCESS && flag && *flag)
		matched(c, *msg, st);
	return tprof_call_leave(&c->call, rc);
}

TPROF_EXPORT int MPI_Mrecv(void *buf, int count, MType type, MMsg *msg, MStatus *status)
{
	struct tprof_thread *t = &tprof_tls;
	MPI_Mrecv_fn real = get_MPI_Mrecv();
	if (!tprof_wrapper_records(t, real) || !tprof_mpi_ready())
		MPI_PASS(MPI_Mrecv, real, (buf, count, type, msg, status));
	struct mpi_call c_, *c = &c_;
	MStatus own, *st = MPI_STATUS_OR(status, &own);
	struct tprof_mpi_req *e = msg ? tprof_mpi_req_find(MPI_KEY(*msg)) : NULL;
	mpi_begin(c, t, MPI_HOOK(MPI_Mrecv), 1, TPROF_MPI_RECV);
	if (e) {
		c->a->comm = e->comm;
		c->a->seq = e->seq;
	} else {
		c->a->seq = tprof_mpi_next_recv();
	}
	tprof_call_enter(&c->call);
	int rc = real(buf, count, type, msg, st);
	if (rc == TMPI_SUCCESS) {
		mpi_received(c->a, st);
		tprof_mpi_req_remove(e);
	}
	return tprof_call_leave(&c->call, rc);
}
