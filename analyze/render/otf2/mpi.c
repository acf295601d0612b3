/* render/otf2/mpi.c — MPI calls as OTF2's MPI records, the way Score-P writes them, so that
 * Vampir and Scalasca read the archive as an MPI trace:
 *   blocking send      Enter, MpiSend, Leave          (MpiSend at the call's start)
 *   blocking receive   Enter, MpiRecv, Leave          (MpiRecv at the call's end)
 *   sendrecv           Enter, MpiSend, MpiRecv, Leave
 *   Isend              Enter, MpiIsend(request), Leave ... MpiIsendComplete(request) where
 *                      it completed (inside the Wait or Test that found it done)
 *   Irecv              Enter, MpiIrecvRequest(request), Leave ... MpiIrecv(request) there
 *   collective         Enter, MpiCollectiveBegin, MpiCollectiveEnd, Leave
 *   nonblocking coll.  Enter, NonBlockingCollectiveRequest, Leave ...
 *                      NonBlockingCollectiveComplete where it completed
 *   cancelled          MpiRequestCancelled where the cancelled request completed
 *   persistent         MPI_Start posts (MpiIsend or MpiIrecvRequest), completions as above
 *   MPI-IO             the I/O records of render/otf2/io.c; a nonblocking read or write
 *                      completes where its request did
 *   one-sided          the RMA records of render/otf2/rma.c; a request-based operation
 *                      completes locally where its request did
 * Ranks are those in the call's communicator, as recorded.  Requests get ids of their own:
 * a handle is reused by MPI once its request is done.  The host thread writer
 * (render/otf2/host.c) asks for a call's records and puts them in their places. */
#include <stdlib.h>
#include <string.h>

#include "../../../common/xalloc.h"
#include "../../util/grow.h"
#include "state.h"

/* ---- requests in flight ------------------------------------------------------------------- */

static uint64_t req_hash(int proc, uint64_t handle)
{
	uint64_t h = (handle ^ ((uint64_t)proc << 40)) * 0x9e3779b97f4a7c15ull;
	return h ^ h >> 29;
}

static struct req *req_find(struct otf2 *o, int proc, uint64_t handle)
{
	uint64_t h = req_hash(proc, handle);
	size_t at;
	for (uint32_t id = hindex_first(&o->reqs_by_handle, h, &at); id;
	     id = hindex_next(&o->reqs_by_handle, h, &at))
		if (o->reqs[id - 1].handle == handle && o->reqs[id - 1].proc == proc)
			return &o->reqs[id - 1];
	return NULL;
}

/* A request posted: a fresh id; a handle still in the table belonged to a request that
 * was never seen to complete (freed, or outside the window), and is replaced. */
static uint64_t req_add(struct otf2 *o, int proc, uint64_t handle, const struct mrec *m)
{
	struct req *r = req_find(o, proc, handle);
	if (!r) {
		o->reqs = util_grow(o->reqs, &o->capreqs, o->nreqs, sizeof(*o->reqs), 256);
		r = &o->reqs[o->nreqs++];
		r->proc = proc;
		r->handle = handle;
		hindex_add(&o->reqs_by_handle, req_hash(proc, handle), (uint32_t)o->nreqs);
	}
	r->id = o->next_req++;
	r->m = *m;
	r->m.req = r->id;
	return r->id;
}

/* Removes r: the last request takes its place. */
static void req_del(struct otf2 *o, struct req *r)
{
	uint32_t id = (uint32_t)(r - o->reqs) + 1, last = (uint32_t)o->nreqs;
	hindex_del(&o->reqs_by_handle, req_hash(r->proc, r->handle), id);
	if (id != last) {
		struct req *l = &o->reqs[last - 1];
		hindex_renumber(&o->reqs_by_handle, req_hash(l->proc, l->handle), last, id);
		*r = *l;
	}
	o->nreqs--;
}

void otf2_mpi_free(struct otf2 *o)
{
	free(o->reqs);
	hindex_free(&o->reqs_by_handle);
	o->reqs = NULL;
	o->nreqs = o->capreqs = 0;
}

/* ---- calls and completions ---------------------------------------------------------------- */

