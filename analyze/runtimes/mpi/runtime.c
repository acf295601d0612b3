/* runtimes/mpi/runtime.c — MPI in the registry: its calls' and requests' extension units
 * decoded (ranks made world ranks through the communicators of the COMM records), described
 * as message passing (msgpass.c) and handed to message matching and collective grouping
 * (pipe.c); its scene part is scene.c. */
#include <string.h>

#include "../../model/emit.h"
#include "../registry.h"
#include "mpi.h"
#include "summary.h"

/* A rank of the call's communicator as a world rank; MPI_COMM_WORLD and MPI_COMM_SELF need
 * no COMM record for that. */
static int32_t world_rank(const struct proc *p, const struct mpi_info *mi, int32_t rank, int remote)
{
	if (!mi->comm && rank >= 0) {
		if (mi->a.comm == TPROF_COMM_WORLD)
			return rank;
		if (mi->a.comm == TPROF_COMM_SELF)
			return rank == 0 ? (int32_t)p->rank : TPROF_MPI_NONE;
	}
	return mpi_comm_world_rank(mi->comm, rank, remote);
}

/* The MPI side of a call or request from its extension units: ranks made world ranks. */
static void mpi_decode(const struct trace *tr, const struct proc *p, const uint8_t *ext,
		       unsigned next, struct mpi_info *mi)
{
	memset(mi, 0, sizeof(*mi));
	mi->peer_world = mi->peer2_world = TPROF_MPI_NONE;
	if (next < 1)
		return;
	memcpy(&mi->a, ext, sizeof(mi->a));
	if (next >= 2) {
		memcpy(&mi->b, ext + TPROF_UNIT, sizeof(mi->b));
		mi->has_b = 1;
	}
	mi->comm = mi->a.comm ? trace_comm(tr, mi->a.comm, (int32_t)p->rank) : NULL;
	/* The peer of a point-to-point call on an inter-communicator is in the remote group;
	 * a collective's root is given in the local group's numbering here. */
	int remote = mi->a.op != TPROF_MPI_COLL && mi->a.op != TPROF_MPI_ICOLL;
	mi->peer_world = world_rank(p, mi, mi->a.peer, remote);
	if (mi->has_b && mi->a.op == TPROF_MPI_SENDRECV)
		mi->peer2_world = world_rank(p, mi, mi->b.peer, 1);
	/* a file's name, a group's ranks: the trace's string id, as every other name in the
	 * model */
	mi->b.file = mi->has_b && (mi->a.op == TPROF_MPI_IO || mi->a.op == TPROF_MPI_RMA)
			     ? proc_string(p, mi->b.file) : 0;
}


/* A nonblocking MPI operation completed (or a persistent one started) inside a call. */
static void on_mpireq(struct pipeline *pl, struct thread *t, const struct tprof_rec *r, int64_t ns)
{
	struct mpi_info mi;
	mpi_decode(pl->tr, t->proc, (const uint8_t *)(r + 1), r->ext < 2 ? r->ext : 2, &mi);
	mi.a.flags |= r->flags;   /* the record's own flags (started, cancelled) count too */
	struct event ev = { .kind = EV_MPIREQ, .flags = 0, .proc = t->proc, .thread = t,
			    .name = proc_string(t->proc, r->name), .t0 = ns - pl->tr->start_ns,
			    .t1 = ns - pl->tr->start_ns, .info = &mi };
	mpi_req(pl, t, ev.name, &mi, ev.t0, r->arg & TPROF_CORR_MASK);
	emit_event(pl, &ev);
}

static void pipe_call(struct pipeline *pl, struct event *ev, struct call_info *ci,
		      const uint8_t *ext, unsigned next, void *scratch)
{
	_Static_assert(sizeof(struct mpi_info) <= RT_SCRATCH, "mpi_info fits the scratch");
	struct mpi_info *mi = scratch;
	mpi_decode(pl->tr, ev->proc, ext, next, mi);
	ci->info = mi;
	mpi_call(pl, ev->thread, ev->name, mi, ev->t0, ev->t1, ci->corr, ci->caller, ev->flags);
}

/* Its calls and requests as the model's message-passing facts (msgpass.c). */
static int msgpass(const struct event *ev, struct msgpass *mp)
{
	const struct mpi_info *mi = mpi_info_of(ev);
	if (!mi)
		return 0;
	if (ev->kind == EV_CALL)
		return mpi_msgpass_call(mi, ev->name, mp);
	if (ev->kind == EV_MPIREQ)
		return mpi_msgpass_req(mi, ev->name, mp);
	return 0;
}

static void *sum_new(void)
{
	return mpisum_new();
}

static void sum_event(void *priv, const struct event *ev)
{
	mpisum_event(priv, ev);
}

static void sum_end(void *priv, struct sumw *w, const struct sum_span *span, int top)
{
	mpisum_end(priv, w, span, top);
}

static void sum_pack(void *priv, const struct sum_span *span, struct pack *b)
{
	mpisum_pack(priv, span, b);
}

static void sum_merge(void *priv, const struct sum_span *span, struct unpack *u)
{
	mpisum_merge(priv, span, u);
}

const struct runtime runtime_mpi = {
	.name = "mpi",
	.domain = TPROF_DOM_MPI,
	.pipe_call = pipe_call,
	.records = 1ull << TPROF_K_MPIREQ,
	.pipe_record = on_mpireq,
	.pipe_finish = mpi_finish,
	.call_args = mpi_scene_call_args,
	.events = RT_KIND(EV_MESSAGE) | RT_KIND(EV_COLLECTIVE) | RT_KIND(EV_RMA),
	.scene_event = mpi_scene_event,
	.msgpass = msgpass,
	.sum_new = sum_new,
	.sum_events = RT_KIND(EV_CALL) | RT_KIND(EV_MPIREQ) | RT_KIND(EV_MESSAGE) |
		      RT_KIND(EV_COLLECTIVE),
	.sum_own_calls = 1,
	.sum_event = sum_event,
	.sum_at = SUM_AT_DOMAIN,
	.sum_end = sum_end,
	.sum_pack = sum_pack,
	.sum_merge = sum_merge,
	.communication = 1,
	.wait_events = RT_KIND(EV_MESSAGE) | RT_KIND(EV_COLLECTIVE),
	.waits = mpi_waits,
	.transfer_events = RT_KIND(EV_MESSAGE),
	.transfers = mpi_transfers,
	.hang_events = RT_KIND(EV_CALL) | RT_KIND(EV_COLLECTIVE),
	.hangs = mpi_hangs,
};
