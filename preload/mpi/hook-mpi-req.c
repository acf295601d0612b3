/* hook-mpi-req.c — nonblocking MPI: the calls that make requests (MPI_Isend..., MPI_Irecv,
 * MPI_Imrecv, the persistent MPI_*_init), MPI_Start/Startall, MPI_Request_free, MPI_Cancel,
 * and the Wait and Test families.  Each request is remembered at its post (mpi-req.c); the
 * call in which it completes writes one MPIREQ record for it after its own CALL record (t0 =
 * when that call returned, arg = its correlation id, name = the call that made the request)
 * and counts it in its nreq.  The request handles are copied before the real call, which
 * overwrites completed requests with MPI_REQUEST_NULL, and the completed ones looked up after
 * it (before it, under MPI_THREAD_MULTIPLE: see mpi_lookup_early); statuses the program
 * ignores are taken in a per-thread array that only ever grows.  The Test family polls:
 * its unsuccessful calls are counted in runs (MPI_POLL, poll.h).  MPI_Test and MPI_Testany,
 * the polls of the common loops, have a fast side (mpi_poll_fast) for the polls a run counts
 * without timing them: the call and its count, the full wrapper only when the call succeeds
 * or cannot be counted. */
#include <stdlib.h>

#include "hook-mpi.h"
#include "mpi-req.h"

/* ---- remembering and completing requests ------------------------------------------------- */

static void mpireq(struct mpi_call *c, const struct tprof_mpi_req *e, void *handle,
		   const MStatus *st, uint8_t flags, uint64_t when);
static void idup_done(struct tprof_mpi_req *e);

struct tprof_mpi_req *mpi_track(struct mpi_call *c, MReq req, uint8_t op, int persistent,
				void *out)
{
	struct tprof_mpi_req now, *e = &now;
	void *key = MPI_KEY(req);
	if (!key || key == tprof_mpi_h.request_null)
		return NULL;
	/* Open MPI answers an operation it completed at once (a send it could push out, anything
	 * to or from MPI_PROC_NULL, a collective on one process) with one shared, completed
	 * request: the operation completed in this call, and its MPIREQ follows it now. */
	int done = key == tprof_mpi_h.request_empty ||
		   (!persistent && (c->a->flags & TPROF_MPIF_PROC_NULL));
	struct tprof_mpi_req *kept = done ? NULL : tprof_mpi_req_add(key);
	if (!done && !kept)
		return NULL;
	if (kept)
		e = kept;
	else
		memset(&now, 0, sizeof(now));
	e->comm = c->a->comm;
	e->bytes = c->a->bytes;
	e->bytes2 = c->b->bytes;
	e->peer = c->a->peer;
	e->tag = c->a->tag;
	e->seq = c->a->seq;
	e->hook = (uint16_t)(c->call.h - tprof_mpi_hooks);
	e->op = op;
	e->flags = (uint8_t)(c->a->flags | TPROF_MPIF_NONBLOCKING | (persistent ? TPROF_MPIF_PERSISTENT : 0));
	e->out = out;
	e->file = c->b->file;
	if (kept)
		return kept;
	if (op == TPROF_MPI_COMM)
		idup_done(e);
	mpireq(c, e, key, NULL, 0, tprof_now());
	return NULL;
}

/* One MPIREQ record: request `handle` (entry e) completed (or, with TPROF_MPIF_STARTED,
 * was started) in call c, which returned at `when`; st: its status, if any. */
