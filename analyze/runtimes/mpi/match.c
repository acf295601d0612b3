/* runtimes/mpi/match.c — point-to-point message matching.
 *
 * MPI delivers the messages of one channel (communicator, sender, receiver, tag) in order:
 * the n-th send the sender posted on it is received by the n-th receive the receiver posted
 * that took a message of that channel.  So each channel keeps a FIFO of the ends still
 * without a partner (sends, or receives, never both), and a new end of the other kind pairs
 * with its head: the pair is one message, emitted as EV_MESSAGE.  A channel with nothing
 * waiting is freed, so memory follows the messages in flight, not the trace.
 *
 * Sends are posted in order (blocking sends, MPI_Isend, each MPI_Start of a persistent send,
 * the send side of MPI_Sendrecv).  A receive's channel is known only at its completion (its
 * status gives the source and tag of MPI_ANY_SOURCE/MPI_ANY_TAG), and completions can come
 * out of posting order (MPI_Waitany, MPI_Waitsome, separate waits), so each process keeps its
 * posted receives in posting order, and a completed one joins its channel only when no
 * receive posted before it is still open with a source and tag that could have taken a
 * message of that channel first.  Whatever is held when the data ends is released then.
 *
 * In the parallel analyzer a channel is paired where its receiver is read: a send to a rank
 * another analysis process reads is kept aside, in posting order, and sent there at the end,
 * where it joins its channel after the sends read there, as it would have in the serial
 * analyzer (the n-th send of a channel pairs with its n-th receive, whenever either came). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../../../common/xalloc.h"
#include "../../model/emit.h"
#include "../../model/hangs.h"
#include "../../util/grow.h"
#include "../../parallel/mail.h"
#include "../../parallel/par.h"
#include "../../read/remote.h"
#include "../../util/hpool.h"
#include "../../util/pack.h"
#include "mpi.h"

/* One end of a message, waiting for the other in its channel. */
struct end {
	struct end *next;
	struct thread *thread;          /* sends: the sending call's; receives: the completing
					 * call's */
	int64_t t0, t1;                 /* that call */
	int64_t done, post_t0;          /* receives: completion, and the posting call's entry */
	uint32_t caller;                /* the program's function that made the call (0: not
					 * known) */
	uint32_t post_caller;           /* receives: that of the posting call */
	uint64_t bytes, req;
	int blocking;
};

struct chan {
	struct hpool_item item;         /* by (comm, src, dst, tag) in match.chans */
	uint64_t comm;
	int32_t src, dst, tag;
	int sends;                      /* the queue holds sends (else receives) */
	struct end *head, *tail;
	uint64_t n;
};

/* A receive a process posted and has not yet handed to its channel. */
struct posted {
	uint64_t order;
	uint64_t comm, req;
	int32_t src, tag;               /* as posted: world rank or TPROF_MPI_ANY */
	int done;                       /* completed: asrc, atag and e are known */
	int32_t asrc, atag;
	struct end e;
};

struct rqueue {
	struct posted *v;               /* by order */
	size_t n, cap;
	uint64_t auto_order;
};

/* A send kept for the analysis process that reads its receiver. */
struct away {
	uint64_t comm;
	int32_t src, dst, tag;
	int cancelled;
	struct end e;
};

struct match {
	struct pipeline *pl;
	struct hpool chans;             /* the channels with ends waiting */
	struct end *free_ends;
	struct rqueue *rq;              /* by process index - 1 */
	size_t nrq;
	uint64_t next_id;
	/* the parallel analyzer: sends kept aside, by the analysis process they go to */
	int k, me;
	struct away **away;
	size_t *naway, *capaway;
	struct remotes *remotes;        /* their senders, where they arrive */
};

/* A process holding more posted receives than this drops the oldest open one (a request
 * freed without a completion would otherwise hold every later receive back for good). */
#define HOLD_MAX 65536

struct match *match_new(struct pipeline *pl)
{
	struct match *m = xcalloc(1, sizeof(*m));
	m->pl = pl;
	m->nrq = pl->tr->nprocs;
	m->rq = xcalloc(m->nrq ? m->nrq : 1, sizeof(*m->rq));
	m->k = par_size();
	m->me = par_rank();
	if (m->k > 1) {
		m->away = xcalloc((size_t)m->k, sizeof(*m->away));
		m->naway = xcalloc((size_t)m->k, sizeof(*m->naway));
		m->capaway = xcalloc((size_t)m->k, sizeof(*m->capaway));
		m->remotes = remotes_new();
	}
	return m;
}