static OTF2_CommRef call_comm(struct otf2 *o, const struct msgpass *mp)
{
	OTF2_CommRef c = otf2_comm(o->defs, mp->comm, mp->comm_id);
	if (c == OTF2_UNDEFINED_COMM)
		o->mpi_skipped++;
	return c;
}

static uint32_t root_of(int32_t peer)
{
	return peer >= 0 ? (uint32_t)peer : OTF2_UNDEFINED_UINT32;
}

/* A point-to-point record: a message to or from peer. */
static struct mrec message(uint8_t kind, int32_t peer, int32_t tag, OTF2_CommRef c, uint64_t bytes,
			   uint64_t req)
{
	return (struct mrec){ kind, 0, (uint32_t)peer, (uint32_t)tag, c, bytes, 0, req };
}

/* A send or a receive posted as a request (a call, or a persistent request started): its
 * record now, and what its completion writes. */
static void post(struct otf2 *o, int proc, const struct msgpass *mp, OTF2_CommRef c, struct mrec *m)
{
	int none = mp->flags & MPF_NULL;
	if (mp->kind == MP_ISEND) {
		struct mrec done = { none ? MR_NONE : MR_ISEND_DONE, 0, 0, 0, c, 0, 0, 0 };
		uint64_t id = req_add(o, proc, mp->req, &done);
		if (!none && mp->peer >= 0)
			*m = message(MR_ISEND, mp->peer, mp->tag, c, mp->bytes, id);
	} else {
		struct mrec done = { none ? MR_NONE : MR_IRECV, 0, 0, 0, c, 0, 0, 0 };
		uint64_t id = req_add(o, proc, mp->req, &done);
		if (!none)
			*m = (struct mrec){ MR_IRECV_REQ, 0, 0, 0, c, 0, 0, id };
	}
}

/* MPI-IO (render/otf2/io.c): the records of an open, a close, a read or a write; 0 for
 * anything else. */
static int io_call(struct otf2 *o, const struct msgpass *mp, int proc, struct mrec *after,
		   struct mrec *before)
{
	if (mp->kind != MP_IO_OPEN && mp->kind != MP_IO_CLOSE && mp->kind != MP_IO &&
	    mp->kind != MP_IIO)
		return 0;
	OTF2_CommRef c = otf2_comm(o->defs, mp->comm, mp->comm_id);
	uint32_t h = otf2_io_handle(o, proc, mp->handle, mp->file, c);
	if (mp->kind == MP_IO_OPEN || mp->kind == MP_IO_CLOSE) {
		uint8_t k = mp->kind == MP_IO_OPEN ? MR_IO_CREATE : MR_IO_DESTROY;
		*before = (struct mrec){ .kind = k, .peer = h };
		return 1;
	}
	uint8_t mode = mp->flags & MPF_IO_READ ? OTF2_IO_OPERATION_MODE_READ
					       : OTF2_IO_OPERATION_MODE_WRITE;
	uint32_t flags = mp->flags & MPF_IO_COLLECTIVE ? OTF2_IO_OPERATION_FLAG_COLLECTIVE
						       : OTF2_IO_OPERATION_FLAG_NONE;
	uint64_t id;
	if (mp->kind == MP_IIO) {
		/* completed where its request is: with the bytes done then */
		id = req_add(o, proc, mp->req, &(struct mrec){ .kind = MR_IO_DONE, .peer = h });
		flags |= OTF2_IO_OPERATION_FLAG_NON_BLOCKING;
		*before = (struct mrec){ .kind = MR_IO_ISSUED, .peer = h, .req = id };
	} else {
		id = o->next_req++;   /* one numbering with the requests' */
		*before = (struct mrec){ .kind = MR_IO_DONE, .peer = h, .bytes = mp->bytes,
					 .req = id };
	}
	*after = (struct mrec){ .kind = MR_IO_BEGIN, .op = mode, .peer = h, .tag = flags,
				.bytes = mp->kind == MP_IIO ? mp->bytes : mp->bytes2, .req = id };
	return 1;
}