static void mpireq(struct mpi_call *c, const struct tprof_mpi_req *e, void *handle,
		   const MStatus *st, uint8_t flags, uint64_t when)
{
	struct tprof_rec *r = tprof_reserve(c->call.t, 3);
	if (!r)
		return;
	struct tprof_mpi_args *a = (struct tprof_mpi_args *)(r + 1);
	struct tprof_mpi_args2 *b = (struct tprof_mpi_args2 *)(r + 2);
	memset(a, 0, 2 * TPROF_UNIT);
	a->comm = e->comm;
	a->bytes = e->bytes;
	a->peer = e->peer;
	a->tag = e->tag;
	a->seq = e->seq;
	a->op = e->op;
	a->flags = (uint8_t)(e->flags | flags);
	b->req = (uint64_t)(uintptr_t)handle;
	b->bytes = e->bytes2;
	b->peer = TPROF_MPI_NONE;
	b->tag = TPROF_MPI_NONE;
	b->file = e->file;
	if (st && !(flags & (TPROF_MPIF_STARTED | TPROF_MPIF_CANCELLED))) {
		if (e->op == TPROF_MPI_IRECV)
			mpi_received(a, st);
		else if (e->op == TPROF_MPI_IO)
			a->bytes = MPI_STATUS_BYTES(st);   /* as read or written */
	}
	r->t0 = when;
	r->t1 = 0;
	r->arg = c->call.corr;
	tprof_commit(c->call.t, r, TPROF_K_MPIREQ, 2, a->flags,
		     tprof_hook_name(&tprof_mpi_hooks[e->hook]));
	c->a->nreq++;
}

/* MPI_Comm_idup's request completed: the new communicator exists now. */
static void idup_done(struct tprof_mpi_req *e)
{
	MComm made = e->out ? *(MComm *)e->out : 0;
	e->bytes2 = tprof_mpi_comm_made(e->comm, e->seq, MPI_KEY(made));
}

/* Request `handle` (entry e, looked up before the call) completed in call c. */
static void completed(struct mpi_call *c, struct tprof_mpi_req *e, void *handle,
		      const MStatus *st, uint64_t when)
{
	if (!tprof_mpi_req_holds(e, handle) || ((e->flags & TPROF_MPIF_PERSISTENT) && !e->active))
		return;
	uint8_t flags = 0;
	int cancelled = 0;
	if (e->cancel && st && tprof_pmpi.Test_cancelled((const tmpi_Status *)(const void *)st, &cancelled) == TMPI_SUCCESS && cancelled)
		flags |= TPROF_MPIF_CANCELLED;
	if (e->op == TPROF_MPI_COMM && !cancelled)
		idup_done(e);
	mpireq(c, e, handle, st, flags, when);
	if (e->flags & TPROF_MPIF_PERSISTENT) {
		e->active = 0;
		e->cancel = 0;
	} else {
		tprof_mpi_req_remove(e);
	}
}

static inline struct tprof_mpi_req *lookup(MReq h)
{
	return h && MPI_KEY(h) != tprof_mpi_h.request_null ? tprof_mpi_req_find(MPI_KEY(h)) : NULL;
}

/* ---- per-thread scratch for request arrays ----------------------------------------------- */

struct scratch {
	struct tprof_mpi_req **entries;
	MReq *handles;
	MStatus *statuses;
	size_t cap;
	int early;                      /* entries were looked up before the call */
};
static __thread struct scratch scratch __attribute__((tls_model("initial-exec")));

/* Room for n requests; 0 when there is none (the completions then go unrecorded). */
static int scratch_fit(size_t n)
{
	struct scratch *s = &scratch;
	if (n <= s->cap)
		return 1;
	size_t cap = s->cap ? s->cap : 64;
	while (cap < n)
		cap *= 2;
	struct tprof_mpi_req **e = realloc(s->entries, cap * sizeof(*e));
	if (e)
		s->entries = e;
	MReq *h = e ? realloc(s->handles, cap * sizeof(*h)) : NULL;
	if (h)
		s->handles = h;
	MStatus *st = h ? realloc(s->statuses, cap * sizeof(*st)) : NULL;
	if (st)
		s->statuses = st;
	if (!st)
		return 0;
	s->cap = cap;
	return 1;
}

/* Takes reqs[0..n) before the call (which overwrites the completed ones), and their entries
 * when they must be found before it (mpi_lookup_early); 0 when they cannot be followed. */
static int capture(int n, const MReq *reqs)
{
	if (n <= 0 || !reqs || !scratch_fit((size_t)n))
		return 0;
	scratch.early = mpi_lookup_early();
	for (int i = 0; i < n; i++)   /* a few, most often: no call to memcpy */
		scratch.handles[i] = reqs[i];
	for (int i = 0; scratch.early && i < n; i++)
		scratch.entries[i] = lookup(reqs[i]);
	return 1;
}

