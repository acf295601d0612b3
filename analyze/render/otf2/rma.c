/* render/otf2/rma.c — one-sided communication as OTF2's RMA records, as Score-P writes MPI's:
 * a window per (communicator, number), RmaWinCreate where it is made and RmaWinDestroy where
 * it is freed; a fence as RmaCollectiveBegin and RmaCollectiveEnd; locks as RmaAcquireLock
 * and RmaReleaseLock (the lock's id: the rank locked); RmaPut, RmaGet and RmaAtomic for each
 * operation, its request's completion RmaOpCompleteNonBlocking (render/otf2/mpi.c holds the
 * request), and RmaOpCompleteRemote for every operation of the window at the process not yet
 * completed where a call completes them (a fence, an unlock, MPI_Win_complete, a flush: the
 * ones before it, whatever their target).  An operation's matching id is its number among
 * the process's operations on the window, so those a call completes are one range, which
 * the record kept for it holds (records may be written long after, render/otf2/records.c).
 * Windows are numbered in the order this analysis process met them; under --parallel the
 * first makes every other's its own (render/otf2/unify.c), whose locations then carry the
 * mapping. */
#include <stdio.h>
#include <stdlib.h>

#include "../../../common/xalloc.h"
#include "../../util/grow.h"
#include "../../util/hindex.h"
#include "../../util/pack.h"
#include "state.h"

struct rma_win {
	uint64_t comm_id;
	int32_t number;
	OTF2_CommRef comm;
};

/* A process's operations on a window: issued, and completed remotely so far. */
struct rma_ops {
	int proc;
	uint32_t win;
	uint64_t issued, done;
};

struct otf2_rma {
	struct rma_win *wins;            /* by ref */
	size_t nwins, capwins;
	struct hindex win_of;
	struct rma_ops *ops;
	size_t nops, capops;
	struct hindex ops_of;
};

static struct otf2_rma *rma(struct otf2 *o)
{
	if (!o->rma)
		o->rma = xcalloc(1, sizeof(*o->rma));
	return o->rma;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	h = (h ^ v) * 0x9e3779b97f4a7c15ull;
	return h ^ h >> 29;
}

/* The window `number` of communicator comm_id (OTF2's comm), its ref: made on first use. */
static uint32_t win_intern(struct otf2 *o, uint64_t comm_id, int32_t number, OTF2_CommRef comm)
{
	struct otf2_rma *x = rma(o);
	uint64_t h = mix(mix(7, comm_id), (uint32_t)number);
	size_t at;
	for (uint32_t id = hindex_first(&x->win_of, h, &at); id;
	     id = hindex_next(&x->win_of, h, &at))
		if (x->wins[id - 1].comm_id == comm_id && x->wins[id - 1].number == number)
			return id - 1;
	x->wins = util_grow(x->wins, &x->capwins, x->nwins, sizeof(*x->wins), 8);
	x->wins[x->nwins++] = (struct rma_win){ comm_id, number, comm };
	hindex_add(&x->win_of, h, (uint32_t)x->nwins);
	return (uint32_t)(x->nwins - 1);
}

static uint32_t win_ref(struct otf2 *o, const struct msgpass *mp)
{
	return win_intern(o, mp->comm_id, mp->window, otf2_comm(o->defs, mp->comm, mp->comm_id));
}

void otf2_rma_pack(const struct otf2 *o, struct pack *b)
{
	const struct otf2_rma *x = o->rma;
	size_t n = x ? x->nwins : 0;
	pack_u64(b, n);
	for (size_t i = 0; i < n; i++) {
		pack_u64(b, x->wins[i].comm_id);
		pack_i64(b, x->wins[i].number);
		pack_u64(b, x->wins[i].comm);   /* communicators' refs are the same everywhere */
	}
}