/* The analysis process that pairs the sends to rank dst, when it is another. */
static int away_to(const struct match *m, int32_t dst)
{
	if (m->k < 2)
		return -1;
	const struct rank_home *h = trace_rank_home(m->pl->tr, dst);
	return h && h->from != m->me ? h->from : -1;
}

static uint64_t chan_hash(uint64_t comm, int32_t src, int32_t dst, int32_t tag)
{
	uint64_t h = comm * 0x9e3779b97f4a7c15ull;
	h ^= (uint64_t)(uint32_t)src * 0xc2b2ae3d27d4eb4full + (h >> 29);
	h ^= (uint64_t)(uint32_t)dst * 0x165667b19e3779f9ull + (h << 7);
	h ^= (uint64_t)(uint32_t)tag * 0x27d4eb2f165667c5ull;
	return h ^ (h >> 31);
}

static struct chan *chan_find(struct match *m, uint64_t h, uint64_t comm, int32_t src,
			      int32_t dst, int32_t tag)
{
	size_t at;
	for (struct chan *c = hpool_first(&m->chans, h, &at); c; c = hpool_next(&m->chans, h, &at))
		if (c->comm == comm && c->src == src && c->dst == dst && c->tag == tag)
			return c;
	return NULL;
}

/* A channel with nothing waiting any more. */
static void chan_free(struct match *m, struct chan *c)
{
	hpool_remove(&m->chans, &c->item);
	free(c);
}

static struct end *end_new(struct match *m, const struct end *v)
{
	struct end *e = m->free_ends;
	if (e)
		m->free_ends = e->next;
	else
		e = xmalloc(sizeof(*e));
	*e = *v;
	e->next = NULL;
	return e;
}

static void end_free(struct match *m, struct end *e)
{
	e->next = m->free_ends;
	m->free_ends = e;
}

static void message(struct match *m, const struct chan *c, const struct end *s, const struct end *r)
{
	struct trace *tr = m->pl->tr;
	struct message_info mi = {
		.comm = trace_comm(tr, c->comm, c->comm == TPROF_COMM_SELF ? c->dst : 0),
		.comm_id = c->comm, .src = c->src, .dst = c->dst, .tag = c->tag, .bytes = r->bytes,
		.id = ++m->next_id * (uint64_t)par_size() + (uint64_t)par_rank(), .sproc = s->thread->proc, .rproc = r->thread->proc,
		.sthread = s->thread, .rthread = r->thread, .send_t0 = s->t0, .send_t1 = s->t1,
		.recv_t0 = r->t0, .recv_t1 = r->t1, .recv_done = r->done, .post_t0 = r->post_t0,
		.blocking = r->blocking, .send_caller = s->caller, .recv_caller = r->caller,
		.post_caller = r->post_caller,
	};
	tr->mpi.matched++;
	tr->mpi.matched_bytes += r->bytes;
	struct event ev = { .kind = EV_MESSAGE, .proc = r->thread->proc, .thread = r->thread,
			    .t0 = s->t0, .t1 = r->done, .msg = &mi };
	emit_derived(m->pl, &ev);
}

/* An end joins its channel: it pairs with the oldest end of the other kind, or waits. */
static void deliver(struct match *m, uint64_t comm, int32_t src, int32_t dst, int32_t tag,
		    const struct end *v, int is_send)
{
	uint64_t h = chan_hash(comm, src, dst, tag);
	struct chan *c = chan_find(m, h, comm, src, dst, tag);
	if (c && c->head && c->sends != is_send) {
		struct end *o = c->head;
		c->head = o->next;
		c->n--;
		message(m, c, is_send ? v : o, is_send ? o : v);
		end_free(m, o);
		if (!c->head)
			chan_free(m, c);
		return;
	}
	if (!c) {
		c = xcalloc(1, sizeof(*c));
		*c = (struct chan){ .comm = comm, .src = src, .dst = dst, .tag = tag,
				    .sends = is_send };
		hpool_add(&m->chans, &c->item, h);
	}
	struct end *e = end_new(m, v);
	if (c->tail && c->head)
		c->tail->next = e;
	else
		c->head = e;
	c->tail = e;
	c->n++;
}