/* The entry of captured request i, once the call completed it. */
static inline struct tprof_mpi_req *captured(int i)
{
	return scratch.early ? scratch.entries[i] : lookup(scratch.handles[i]);
}

/* The entry of request h, completed in a call: e when looked up before it. */
static inline struct tprof_mpi_req *found(struct tprof_mpi_req *e, MReq h)
{
	return mpi_lookup_early() ? e : lookup(h);
}

/* ---- posting ------------------------------------------------------------------------------ */

static inline void post_begin(struct mpi_call *c, MComm comm, int peer, int tag, int persistent)
{
	c->a->comm = mpi_comm_id(comm);
	c->a->peer = mpi_rank(peer);
	c->a->tag = mpi_tag(tag);
	c->a->flags = TPROF_MPIF_NONBLOCKING | (persistent ? TPROF_MPIF_PERSISTENT : 0);
	if (peer == TMPI_PROC_NULL)
		c->a->flags |= TPROF_MPIF_PROC_NULL;
}

/* A send posted (persistent: a request made, that each MPI_Start posts). */
#define MPI_ISEND(name, persistent)                                                        \
	TPROF_EXPORT int name(const void *buf, int count, MType type, int dest, int tag,    \
			      MComm comm, MReq *req)                                       \
	{                                                                                  \
		struct tprof_thread *t = &tprof_tls;                                       \
		name##_fn real = get_##name();                                             \
		if (!tprof_wrapper_records(t, real) || !tprof_mpi_ready())                 \
			MPI_PASS(name, real, (buf, count, type, dest, tag, comm, req));                                      \
		struct mpi_call c_, *c = &c_;                                              \
		mpi_begin_room(c, t, MPI_HOOK(name), 2, persistent ? TPROF_MPI_OTHER      \
			       : TPROF_MPI_ISEND, MPI_REQ_UNITS(1));                     \
		post_begin(c, comm, dest, tag, persistent);                                \
		tprof_call_enter(&c->call);                                               \
		int rc = real(buf, count, type, dest, tag, comm, req);                     \
		if (rc == TMPI_SUCCESS) {                                                  \
			c->a->bytes = mpi_bytes(count, type);                              \
			c->b->req = (uint64_t)(uintptr_t)MPI_KEY(*req);                    \
			mpi_track(c, *req, TPROF_MPI_ISEND, persistent, NULL);                   \
		}                                                                          \
		return tprof_call_leave(&c->call, rc);                                    \
	}

MPI_ISEND(MPI_Isend, 0)
MPI_ISEND(MPI_Issend, 0)
MPI_ISEND(MPI_Ibsend, 0)
MPI_ISEND(MPI_Irsend, 0)
MPI_ISEND(MPI_Send_init, 1)
MPI_ISEND(MPI_Ssend_init, 1)
MPI_ISEND(MPI_Bsend_init, 1)
MPI_ISEND(MPI_Rsend_init, 1)

/* A receive posted: its post number now (persistent ones get theirs at each start). */
#define MPI_IRECV(name, persistent)                                                        \
	TPROF_EXPORT int name(void *buf, int count, MType type, int source, int tag,        \
			      MComm comm, MReq *req)                                       \
	{                                                                                  \
		struct tprof_thread *t = &tprof_tls;                                       \
		name##_fn real = get_##name();                                             \
		if (!tprof_wrapper_records(t, real) || !tprof_mpi_ready())                 \
			MPI_PASS(name, real, (buf, count, type, source, tag, comm, req));                                      \
		struct mpi_call c_, *c = &c_;                                              \
		mpi_begin_room(c, t, MPI_HOOK(name), 2, persistent ? TPROF_MPI_OTHER      \
			       : TPROF_MPI_IRECV, MPI_REQ_UNITS(1));                     \
		post_begin(c, comm, source, tag, persistent);                              \
		if (!persistent)                                                           \
			c->a->seq = tprof_mpi_next_recv();                                 \
		tprof_call_enter(&c->call);                                               \
		int rc = real(buf, count, type, source, tag, comm, req);                   \
		if (rc == TMPI_SUCCESS) {                                                  \
			c->a->bytes = mpi_bytes(count, type);                              \
			c->b->req = (uint64_t)(uintptr_t)MPI_KEY(*req);                    \
			mpi_track(c, *req, TPROF_MPI_IRECV, persistent, NULL);                   \
		}                                                                          \
		return tprof_call_leave(&c->call, rc);                                    \
	}

