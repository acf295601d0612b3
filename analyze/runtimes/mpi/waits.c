/* runtimes/mpi/waits.c — MPI's wait states (model/waits.h), for the diagnosis: a matched
 * message whose receive waited for its send (late sender: a blocking receive, or the wait
 * call that completed a nonblocking one) or whose blocking send could not return before its
 * receive was posted (late receiver); a collective whose members waited for the last to
 * enter (N x N, barrier), for the root (one to all: late broadcast), or whose root waited for
 * the last member (all to one: early reduce).  Each wait is a span of the waiting process;
 * the one who came late gets the delay: from when the last of those it made wait began
 * waiting until it came. */
#include <string.h>

#include "../../model/waits.h"
#include "mpi.h"

static void span(const struct wait_sink *s, uint8_t kind, struct proc *p, int64_t t0,
		 int64_t t1, uint32_t site, uint32_t caller, uint64_t comm, uint32_t seq,
		 int32_t cause)
{
	if (t1 <= t0 || !p)
		return;
	struct wait_span w = { .kind = kind, .proc = p, .t0 = t0, .t1 = t1, .site = site,
			       .caller = caller, .comm = comm, .seq = seq, .cause_rank = cause };
	s->span(s->ctx, &w);
}

static void message(const struct message_info *mi, const struct wait_sink *s)
{
	/* Late sender: the call the receive completed in waited from its entry (a blocking
	 * receive's: from when it was posted) until the send began, not past its own return. */
	int64_t from = mi->blocking ? mi->post_t0 : mi->recv_t0;
	int64_t until = mi->send_t0 < mi->recv_t1 ? mi->send_t0 : mi->recv_t1;
	if (until > from) {
		span(s, WAIT_LATE_SENDER, mi->rproc, from, until, 0, mi->recv_caller, mi->comm_id,
		     0, mi->sproc ? (int32_t)mi->sproc->rank : -1);
		struct wait_delay d = { .kind = WAIT_LATE_SENDER, .late = mi->sproc, .t0 = from,
					.t1 = until, .caller = mi->send_caller,
					.comm = mi->comm_id, .waiters = 1, .waited = until - from };
		if (d.late)
			s->delay(s->ctx, &d);
	}
	/* Late receiver: a send that returned only after the receive was posted waited for it
	 * from its entry (a send that returned before, eagerly, did not wait). */
	if (mi->post_t0 > mi->send_t0 && mi->send_t1 > mi->post_t0) {
		span(s, WAIT_LATE_RECEIVER, mi->sproc, mi->send_t0, mi->post_t0, 0, mi->send_caller,
		     mi->comm_id, 0, mi->rproc ? (int32_t)mi->rproc->rank : -1);
		struct wait_delay d = { .kind = WAIT_LATE_RECEIVER, .late = mi->rproc,
					.t0 = mi->send_t0, .t1 = mi->post_t0,
					.caller = mi->post_caller, .comm = mi->comm_id,
					.waiters = 1, .waited = mi->post_t0 - mi->send_t0 };
		if (d.late)
			s->delay(s->ctx, &d);
	}
}

/* Who the members wait for: the last to enter, or (one to all) the root. */
static uint8_t coll_kind(const struct coll_info *ci, int *by_root, int *root_waits)
{
	*by_root = *root_waits = 0;
	switch (mpi_coll_of(strings_get(ci->name))) {
	case MPC_BARRIER:
		return WAIT_BARRIER;
	case MPC_BCAST: case MPC_SCATTER: case MPC_SCATTERV:
		*by_root = ci->root_world >= 0;
		return *by_root ? WAIT_LATE_BROADCAST : WAIT_NXN;
	case MPC_GATHER: case MPC_GATHERV: case MPC_REDUCE:
		*root_waits = ci->root_world >= 0;
		return *root_waits ? WAIT_EARLY_REDUCE : WAIT_NXN;
	default:
		return WAIT_NXN;
	}
}

static void collective(const struct coll_info *ci, const struct wait_sink *s)
{
	if (ci->nm < 2)
		return;
	int by_root, root_waits;
	uint8_t kind = coll_kind(ci, &by_root, &root_waits);
	/* The one waited for: the root, or the last to enter (of the members but the root, when
	 * only the root waits). */
	const struct coll_member *late = NULL;
	for (uint32_t i = 0; i < ci->nm; i++) {
		const struct coll_member *m = &ci->m[i];
		int is_root = m->world == ci->root_world;
		if (by_root ? is_root : !(root_waits && is_root) && (!late || m->t0 > late->t0))
			late = m;
	}
	if (!late)
		return;
	struct wait_delay d = { .kind = kind, .late = late->proc, .t0 = INT64_MIN,
				.t1 = late->t0, .site = ci->name, .caller = late->caller,
				.comm = ci->comm_id,
				.seq = ci->seq };
	for (uint32_t i = 0; i < ci->nm; i++) {
		const struct coll_member *m = &ci->m[i];
		if (m == late || (root_waits && m->world != ci->root_world) || m->t0 >= late->t0)
			continue;
		int64_t until = late->t0 < m->t1 ? late->t0 : m->t1;
		if (until <= m->t0)
			continue;
		span(s, kind, m->proc, m->t0, until, m->name, m->caller, ci->comm_id, ci->seq,
		     late->world);
		d.waiters++;
		d.waited += until - m->t0;
		if (m->t0 > d.t0)
			d.t0 = m->t0;
	}
	if (d.waiters && d.late)
		s->delay(s->ctx, &d);
}

void mpi_waits(const struct event *ev, const struct wait_sink *s)
{
	if (ev->kind == EV_MESSAGE)
		message(ev->msg, s);
	else if (ev->kind == EV_COLLECTIVE && !(ev->flags & EVF_INCOMPLETE))
		collective(ev->coll, s);
}