void match_send(struct match *m, const struct mpi_where *w, uint64_t comm, int32_t src,
		int32_t dst, int32_t tag, uint64_t bytes, uint64_t req)
{
	struct end v = { .thread = w->thread, .t0 = w->t0, .t1 = w->t1, .done = w->t1,
			 .post_t0 = w->t0, .bytes = bytes, .req = req, .caller = w->caller,
			 .post_caller = w->caller };
	m->pl->tr->mpi.sends++;
	int to = away_to(m, dst);
	if (to < 0) {
		deliver(m, comm, src, dst, tag, &v, 1);
		return;
	}
	m->away[to] = util_grow(m->away[to], &m->capaway[to], m->naway[to], sizeof(**m->away), 64);
	m->away[to][m->naway[to]++] = (struct away){ comm, src, dst, tag, 0, v };
}

/* A send kept aside, cancelled while waiting to be sent (whether its receive had already
 * taken it is known only where that is read: it is taken as not). */
static void away_cancelled(struct match *m, int to, const struct proc *p, uint64_t req)
{
	for (size_t i = m->naway[to]; i-- > 0;) {
		struct away *a = &m->away[to][i];
		if (!a->cancelled && a->e.thread->proc == p && a->e.req == req) {
			a->cancelled = 1;
			m->pl->tr->mpi.sends--;
			return;
		}
	}
}

void match_send_cancelled(struct match *m, struct proc *p, uint64_t comm, int32_t src,
			  int32_t dst, int32_t tag, uint64_t req)
{
	m->pl->tr->mpi.cancelled++;
	int to = away_to(m, dst);
	if (to >= 0) {
		away_cancelled(m, to, p, req);
		return;
	}
	struct chan *c = chan_find(m, chan_hash(comm, src, dst, tag), comm, src, dst, tag);
	if (!c || !c->sends)
		return;
	for (struct end **pe = &c->head, *prev = NULL; *pe; prev = *pe, pe = &(*pe)->next) {
		struct end *e = *pe;
		if (e->thread->proc != p || e->req != req)
			continue;
		*pe = e->next;
		if (c->tail == e)
			c->tail = prev;
		c->n--;
		end_free(m, e);
		m->pl->tr->mpi.sends--;
		if (!c->head)
			chan_free(m, c);
		return;
	}
}

static struct rqueue *rqueue_of(struct match *m, const struct proc *p)
{
	size_t i = p->index > 0 ? (size_t)p->index - 1 : 0;
	if (i >= m->nrq) {
		size_t n = i + 1;
		m->rq = xreallocarray(m->rq, n, sizeof(*m->rq));
		memset(m->rq + m->nrq, 0, (n - m->nrq) * sizeof(*m->rq));
		m->nrq = n;
	}
	return &m->rq[i];
}

/* The posted receive with this order, or where it would go (*at). */
static struct posted *find_order(struct rqueue *q, uint64_t order, size_t *at)
{
	size_t i = q->n;
	while (i > 0 && q->v[i - 1].order > order)
		i--;
	*at = i;
	return i > 0 && q->v[i - 1].order == order ? &q->v[i - 1] : NULL;
}

static struct posted *insert(struct rqueue *q, size_t at)
{
	q->v = util_grow(q->v, &q->cap, q->n, sizeof(*q->v), 16);
	memmove(q->v + at + 1, q->v + at, (q->n - at) * sizeof(*q->v));
	q->n++;
	memset(&q->v[at], 0, sizeof(q->v[at]));
	return &q->v[at];
}

static void drop(struct rqueue *q, size_t i)
{
	memmove(q->v + i, q->v + i + 1, (q->n - i - 1) * sizeof(*q->v));
	q->n--;
}

/* Could the open receive e have taken a message of channel (comm, src, tag)? */
static int could_take(const struct posted *e, uint64_t comm, int32_t src, int32_t tag)
{
	if (e->comm != comm)
		return 0;
	if (e->src != TPROF_MPI_ANY && e->src >= 0 && e->src != src)
		return 0;
	if (e->tag != TPROF_MPI_ANY && e->tag != tag)
		return 0;
	return 1;
}

static void release(struct match *m, const struct proc *p, struct posted *r)
{
	m->pl->tr->mpi.recvs++;
	deliver(m, r->comm, r->asrc, (int32_t)p->rank, r->atag, &r->e, 0);
}