MPI_IRECV(MPI_Irecv, 0)
MPI_IRECV(MPI_Recv_init, 1)

/* Partitioned communication (MPI-4): a persistent send or receive of `partitions` parts of
 * `count` elements, which each MPI_Start posts as one message. */
#define MPI_PARTITIONED(name, op, bufq)                                                    \
	TPROF_EXPORT int name(bufq void *buf, int partitions, MCount count, MType type,     \
			      int peer, int tag, MComm comm, MInfo info, MReq *req)        \
	{                                                                                  \
		MPI_WRAPPER_BEGIN(name, 2, TPROF_MPI_OTHER, MPI_REQ_UNITS(1),              \
				  (buf, partitions, count, type, peer, tag, comm, info, req)); \
		post_begin(c, comm, peer, tag, 1);                                         \
		tprof_call_enter(&c->call);                                                \
		int rc = real(buf, partitions, count, type, peer, tag, comm, info, req);   \
		if (rc == TMPI_SUCCESS && req) {                                           \
			int size = 0;                                                      \
			if (partitions > 0 && count > 0 &&                                 \
			    tprof_pmpi.Type_size(MPI_KEY(type), &size) == TMPI_SUCCESS &&  \
			    size > 0)                                                      \
				c->a->bytes = (uint64_t)partitions * (uint64_t)count *     \
					      (uint64_t)size;                              \
			c->b->req = (uint64_t)(uintptr_t)MPI_KEY(*req);                    \
			mpi_track(c, *req, op, 1, NULL);                                   \
		}                                                                          \
		return tprof_call_leave(&c->call, rc);                                    \
	}

MPI_PARTITIONED(MPI_Psend_init, TPROF_MPI_ISEND, const)
MPI_PARTITIONED(MPI_Precv_init, TPROF_MPI_IRECV, )

/* The receive of a message a probe matched: the probe's post number. */
TPROF_EXPORT int MPI_Imrecv(void *buf, int count, MType type, MMsg *msg, MReq *req)
{
	struct tprof_thread *t = &tprof_tls;
	MPI_Imrecv_fn real = get_MPI_Imrecv();
	if (!tprof_wrapper_records(t, real) || !tprof_mpi_ready())
		MPI_PASS(MPI_Imrecv, real, (buf, count, type, msg, req));
	struct mpi_call c_, *c = &c_;
	struct tprof_mpi_req *m = msg ? tprof_mpi_req_find(MPI_KEY(*msg)) : NULL;
	mpi_begin_room(c, t, MPI_HOOK(MPI_Imrecv), 2, TPROF_MPI_IRECV, MPI_REQ_UNITS(1));
	c->a->flags = TPROF_MPIF_NONBLOCKING;
	if (m) {
		c->a->comm = m->comm;
		c->a->peer = m->peer;
		c->a->tag = m->tag;
		c->a->seq = m->seq;
	} else {
		c->a->seq = tprof_mpi_next_recv();
	}
	tprof_call_enter(&c->call);
	int rc = real(buf, count, type, msg, req);
	if (rc == TMPI_SUCCESS) {
		c->a->bytes = mpi_bytes(count, type);
		c->b->req = (uint64_t)(uintptr_t)MPI_KEY(*req);
		/* the message's entry goes first: MPICH gives the receive the message's handle */
		tprof_mpi_req_remove(m);
		mpi_track(c, *req, TPROF_MPI_IRECV, 0, NULL);
	}
	return tprof_call_leave(&c->call, rc);
}

/* ---- persistent requests started, freed, cancelled ----------------------------------------- */

/* Before the start: a persistent receive's post number; a persistent collective's number
 * among the collectives on its communicator (its entry in `out`). */
static inline void start_prepare(struct tprof_mpi_req *e)
{
	if (e && (e->flags & TPROF_MPIF_PERSISTENT)) {
		if (e->op == TPROF_MPI_IRECV)
			e->seq = tprof_mpi_next_recv();
		else if (e->op == TPROF_MPI_ICOLL)
			e->seq = tprof_mpi_coll_seq(e->out);
	}
}