void otf2_mpi_call(struct otf2 *o, const struct msgpass *mp, int proc, struct mrec *after,
		   struct mrec *before)
{
	if (io_call(o, mp, proc, after, before))
		return;
	struct mrec on_req = { 0 };
	if (otf2_rma_call(o, mp, proc, after, before, &on_req)) {
		if (on_req.kind)
			req_add(o, proc, mp->req, &on_req);
		return;
	}
	OTF2_CommRef c = call_comm(o, mp);
	if (c == OTF2_UNDEFINED_COMM) {
		/* Its request, if any, completes without a record (and without a warning). */
		if (mp->kind == MP_ISEND || mp->kind == MP_IRECV || mp->kind == MP_ICOLL)
			req_add(o, proc, mp->req, &(struct mrec){ .kind = MR_NONE });
		return;
	}
	int op = otf2_coll_op(mp->coll);
	switch (mp->kind) {
	case MP_SEND:
		if (mp->peer >= 0)
			*after = message(MR_SEND, mp->peer, mp->tag, c, mp->bytes, 0);
		break;
	case MP_RECV:
		if (mp->peer >= 0)
			*before = message(MR_RECV, mp->peer, mp->tag, c, mp->bytes, 0);
		break;
	case MP_SENDRECV:
		if (mp->peer >= 0)
			*after = message(MR_SEND, mp->peer, mp->tag, c, mp->bytes, 0);
		if (mp->peer2 >= 0)
			*before = message(MR_RECV, mp->peer2, mp->tag2, c, mp->bytes2, 0);
		break;
	case MP_ISEND:
	case MP_IRECV:
		post(o, proc, mp, c, after);
		break;
	case MP_COLL:
		if (op < 0)
			break;
		*after = (struct mrec){ MR_COLL_BEGIN, 0, 0, 0, c, 0, 0, 0 };
		*before = (struct mrec){ MR_COLL_END, (uint8_t)op, root_of(mp->peer), 0, c,
					 mp->bytes, mp->bytes2, 0 };
		break;
	case MP_ICOLL: {
		if (op < 0)
			break;
		struct mrec done = { MR_NBC_DONE, (uint8_t)op, root_of(mp->peer), 0, c, mp->bytes,
				     mp->bytes2, 0 };
		uint64_t id = req_add(o, proc, mp->req, &done);
		*after = (struct mrec){ MR_NBC_REQ, 0, 0, 0, c, 0, 0, id };
		break;
	}
	default:
		break;
	}
}

void otf2_mpi_req(struct otf2 *o, const struct msgpass *mp, int proc, struct mrec *m)
{
	memset(m, 0, sizeof(*m));
	if (mp->kind == MP_ISEND || mp->kind == MP_IRECV) {
		/* a persistent request started (MPI_Start): a new message posted */
		OTF2_CommRef c = call_comm(o, mp);
		if (c == OTF2_UNDEFINED_COMM)
			req_add(o, proc, mp->req, &(struct mrec){ .kind = MR_NONE });
		else
			post(o, proc, mp, c, m);
		return;
	}
	if (mp->kind != MP_DONE)
		return;
	struct req *r = req_find(o, proc, mp->req);
	if (!r) {
		if (!(mp->flags & MPF_NULL))
			o->req_unknown++;
		return;
	}
	struct mrec done = r->m;
	req_del(o, r);
	if (!done.kind)
		return;
	if (mp->flags & MPF_CANCELLED) {
		*m = (struct mrec){ .kind = MR_CANCELLED, .req = done.req };
		return;
	}
	*m = done;
	if (done.kind == MR_IRECV) {
		/* The message as received: source, tag and size from the status. */
		if (mp->peer < 0 || (mp->flags & MPF_NULL)) {
			m->kind = MR_NONE;
			return;
		}
		m->peer = (uint32_t)mp->peer;
		m->tag = (uint32_t)mp->tag;
		m->bytes = mp->bytes;
	}
	if (done.kind == MR_IO_DONE)
		m->bytes = mp->bytes;   /* read or written, as the status said */
}

void otf2_mpi_write(struct otf2 *o, struct loc *l, int64_t t, const struct mrec *m)
{
	if (o->failed || !m->kind)
		return;
	struct pstate *ps = otf2_pstate(o, l->proc);
	if (!ps->mpi_loc && l->kind == LOC_THREAD)
		ps->mpi_loc = l;
	struct rec r = { .kind = REC_MPI, .ts = otf2_time(o, l, t), .u.mpi = *m };
	otf2_record(o, l, &r);
}
