/* runtimes/mpi/pipe.c — routes the MPI calls and requests the pipeline decodes to message
 * matching, collective grouping and one-sided communication (rma.c): which call posts a send
 * or a receive, which completes one, which enters or leaves a collective, which moves data
 * or ends an epoch on a window.  Requests (MPIREQ) belong to the call their thread made last
 * (the one with their correlation id), which is the call that started or completed them. */
#include <stdlib.h>
#include <string.h>

#include "../../../common/xalloc.h"
#include "../../model/runtime.h"
#include "../../parallel/par.h"
#include "mpi.h"

struct mpi_state {
	struct match *match;
	struct colls *colls;
	struct rmas *rmas;
};

/* This runtime's state in the pipeline. */
static struct mpi_state **slot(struct pipeline *pl)
{
	return (struct mpi_state **)pipeline_state(pl, &runtime_mpi);
}

static struct mpi_state *state(struct pipeline *pl)
{
	struct mpi_state **s = slot(pl);
	if (!*s) {
		*s = xcalloc(1, sizeof(**s));
		(*s)->match = match_new(pl);
		(*s)->colls = colls_new(pl);
		(*s)->rmas = rmas_new(pl);
	}
	return *s;
}

/* 0 for a message; MATCH_PROC_NULL or MATCH_CANCELLED when there is none. */
static int no_message(const struct tprof_mpi_args *a, int32_t peer)
{
	if (a->flags & TPROF_MPIF_CANCELLED)
		return MATCH_CANCELLED;
	if ((a->flags & TPROF_MPIF_PROC_NULL) || peer == TPROF_MPI_PROCNULL ||
	    a->peer == TPROF_MPI_PROCNULL)
		return MATCH_PROC_NULL;
	return 0;
}

static void count_none(struct pipeline *pl, int why)
{
	if (why == MATCH_CANCELLED)
		pl->tr->mpi.cancelled++;
	else
		pl->tr->mpi.proc_null++;
}

static int32_t my_rank(const struct thread *t)
{
	return (int32_t)t->proc->rank;
}

void mpi_call(struct pipeline *pl, struct thread *t, uint32_t name, const struct mpi_info *mi,
	      int64_t t0, int64_t t1, uint64_t corr, uint32_t caller, unsigned flags)
{
	t->mpi_call = (struct mpi_last_call){ corr, t0, t1, name, caller };
	const struct tprof_mpi_args *a = &mi->a;
	struct mpi_where w = { t, t0, t1, caller };
	int done = !(flags & EVF_UNFINISHED);   /* it returned: what it received is known */
	struct mpi_state *s;
	uint64_t order;
	if (done)
		rmas_seen(state(pl)->rmas, &w);
	switch (a->op) {
	case TPROF_MPI_SEND:
		if (!no_message(a, mi->peer_world))
			match_send(state(pl)->match, &w, a->comm, my_rank(t), mi->peer_world, a->tag,
				   a->bytes, 0);
		else
			count_none(pl, no_message(a, mi->peer_world));
		break;
	case TPROF_MPI_ISEND:
		if (a->flags & TPROF_MPIF_PERSISTENT)
			break;   /* MPI_Send_init: each MPI_Start posts it */
		if (!no_message(a, mi->peer_world))
			match_send(state(pl)->match, &w, a->comm, my_rank(t), mi->peer_world, a->tag,
				   a->bytes, mi->has_b ? mi->b.req : 0);
		else
			count_none(pl, no_message(a, mi->peer_world));
		break;
	case TPROF_MPI_RECV:
		if (!done)
			break;
		s = state(pl);
		order = match_recv_post(s->match, t->proc, a->seq, a->comm, mi->peer_world, a->tag, t0,
					caller, 0);
		match_recv_done(s->match, &w, order, 0, a->comm, mi->peer_world, a->tag, a->bytes, t1,
				1, no_message(a, mi->peer_world));
		break;
	case TPROF_MPI_SENDRECV:
		s = state(pl);
		if (!no_message(a, mi->peer_world))
			match_send(s->match, &w, a->comm, my_rank(t), mi->peer_world, a->tag, a->bytes, 0);
		else
			count_none(pl, no_message(a, mi->peer_world));
		if (!done || !mi->has_b)
			break;
		order = match_recv_post(s->match, t->proc, mi->b.seq, a->comm, mi->peer2_world, mi->b.tag,
					t0, caller, 0);
		match_recv_done(s->match, &w, order, 0, a->comm, mi->peer2_world, mi->b.tag,
				mi->b.bytes, t1, 1,
				mi->peer2_world == TPROF_MPI_PROCNULL || mi->b.peer == TPROF_MPI_PROCNULL
					? MATCH_PROC_NULL : 0);
		break;
	case TPROF_MPI_IRECV:
		if (a->flags & TPROF_MPIF_PERSISTENT)
			break;   /* MPI_Recv_init */
		if (no_message(a, mi->peer_world))
			break;   /* counted at its completion */
		match_recv_post(state(pl)->match, t->proc, a->seq, a->comm, mi->peer_world, a->tag, t0,
				caller, mi->has_b ? mi->b.req : 0);
		break;
	case TPROF_MPI_PROBE:
		/* A matched probe (MPI_Mprobe, MPI_Improbe) took its message and its receive
		 * number; MPI_Mrecv or MPI_Imrecv completes that receive later. */
		if (done && a->seq && !no_message(a, mi->peer_world))
			match_recv_post(state(pl)->match, t->proc, a->seq, a->comm, mi->peer_world, a->tag,
					t0, caller, 0);
		break;
	case TPROF_MPI_COLL:
		if (done)
			colls_blocking(state(pl)->colls, &w, name, mi);
		break;
	case TPROF_MPI_ICOLL:
		colls_post(state(pl)->colls, &w, name, mi);
		break;
	case TPROF_MPI_RMA:
		if (done)
			rmas_call(state(pl)->rmas, &w, name, mi);
		break;
	default:
		break;
	}
}