static inline void started(struct mpi_call *c, struct tprof_mpi_req *e, MReq h, uint64_t when)
{
	if (!e || !(e->flags & TPROF_MPIF_PERSISTENT))
		return;
	e->active = 1;
	e->cancel = 0;
	mpireq(c, e, MPI_KEY(h), NULL, TPROF_MPIF_STARTED, when);
}

TPROF_EXPORT int MPI_Start(MReq *req)
{
	struct tprof_thread *t = &tprof_tls;
	MPI_Start_fn real = get_MPI_Start();
	if (!tprof_wrapper_records(t, real) || !tprof_mpi_ready())
		MPI_PASS(MPI_Start, real, (req));
	struct mpi_call c_, *c = &c_;
	MReq h = req ? *req : 0;
	struct tprof_mpi_req *e = lookup(h);
	mpi_begin_room(c, t, MPI_HOOK(MPI_Start), 1, TPROF_MPI_START, MPI_REQ_UNITS(1));
	start_prepare(e);
	tprof_call_enter(&c->call);
	int rc = real(req);
	if (rc == TMPI_SUCCESS)
		started(c, e, h, tprof_now());
	return tprof_call_leave(&c->call, rc);
}

TPROF_EXPORT int MPI_Startall(int count, MReq reqs[])
{
	struct tprof_thread *t = &tprof_tls;
	MPI_Startall_fn real = get_MPI_Startall();
	if (!tprof_wrapper_records(t, real) || !tprof_mpi_ready())
		MPI_PASS(MPI_Startall, real, (count, reqs));
	struct mpi_call c_, *c = &c_;
	int followed = capture(count, reqs);
	mpi_begin_room(c, t, MPI_HOOK(MPI_Startall), 1, TPROF_MPI_START, MPI_REQ_UNITS(count));
	for (int i = 0; followed && i < count; i++)
		start_prepare(scratch.entries[i] = captured(i));
	tprof_call_enter(&c->call);
	int rc = real(count, reqs);
	if (rc == TMPI_SUCCESS && followed) {
		uint64_t when = tprof_now();
		for (int i = 0; i < count; i++)
			started(c, scratch.entries[i], scratch.handles[i], when);
	}
	return tprof_call_leave(&c->call, rc);
}

/* MPI_Request_free and MPI_Cancel: the request in args2.req, its communicator in args. */
static inline void about_request(struct mpi_call *c, struct tprof_mpi_req *e, MReq h)
{
	c->b->req = (uint64_t)(uintptr_t)MPI_KEY(h);
	if (e) {
		c->a->comm = e->comm;
		c->a->flags = e->flags;
	}
}

TPROF_EXPORT int MPI_Request_free(MReq *req)
{
	struct tprof_thread *t = &tprof_tls;
	MPI_Request_free_fn real = get_MPI_Request_free();
	if (!tprof_wrapper_records(t, real) || !tprof_mpi_ready())
		MPI_PASS(MPI_Request_free, real, (req));
	struct mpi_call c_, *c = &c_;
	MReq h = req ? *req : 0;
	struct tprof_mpi_req *e = lookup(h);
	mpi_begin(c, t, MPI_HOOK(MPI_Request_free), 2, TPROF_MPI_OTHER);
	about_request(c, e, h);
	tprof_call_enter(&c->call);
	int rc = real(req);
	if (rc == TMPI_SUCCESS)
		tprof_mpi_req_remove(e);
	return tprof_call_leave(&c->call, rc);
}

TPROF_EXPORT int MPI_Cancel(MReq *req)
{
	struct tprof_thread *t = &tprof_tls;
	MPI_Cancel_fn real = get_MPI_Cancel();
	if (!tprof_wrapper_records(t, real) || !tprof_mpi_ready())
		MPI_PASS(MPI_Cancel, real, (req));
	struct mpi_call c_, *c = &c_;
	MReq h = req ? *req : 0;
	struct tprof_mpi_req *e = lookup(h);
	mpi_begin(c, t, MPI_HOOK(MPI_Cancel), 2, TPROF_MPI_OTHER);
	about_request(c, e, h);
	tprof_call_enter(&c->call);
	int rc = real(req);
	if (rc == TMPI_SUCCESS && e)
		e->cancel = 1;
	return tprof_call_leave(&c->call, rc);
}