/* Hands every completed receive that nothing posted before it can precede to its channel. */
static void deliver_ready(struct match *m, const struct proc *p, struct rqueue *q, int all)
{
	size_t i = 0;
	while (i < q->n) {
		struct posted *r = &q->v[i];
		int held = 0;
		if (!r->done) {
			i++;
			continue;
		}
		for (size_t j = 0; j < i && !all && !held; j++) {
			const struct posted *e = &q->v[j];
			held = e->done ? e->comm == r->comm && e->asrc == r->asrc && e->atag == r->atag
				       : could_take(e, r->comm, r->asrc, r->atag);
		}
		if (held) {
			i++;
			continue;
		}
		release(m, p, r);
		drop(q, i);
	}
}

uint64_t match_recv_post(struct match *m, struct proc *p, uint64_t order, uint64_t comm,
			 int32_t src, int32_t tag, int64_t post_t0, uint32_t caller, uint64_t req)
{
	struct rqueue *q = rqueue_of(m, p);
	if (!order)
		order = ++q->auto_order;
	size_t at;
	struct posted *e = find_order(q, order, &at);
	if (e) {
		/* Its completion came first, or a matched probe posted it (whose entry stays
		 * its post): either way the same receive. */
		if (e->done) {
			e->e.post_t0 = post_t0;
			e->e.post_caller = caller;
		}
		if (req)
			e->req = req;
		return order;
	}
	if (q->n >= HOLD_MAX) {
		/* The oldest receive still open is given up on. */
		for (size_t i = 0; i < q->n; i++)
			if (!q->v[i].done) {
				drop(q, i);
				m->pl->tr->mpi.never_completed++;
				break;
			}
		deliver_ready(m, p, q, 0);
		find_order(q, order, &at);
	}
	e = insert(q, at);
	e->order = order;
	e->comm = comm;
	e->src = src;
	e->tag = tag;
	e->req = req;
	e->e.post_t0 = post_t0;
	e->e.post_caller = caller;
	return order;
}

void match_recv_done(struct match *m, const struct mpi_where *w, uint64_t order, uint64_t req,
		     uint64_t comm, int32_t src, int32_t tag, uint64_t bytes, int64_t done,
		     int blocking, int nomsg)
{
	struct proc *p = w->thread->proc;
	struct rqueue *q = rqueue_of(m, p);
	struct posted *e = NULL;
	size_t at = q->n;
	if (order) {
		e = find_order(q, order, &at);
	} else {
		for (size_t i = 0; i < q->n && !e; i++)
			if (!q->v[i].done && q->v[i].req == req)
				e = &q->v[at = i];
	}
	if (nomsg) {
		if (nomsg == MATCH_CANCELLED)
			m->pl->tr->mpi.cancelled++;
		else
			m->pl->tr->mpi.proc_null++;
		if (e) {
			drop(q, (size_t)(e - q->v));
			deliver_ready(m, p, q, 0);
		}
		return;
	}
	if (!e) {
		/* Its post was not recorded: it goes where its order puts it. */
		if (!order)
			order = ++q->auto_order;
		find_order(q, order, &at);
		e = insert(q, at);
		e->order = order;
		e->comm = comm;
		e->src = src;
		e->tag = tag;
		e->e.post_t0 = w->t0;
		e->e.post_caller = w->caller;
	}
	if (e->done)
		return;   /* completed twice: the first stands */
	e->done = 1;
	e->comm = comm;
	e->asrc = src;
	e->atag = tag;
	e->e.thread = w->thread;
	e->e.caller = w->caller;
	e->e.t0 = w->t0;
	e->e.t1 = w->t1;
	e->e.done = done;
	e->e.bytes = bytes;
	e->e.req = req;
	e->e.blocking = blocking;
	deliver_ready(m, p, q, 0);
}

static void comm_label(const struct trace *tr, uint64_t id, int32_t rank, char *buf, size_t len)
{
	const struct mpi_comm *c = trace_comm(tr, id, rank);
	if (id == TPROF_COMM_WORLD)
		snprintf(buf, len, "MPI_COMM_WORLD");
	else if (id == TPROF_COMM_SELF)
		snprintf(buf, len, "MPI_COMM_SELF");
	else if (c && c->name)
		snprintf(buf, len, "%s", strings_get(c->name));
	else
		snprintf(buf, len, "0x%" PRIx64, id);
}

/* The sends kept aside go where their receivers are read, and those that came here join their
 * channels, after every send read here (collective: every analysis process calls it). */
