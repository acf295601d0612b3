/* runtimes/mpi/hangs.c — what MPI says of a job's hang (model/hangs.h): each collective as
 * its members ran it (EV_COLLECTIVE), a blocking collective, receive or send still in progress
 * where the data ends (an unfinished MPI call), and, from the message matching at its end
 * (match.c), the receives posted and never completed and the sends nobody received, and from
 * the collectives' (coll.c) the nonblocking collectives posted and never completed.  An
 * all-to-all collective's members must contribute alike, so their bytes are compared; a
 * rooted or vector one's are not. */
#include <string.h>

#include "../../model/hangs.h"
#include "mpi.h"

/* Whether every member of collective c sends the same bytes when the program is right. */
static int sizes_alike(uint8_t c)
{
	return c == MPC_ALLREDUCE || c == MPC_ALLGATHER || c == MPC_ALLTOALL ||
	       c == MPC_REDUCE_SCATTER_BLOCK || c == MPC_SCAN || c == MPC_EXSCAN;
}

static uint32_t comm_name(uint64_t id, const struct mpi_comm *c)
{
	if (id == TPROF_COMM_WORLD)
		return strings_add("MPI_COMM_WORLD", 14);
	if (id == TPROF_COMM_SELF)
		return strings_add("MPI_COMM_SELF", 13);
	return c ? c->name : 0;
}

/* What the hang analysis needs to name a member it never saw: the world rank of each rank. */
static void comm_ranks(struct hang_coll *hc, const struct mpi_comm *c)
{
	if (!c)
		return;
	hc->ranks_are_world = c->kind == TPROF_COMMK_WORLD;
	if (c->known >= c->size && c->members) {
		hc->world = c->members;
		hc->nworld = c->size;
	}
}

/* The rank of world rank w in communicator c, -1 when not known. */
static int32_t rank_in(const struct mpi_comm *c, int64_t w)
{
	if (c && c->kind == TPROF_COMMK_WORLD)
		return (int32_t)w;
	for (uint32_t i = 0; c && i < c->known && i < c->size; i++)
		if (c->members[i] == w)
			return (int32_t)i;
	return -1;
}

#define MEMBERS_AT_ONCE 256     /* members handed over per part */

static void collective(const struct event *ev, const struct hang_sink *s)
{
	const struct coll_info *ci = ev->coll;
	struct hang_member m[MEMBERS_AT_ONCE];
	int incomplete = (ev->flags & EVF_INCOMPLETE) != 0;
	int alike = sizes_alike(mpi_coll_of(strings_get(ci->name)));
	struct hang_coll hc = { .comm = ci->comm_id, .comm_name = comm_name(ci->comm_id, ci->comm),
				.seq = ci->seq, .size = ci->members, .m = m };
	comm_ranks(&hc, ci->comm);
	for (uint32_t i = 0; i < ci->nm; i++) {
		const struct coll_member *cm = &ci->m[i];
		m[hc.nm++] = (struct hang_member){
			.proc = cm->proc, .thread = cm->thread,
			.rank = incomplete ? rank_in(ci->comm, cm->world) : -1,
			.name = cm->name, .caller = cm->caller,
			.size = alike ? cm->bytes_sent : 0, .unit = "bytes",
			.t0 = cm->t0, .t1 = cm->t1 };
		if (hc.nm == MEMBERS_AT_ONCE || i + 1 == ci->nm) {
			s->coll(s->ctx, &hc);
			hc.nm = 0;
		}
	}
}

/* One member that entered collective `seq` on communicator `comm` (c: its table, NULL when
 * not known) and has not left it. */
static void still_in(const struct hang_sink *s, const struct mpi_comm *c, uint64_t comm,
		     uint32_t seq, const struct hang_member *m)
{
	struct hang_coll hc = { .comm = comm, .comm_name = comm_name(comm, c), .seq = seq,
				.size = c ? c->size : 0, .m = m, .nm = 1 };
	comm_ranks(&hc, c);
	s->coll(s->ctx, &hc);
}

/* A call that never returned: a collective it entered, or a message it waits for. */
static void in_progress(const struct event *ev, const struct hang_sink *s)
{
	const struct mpi_info *mi = mpi_info_of(ev);
	if (!mi)
		return;
	const struct tprof_mpi_args *a = &mi->a;
	switch (a->op) {
	case TPROF_MPI_COLL:
		still_in(s, mi->comm, a->comm, a->seq,
			 &(struct hang_member){ .proc = ev->proc, .thread = ev->thread,
						.rank = rank_in(mi->comm, ev->proc->rank),
						.name = ev->name, .caller = ev->call->caller,
						.t0 = ev->t0, .t1 = -1 });
		return;
	case TPROF_MPI_RECV:
	case TPROF_MPI_SEND:
	case TPROF_MPI_SENDRECV: {
		struct hang_p2p p = { .kind = a->op == TPROF_MPI_RECV ? HANG_RECV : HANG_SEND,
				      .blocking = 1, .proc = ev->proc, .thread = ev->thread,
				      .peer = mi->peer_world >= 0 ? mi->peer_world : -1,
				      .tag = a->tag >= 0 ? a->tag : -1, .comm = a->comm,
				      .comm_name = comm_name(a->comm, mi->comm), .bytes = a->bytes,
				      .name = ev->name, .caller = ev->call->caller, .t0 = ev->t0 };
		if (a->peer == TPROF_MPI_PROCNULL || mi->peer_world == TPROF_MPI_PROCNULL)
			return;
		s->p2p(s->ctx, &p);
		if (a->op == TPROF_MPI_SENDRECV && mi->has_b && mi->peer2_world != TPROF_MPI_PROCNULL) {
			p.kind = HANG_RECV;
			p.peer = mi->peer2_world >= 0 ? mi->peer2_world : -1;
			p.tag = mi->b.tag >= 0 ? mi->b.tag : -1;
			p.bytes = 0;
			s->p2p(s->ctx, &p);
		}
		return;
	}
	default:
		return;
	}
}

void mpi_hang_posted(const struct hang_sink *s, const struct mpi_comm *c, uint64_t comm,
		     uint32_t seq, const struct coll_member *mb)
{
	int alike = sizes_alike(mpi_coll_of(strings_get(mb->name)));
	still_in(s, c, comm, seq,
		 &(struct hang_member){ .proc = mb->proc, .thread = mb->thread,
					.rank = rank_in(c, mb->world), .name = mb->name,
					.caller = mb->caller, .size = alike ? mb->bytes_sent : 0,
					.unit = "bytes", .t0 = mb->t0, .t1 = -1 });
}

void mpi_hangs(const struct event *ev, const struct hang_sink *s)
{
	if (ev->kind == EV_COLLECTIVE)
		collective(ev, s);
	else if (ev->kind == EV_CALL && (ev->flags & EVF_UNFINISHED) && ev->call)
		in_progress(ev, s);
}