/* ---- the Wait and Test families ---------------------------------------------------------- */

TPROF_EXPORT int MPI_Wait(MReq *req, MStatus *status)
{
	struct tprof_thread *t = &tprof_tls;
	MPI_Wait_fn real = get_MPI_Wait();
	if (!tprof_wrapper_records(t, real) || !tprof_mpi_ready())
		MPI_PASS(MPI_Wait, real, (req, status));
	struct mpi_call c_, *c = &c_;
	MStatus own, *st = MPI_STATUS_OR(status, &own);
	MReq h = req ? *req : 0;
	struct tprof_mpi_req *e = lookup(h);
	mpi_begin_room(c, t, MPI_HOOK(MPI_Wait), 1, TPROF_MPI_WAIT, MPI_REQ_UNITS(1));
	tprof_call_enter(&c->call);
	int rc = real(req, st);
	if (rc == TMPI_SUCCESS)
		completed(c, e, MPI_KEY(h), st, tprof_now());
	return tprof_call_leave(&c->call, rc);
}

/* The full MPI_Test: pre when its fast side made the call already (MPI_POLL_AFTER), with h
 * the request before it and status where it wrote the status. */
static __attribute__((noinline)) int test_full(MReq *req, int *flag, MStatus *status, MReq h,
					       int pre, int pre_rc)
{
	struct tprof_thread *t = &tprof_tls;
	MPI_Test_fn real = get_MPI_Test();
	if (!pre) {
		if (!tprof_wrapper_records(t, real) || !tprof_mpi_ready())
			MPI_PASS(MPI_Test, real, (req, flag, status));
	}
	struct mpi_call c_, *c = &c_;
	MStatus own, *st = MPI_STATUS_OR(status, &own);
	struct tprof_mpi_req *e = !pre && mpi_lookup_early() ? lookup(h) : NULL;
	MPI_POLL_AFTER(c, t, MPI_HOOK(MPI_Test), 1, TPROF_MPI_WAIT, MPI_REQ_UNITS(1), rc, pre, pre_rc,
		       real(req, flag, st),
		       rc == TMPI_SUCCESS && flag && !*flag);
	if (rc == TMPI_SUCCESS && flag && *flag)
		completed(c, found(e, h), MPI_KEY(h), st, tprof_now());
	return tprof_call_leave(&c->call, rc);
}

TPROF_EXPORT int MPI_Test(MReq *req, int *flag, MStatus *status)
{
	struct tprof_thread *t = &tprof_tls;
	if (TPROF_LIKELY(mpi_poll_fast(t, MPI_ARM_TEST) && req)) {
		/* What the full wrapper needs should the call succeed, stored in the frame (volatile)
		 * rather than kept in registers saved and restored around the call: a miss reads
		 * none of it back. */
		MStatus own, *st = MPI_STATUS_OR(status, &own);
		volatile MReq h = *req;
		MReq *volatile req_ = req;
		MStatus *volatile st_ = st;
		t->guard++;
		int rc = MPI_REAL_FOUND(MPI_Test)(req, flag, st);
		if (TPROF_LIKELY(rc == TMPI_SUCCESS && !*flag) &&
		    tprof_poll_count_armed(t, MPI_ARM_TEST)) {
			t->guard--;
			return rc;
		}
		return test_full(req_, flag, st_, h, 1, rc);
	}
	/* MPICH's requests are ints: its twin reads them (MPI_PASS) */
	MPI_TO_MPICH(MPI_Test, __atomic_load_n(&tprof_mpi_abi, __ATOMIC_RELAXED),
		     (req, flag, status))
	return test_full(req, flag, status, req ? *req : 0, 0, 0);
}

/* Every request of the array completed (Waitall, Testall with flag set). */
static void all_completed(struct mpi_call *c, int n, const MStatus *sts)
{
	uint64_t when = tprof_now();
	for (int i = 0; i < n; i++)
		completed(c, captured(i), MPI_KEY(scratch.handles[i]), sts ? &sts[i] : NULL, when);
}