void otf2_rma_replay(struct otf2 *o, struct unpack *u, struct otf2_idmaps *m)
{
	size_t n = unpack_count(u, 3 * sizeof(uint64_t));
	m->n[OTF2_IDMAP_RMA_WIN] = n;
	m->v[OTF2_IDMAP_RMA_WIN] = xcalloc(n ? n : 1, sizeof(uint32_t));
	for (size_t i = 0; i < n && !u->short_read; i++) {
		uint64_t comm_id = unpack_u64(u);
		int32_t number = (int32_t)unpack_i64(u);
		OTF2_CommRef comm = (OTF2_CommRef)unpack_u64(u);
		m->v[OTF2_IDMAP_RMA_WIN][i] = win_intern(o, comm_id, number, comm);
	}
}

static struct rma_ops *ops_of(struct otf2 *o, int proc, uint32_t win)
{
	struct otf2_rma *x = rma(o);
	uint64_t h = mix(mix(11, (uint32_t)proc), win);
	size_t at;
	for (uint32_t id = hindex_first(&x->ops_of, h, &at); id;
	     id = hindex_next(&x->ops_of, h, &at))
		if (x->ops[id - 1].proc == proc && x->ops[id - 1].win == win)
			return &x->ops[id - 1];
	x->ops = util_grow(x->ops, &x->capops, x->nops, sizeof(*x->ops), 8);
	x->ops[x->nops++] = (struct rma_ops){ proc, win, 0, 0 };
	hindex_add(&x->ops_of, h, (uint32_t)x->nops);
	return &x->ops[x->nops - 1];
}

/* The operations issued and not yet completed remotely: now they are. */
static struct mrec complete(struct rma_ops *ops, uint8_t kind, uint32_t win)
{
	struct mrec m = { .kind = kind, .peer = win, .req = ops->done + 1, .bytes2 = ops->issued };
	ops->done = ops->issued;
	return m;
}

int otf2_rma_call(struct otf2 *o, const struct msgpass *mp, int proc, struct mrec *after,
		  struct mrec *before, struct mrec *on_req)
{
	if (mp->kind < MP_RMA_WIN || mp->kind > MP_RMA_OP)
		return 0;
	uint32_t w = win_ref(o, mp);
	struct rma_ops *ops = ops_of(o, proc, w);
	uint32_t remote = mp->peer >= 0 ? (uint32_t)mp->peer : OTF2_UNDEFINED_UINT32;
	switch (mp->kind) {
	case MP_RMA_WIN:
		*before = (struct mrec){ .kind = MR_RMA_CREATE, .peer = w };
		break;
	case MP_RMA_FREE:
		*after = (struct mrec){ .kind = MR_RMA_DESTROY, .peer = w };
		break;
	case MP_RMA_FENCE:
		*after = (struct mrec){ .kind = MR_RMA_FENCE_BEGIN };
		*before = complete(ops, MR_RMA_FENCE_END, w);
		break;
	case MP_RMA_LOCK:
		if (mp->peer >= 0) {
			uint8_t type = mp->flags & MPF_RMA_EXCLUSIVE ? OTF2_LOCK_EXCLUSIVE
								     : OTF2_LOCK_SHARED;
			*before = (struct mrec){ .kind = MR_RMA_LOCK, .op = type, .peer = w,
						 .tag = remote };
		}
		break;
	case MP_RMA_UNLOCK:
		*before = complete(ops, MR_RMA_UNLOCK, w);
		before->tag = remote;
		break;
	case MP_RMA_CLOSE:
		*before = complete(ops, MR_RMA_DONE, w);
		break;
	case MP_RMA_OP: {
		if (mp->flags & MPF_NULL || mp->peer < 0)
			break;
		uint64_t id = ++ops->issued;
		uint8_t op = mp->flags & MPF_RMA_PUT ? 0 : mp->flags & MPF_RMA_GET ? 1 : 2;
		*after = (struct mrec){ .kind = MR_RMA_OP, .op = op, .peer = w, .tag = remote,
					.bytes = mp->bytes, .bytes2 = mp->bytes2, .req = id };
		if (mp->req)   /* completed locally where its request completes */
			*on_req = (struct mrec){ .kind = MR_RMA_OP_DONE, .peer = w, .bytes2 = id };
		break;
	}
	default:
		break;
	}
	return 1;
}