static void away_exchange(struct match *m)
{
	struct mail *mail = mail_new();
	for (int to = 0; to < m->k; to++) {
		struct pack *b = &mail->to[to];
		for (size_t i = 0; i < m->naway[to]; i++) {
			const struct away *a = &m->away[to][i];
			if (a->cancelled)
				continue;
			pack_u64(b, a->comm);
			pack_i64(b, a->src);
			pack_i64(b, a->dst);
			pack_i64(b, a->tag);
			pack_i64(b, a->e.thread->proc->index);
			pack_i64(b, a->e.thread->tid);
			pack_i64(b, a->e.t0);
			pack_i64(b, a->e.t1);
			pack_u64(b, a->e.bytes);
			pack_u64(b, a->e.req);
			pack_name(b, a->e.caller);
		}
		free(m->away[to]);
	}
	mail_exchange(mail);
	for (struct unpack u = mail_all(mail); unpack_more(&u);) {
		uint64_t comm = unpack_u64(&u);
		int32_t src = (int32_t)unpack_i64(&u), dst = (int32_t)unpack_i64(&u);
		int32_t tag = (int32_t)unpack_i64(&u);
		int64_t index = unpack_i64(&u), tid = unpack_i64(&u);
		struct end v = { 0 };
		v.t0 = v.post_t0 = unpack_i64(&u);
		v.t1 = v.done = unpack_i64(&u);
		v.bytes = unpack_u64(&u);
		v.req = unpack_u64(&u);
		v.caller = v.post_caller = unpack_name(&u);
		if (u.short_read)
			break;
		v.thread = remote_thread(m->remotes, index, src, (int32_t)tid);
		deliver(m, comm, src, dst, tag, &v, 1);
	}
	mail_free(mail);
	free(m->away);
	free(m->naway);
	free(m->capaway);
}

/* What the hang analysis hears of an end without its other end (model/hangs.h). */
static void hang_end(const struct match *m, uint8_t kind, struct proc *p, const struct end *e,
		     uint64_t comm, int32_t peer, int32_t tag)
{
	const struct hang_sink *s = m->pl->hangs;
	char label[128];
	comm_label(m->pl->tr, comm, p ? (int32_t)p->rank : -1, label, sizeof(label));
	struct hang_p2p h = { .kind = kind, .proc = p, .peer = peer >= 0 ? peer : -1,
			      .tag = tag >= 0 ? tag : -1, .comm = comm,
			      .comm_name = strings_add(label, strlen(label)),
			      .bytes = e->bytes, .name = 0 };
	if (kind == HANG_SEND) {
		h.thread = e->thread;
		h.caller = e->caller;
		h.t0 = e->t0;
	} else {
		h.caller = e->post_caller;
		h.t0 = e->post_t0;
	}
	if (p)
		s->p2p(s->ctx, &h);
}

void match_finish(struct match *m)
{
	struct trace *tr = m->pl->tr;
	if (m->k > 1)
		away_exchange(m);
	for (size_t i = 0; i < m->nrq; i++) {
		struct rqueue *q = &m->rq[i];
		struct proc *p = (struct proc *)trace_proc_at(tr, (int64_t)i + 1);
		for (size_t k = 0; k < q->n; k++) {
			tr->mpi.never_completed += !q->v[k].done;
			if (!q->v[k].done && m->pl->hangs)
				hang_end(m, HANG_RECV, p, &q->v[k].e, q->v[k].comm, q->v[k].src,
					 q->v[k].tag);
		}
		if (p)
			deliver_ready(m, p, q, 1);
		free(q->v);
	}
	free(m->rq);
	for (size_t i = 0; i < m->chans.n; i++) {
		struct chan *c = (struct chan *)m->chans.v[i];
		char comm[128];
		comm_label(tr, c->comm, c->dst, comm, sizeof(comm));
		if (c->sends)
			tr->mpi.unmatched_sends += c->n;
		else
			tr->mpi.unmatched_recvs += c->n;
		diag_note("unmatched: %" PRIu64 " %s from rank %d to rank %d, tag %d, on %s", c->n,
			  c->sends ? (c->n == 1 ? "send" : "sends") : (c->n == 1 ? "receive" : "receives"),
			  c->src, c->dst, c->tag, comm);
		for (struct end *e = c->head, *en; e; e = en) {
			en = e->next;
			if (c->sends && m->pl->hangs && e->thread)
				hang_end(m, HANG_SEND, e->thread->proc, e, c->comm, c->dst, c->tag);
			free(e);
		}
		free(c);
	}
	hpool_free(&m->chans);
	for (struct end *e = m->free_ends, *en; e; e = en) {
		en = e->next;
		free(e);
	}
	if (m->remotes)
		remotes_free(m->remotes);
	free(m);
}