/* The requests indices[0..k) of the array completed, with statuses sts[0..k). */
static void some_completed(struct mpi_call *c, int k, const int *indices, const MStatus *sts, int n)
{
	uint64_t when = tprof_now();
	for (int j = 0; indices && j < k; j++) {
		int i = indices[j];
		if (i >= 0 && i < n)
			completed(c, captured(i), MPI_KEY(scratch.handles[i]), sts ? &sts[j] : NULL, when);
	}
}

/* The statuses the real call fills: the program's, or the scratch array when it ignores them. */
static inline MStatus *statuses_for(MStatus *given, int followed)
{
	return given != TMPI_STATUSES_IGNORE ? given : followed ? scratch.statuses : given;
}

TPROF_EXPORT int MPI_Waitall(int count, MReq reqs[], MStatus statuses[])
{
	struct tprof_thread *t = &tprof_tls;
	MPI_Waitall_fn real = get_MPI_Waitall();
	if (!tprof_wrapper_records(t, real) || !tprof_mpi_ready())
		MPI_PASS(MPI_Waitall, real, (count, reqs, statuses));
	struct mpi_call c_, *c = &c_;
	int followed = capture(count, reqs);
	MStatus *sts = statuses_for(statuses, followed);
	mpi_begin_room(c, t, MPI_HOOK(MPI_Waitall), 1, TPROF_MPI_WAIT, MPI_REQ_UNITS(count));
	tprof_call_enter(&c->call);
	int rc = real(count, reqs, sts);
	if (rc == TMPI_SUCCESS && followed)
		all_completed(c, count, sts);
	return tprof_call_leave(&c->call, rc);
}

TPROF_EXPORT int MPI_Testall(int count, MReq reqs[], int *flag, MStatus statuses[])
{
	struct tprof_thread *t = &tprof_tls;
	MPI_Testall_fn real = get_MPI_Testall();
	if (!tprof_wrapper_records(t, real) || !tprof_mpi_ready())
		MPI_PASS(MPI_Testall, real, (count, reqs, flag, statuses));
	struct mpi_call c_, *c = &c_;
	int followed = capture(count, reqs);
	MStatus *sts = statuses_for(statuses, followed);
	MPI_POLL(c, t, MPI_HOOK(MPI_Testall), 1, TPROF_MPI_WAIT, MPI_REQ_UNITS(count), rc,
		 real(count, reqs, flag, sts),
		 rc == TMPI_SUCCESS && flag && !*flag);
	if (rc == TMPI_SUCCESS && followed && flag && *flag)
		all_completed(c, count, sts);
	return tprof_call_leave(&c->call, rc);
}

TPROF_EXPORT int MPI_Waitany(int count, MReq reqs[], int *index, MStatus *status)
{
	struct tprof_thread *t = &tprof_tls;
	MPI_Waitany_fn real = get_MPI_Waitany();
	if (!tprof_wrapper_records(t, real) || !tprof_mpi_ready())
		MPI_PASS(MPI_Waitany, real, (count, reqs, index, status));
	struct mpi_call c_, *c = &c_;
	MStatus own, *st = MPI_STATUS_OR(status, &own);
	int followed = capture(count, reqs);
	mpi_begin_room(c, t, MPI_HOOK(MPI_Waitany), 1, TPROF_MPI_WAIT, MPI_REQ_UNITS(1));
	tprof_call_enter(&c->call);
	int rc = real(count, reqs, index, st);
	if (rc == TMPI_SUCCESS && followed && index && *index != TMPI_UNDEFINED)
		some_completed(c, 1, index, st, count);
	return tprof_call_leave(&c->call, rc);
}

/* The full MPI_Testany: pre when its fast side made the call already (MPI_POLL_AFTER), having
 * captured the requests (followed) and with status where it wrote the status. */