void otf2_rma_write_defs(struct otf2 *o, OTF2_GlobalDefWriter *gw)
{
	struct otf2_rma *x = o->rma;
	if (!x)
		return;
	char name[96];
	for (size_t i = 0; i < x->nwins; i++) {
		snprintf(name, sizeof(name), "window %d", (int)x->wins[i].number);
		otf2_check(o, OTF2_GlobalDefWriter_WriteRmaWin(
				      gw, (OTF2_RmaWinRef)i, otf2_str(o->defs, name), x->wins[i].comm,
				      OTF2_RMA_WIN_FLAG_CREATE_DESTROY_EVENTS));
	}
}

void otf2_rma_free(struct otf2 *o)
{
	struct otf2_rma *x = o->rma;
	if (!x)
		return;
	free(x->wins);
	free(x->ops);
	hindex_free(&x->win_of);
	hindex_free(&x->ops_of);
	free(x);
	o->rma = NULL;
}

/* RmaOpCompleteRemote for the operations m->req .. m->bytes2. */
static OTF2_ErrorCode complete_remote(OTF2_EvtWriter *w, OTF2_TimeStamp ts, const struct mrec *m)
{
	OTF2_ErrorCode rc = OTF2_SUCCESS;
	for (uint64_t id = m->req; id <= m->bytes2 && rc == OTF2_SUCCESS; id++)
		rc = OTF2_EvtWriter_RmaOpCompleteRemote(w, NULL, ts, m->peer, id);
	return rc;
}

OTF2_ErrorCode otf2_rma_put(OTF2_EvtWriter *w, OTF2_TimeStamp ts, const struct mrec *m)
{
	OTF2_ErrorCode rc;
	switch (m->kind) {
	case MR_RMA_CREATE:
		return OTF2_EvtWriter_RmaWinCreate(w, NULL, ts, m->peer);
	case MR_RMA_DESTROY:
		return OTF2_EvtWriter_RmaWinDestroy(w, NULL, ts, m->peer);
	case MR_RMA_FENCE_BEGIN:
		return OTF2_EvtWriter_RmaCollectiveBegin(w, NULL, ts);
	case MR_RMA_FENCE_END:
		rc = complete_remote(w, ts, m);
		return rc != OTF2_SUCCESS ? rc
		       : OTF2_EvtWriter_RmaCollectiveEnd(w, NULL, ts, OTF2_COLLECTIVE_OP_BARRIER,
							 OTF2_RMA_SYNC_LEVEL_PROCESS |
								 OTF2_RMA_SYNC_LEVEL_MEMORY,
							 m->peer, OTF2_UNDEFINED_UINT32, 0, 0);
	case MR_RMA_LOCK:
		return OTF2_EvtWriter_RmaAcquireLock(w, NULL, ts, m->peer, m->tag, m->tag, m->op);
	case MR_RMA_UNLOCK:
		rc = complete_remote(w, ts, m);
		if (rc != OTF2_SUCCESS || m->tag == OTF2_UNDEFINED_UINT32)
			return rc;
		return OTF2_EvtWriter_RmaReleaseLock(w, NULL, ts, m->peer, m->tag, m->tag);
	case MR_RMA_DONE:
		return complete_remote(w, ts, m);
	case MR_RMA_OP:
		if (m->op == 0)
			return OTF2_EvtWriter_RmaPut(w, NULL, ts, m->peer, m->tag, m->bytes, m->req);
		if (m->op == 1)
			return OTF2_EvtWriter_RmaGet(w, NULL, ts, m->peer, m->tag, m->bytes, m->req);
		return OTF2_EvtWriter_RmaAtomic(w, NULL, ts, m->peer, m->tag,
						OTF2_RMA_ATOMIC_TYPE_ACCUMULATE, m->bytes, m->bytes2,
						m->req);
	case MR_RMA_OP_DONE:
		return OTF2_EvtWriter_RmaOpCompleteNonBlocking(w, NULL, ts, m->peer, m->bytes2);
	}
	return OTF2_SUCCESS;
}