/* What a request is: its recorded op, or failing that the name of the call that made it. */
int mpi_req_op(const struct mpi_info *mi, uint32_t name)
{
	switch (mi->a.op) {
	case TPROF_MPI_ISEND:
	case TPROF_MPI_IRECV:
	case TPROF_MPI_ICOLL:
		return mi->a.op;
	case TPROF_MPI_SEND:
		return TPROF_MPI_ISEND;
	case TPROF_MPI_RECV:
		return TPROF_MPI_IRECV;
	case TPROF_MPI_COLL:
		return TPROF_MPI_ICOLL;
	case TPROF_MPI_IO:
	case TPROF_MPI_RMA:
		return TPROF_MPI_OTHER;   /* MPI_File_iread, MPI_Rput: no message, no collective */
	default:
		break;
	}
	const char *n = strings_get(name);
	if (!strncmp(n, "MPI_", 4))
		n += 4;
	static const char *const recvs[] = { "Irecv", "Imrecv", "Recv_init" };
	static const char *const sends[] = { "Isend", "Issend", "Ibsend", "Irsend", "Send_init",
					     "Ssend_init", "Bsend_init", "Rsend_init" };
	for (size_t i = 0; i < sizeof(recvs) / sizeof(*recvs); i++)
		if (!strcmp(n, recvs[i]))
			return TPROF_MPI_IRECV;
	for (size_t i = 0; i < sizeof(sends) / sizeof(*sends); i++)
		if (!strcmp(n, sends[i]))
			return TPROF_MPI_ISEND;
	if (n[0] == 'I')
		return TPROF_MPI_ICOLL;   /* Ibcast, Iallreduce, Ibarrier... */
	return TPROF_MPI_OTHER;
}

void mpi_req(struct pipeline *pl, struct thread *t, uint32_t name, const struct mpi_info *mi,
	     int64_t at, uint64_t corr)
{
	const struct mpi_last_call *lc = &t->mpi_call;
	/* The call it happened in; when that call was not seen, the request's own instant. */
	struct mpi_where w = { t, at, at, 0 };
	if (corr && lc->corr == corr)
		w = (struct mpi_where){ t, lc->t0, lc->t1, lc->caller };
	const struct tprof_mpi_args *a = &mi->a;
	uint64_t req = mi->has_b ? mi->b.req : 0;
	int op = mpi_req_op(mi, name);
	struct mpi_state *s = state(pl);
	if (a->flags & TPROF_MPIF_STARTED) {
		/* A persistent request started: a send or a receive posted by MPI_Start. */
		if (op == TPROF_MPI_ISEND) {
			if (!no_message(a, mi->peer_world))
				match_send(s->match, &w, a->comm, my_rank(t), mi->peer_world, a->tag,
					   a->bytes, req);
			else
				count_none(pl, no_message(a, mi->peer_world));
		} else if (op == TPROF_MPI_IRECV) {
			if (!no_message(a, mi->peer_world))
				match_recv_post(s->match, t->proc, a->seq, a->comm, mi->peer_world, a->tag,
						w.t0, w.caller, req);
			else
				count_none(pl, no_message(a, mi->peer_world));
		} else if (op == TPROF_MPI_ICOLL) {
			colls_post(s->colls, &w, name, mi);   /* a persistent collective */
		}
		return;
	}
	switch (op) {
	case TPROF_MPI_ISEND:
		if (a->flags & TPROF_MPIF_CANCELLED)
			match_send_cancelled(s->match, t->proc, a->comm, my_rank(t), mi->peer_world,
					     a->tag, req);
		break;
	case TPROF_MPI_IRECV:
		match_recv_done(s->match, &w, a->seq, req, a->comm, mi->peer_world, a->tag, a->bytes, at,
				0, no_message(a, mi->peer_world));
		break;
	case TPROF_MPI_ICOLL:
		colls_done(s->colls, &w, name, mi, at);
		break;
	default:
		break;
	}
}

void mpi_finish(struct pipeline *pl)
{
	/* the parallel analyzer's processes exchange what crosses them: each takes part */
	struct mpi_state *s = par_size() > 1 ? state(pl) : *slot(pl);
	if (!s)
		return;
	match_finish(s->match);
	colls_finish(s->colls);
	rmas_finish(s->rmas);
	free(s);
	*slot(pl) = NULL;
}