static __attribute__((noinline)) int testany_full(int count, MReq reqs[], int *index, int *flag,
						  MStatus *status, int followed, int pre, int pre_rc)
{
	struct tprof_thread *t = &tprof_tls;
	MPI_Testany_fn real = get_MPI_Testany();
	if (!pre) {
		if (!tprof_wrapper_records(t, real) || !tprof_mpi_ready())
			MPI_PASS(MPI_Testany, real, (count, reqs, index, flag, status));
		followed = capture(count, reqs);
	}
	struct mpi_call c_, *c = &c_;
	MStatus own, *st = MPI_STATUS_OR(status, &own);
	MPI_POLL_AFTER(c, t, MPI_HOOK(MPI_Testany), 1, TPROF_MPI_WAIT, MPI_REQ_UNITS(1), rc, pre,
		       pre_rc, real(count, reqs, index, flag, st),
		       rc == TMPI_SUCCESS && flag && !*flag);
	if (rc == TMPI_SUCCESS && followed && flag && *flag && index && *index != TMPI_UNDEFINED)
		some_completed(c, 1, index, st, count);
	return tprof_call_leave(&c->call, rc);
}

/* Requests the fast side of MPI_Testany copies itself, on its stack: a polling loop holds a
 * few.  With more, or none, a poll takes the full wrapper. */
#define FAST_REQS 4

/* reqs[0..n) into hs, when 0 < n <= FAST_REQS: no loop, a copy or two a request. */
static inline int copy_few(MReq *hs, const MReq *reqs, int n)
{
	if (!reqs)
		return 0;
	switch (n) {
	case 4: hs[3] = reqs[3]; /* fall through */
	case 3: hs[2] = reqs[2]; /* fall through */
	case 2: hs[1] = reqs[1]; /* fall through */
	case 1: hs[0] = reqs[0]; return 1;
	default: return 0;
	}
}
_Static_assert(FAST_REQS == 4, "copy_few copies up to FAST_REQS");

TPROF_EXPORT int MPI_Testany(int count, MReq reqs[], int *index, int *flag, MStatus *status)
{
	struct tprof_thread *t = &tprof_tls;
	MReq hs[FAST_REQS];
	if (TPROF_LIKELY(mpi_poll_fast(t, MPI_ARM_TESTANY) && copy_few(hs, reqs, count))) {
		MStatus own, *st = MPI_STATUS_OR(status, &own);
		/* in the frame, as MPI_Test's */
		volatile int count_ = count;
		MReq *volatile reqs_ = reqs;
		int *volatile index_ = index;
		MStatus *volatile st_ = st;
		t->guard++;
		int rc = MPI_REAL_FOUND(MPI_Testany)(count, reqs, index, flag, st);
		if (TPROF_LIKELY(rc == TMPI_SUCCESS && !*flag) &&
		    tprof_poll_count_armed(t, MPI_ARM_TESTANY)) {
			t->guard--;
			return rc;
		}
		/* the requests as they were before the call, where the full wrapper finds them */
		return testany_full(count_, reqs_, index_, flag, st_, capture(count_, hs), 1, rc);
	}
	return testany_full(count, reqs, index, flag, status, 0, 0, 0);
}

/* MPI_Waitsome (which never misses) and MPI_Testsome (misses when none completed). */
#define MPI_SOME(name, can_miss)                                                           \
	TPROF_EXPORT int name(int count, MReq reqs[], int *outcount, int indices[],         \
			      MStatus statuses[])                                          \
	{                                                                                  \
		struct tprof_thread *t = &tprof_tls;                                       \
		name##_fn real = get_##name();                                             \
		if (!tprof_wrapper_records(t, real) || !tprof_mpi_ready())                 \
			MPI_PASS(name, real, (count, reqs, outcount, indices, statuses));                                      \
		struct mpi_call c_, *c = &c_;                                              \
		int followed = capture(count, reqs);                                       \
		MStatus *sts = statuses_for(statuses, followed);                           \
		MPI_POLL(c, t, MPI_HOOK(name), 1, TPROF_MPI_WAIT, MPI_REQ_UNITS(count), rc, \
			 real(count, reqs, outcount, indices, sts),                        \
			 can_miss && rc == TMPI_SUCCESS && outcount && !*outcount);        \
		if (rc == TMPI_SUCCESS && followed && outcount && *outcount != TMPI_UNDEFINED) \
			some_completed(c, *outcount, indices, sts, count);                 \
		return tprof_call_leave(&c->call, rc);                                    \
	}

MPI_SOME(MPI_Waitsome, 0)
MPI_SOME(MPI_Testsome, 1)
