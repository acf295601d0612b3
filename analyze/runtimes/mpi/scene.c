/* runtimes/mpi/scene.c — MPI in the scene: the arguments of MPI calls (communicator, peer as a
 * world rank and as a rank in the communicator, tag, bytes, root, collective number, request;
 * MPI-IO's file, read or write, bytes), each matched message as a flow arrow from the sending call
 * to the call in which its receive completed, and for each collective, arrows from the entry of the
 * member that arrived last to the exits of the members that had to wait for it; and
 * one-sided transfers as arrows from the origin's call to where they were complete at the
 * target (rma.c). */
#include <stdio.h>

#include "../registry.h"
#include "mpi.h"

static void arg_i64(struct scene_args *a, const char *key, int64_t v)
{
	sa_i64(a, key, v);
}

/* A rank, or what stands for one: "ANY", "PROC_NULL", "?" (unknown). */
static void arg_rank(struct scene_args *a, const char *key, int32_t v)
{
	if (v >= 0)
		arg_i64(a, key, v);
	else
		sa_str(a, key, v == TPROF_MPI_ANY ? "ANY" : v == TPROF_MPI_PROCNULL ? "PROC_NULL" : "?");
}

static void arg_tag(struct scene_args *a, const char *key, int32_t v)
{
	if (v == TPROF_MPI_ANY)
		sa_str(a, key, "ANY");
	else
		arg_i64(a, key, v);
}

static void arg_comm(struct scene_args *a, uint64_t id, const struct mpi_comm *c)
{
	if (id == TPROF_COMM_WORLD)
		sa_str(a, "comm", "MPI_COMM_WORLD");
	else if (id == TPROF_COMM_SELF)
		sa_str(a, "comm", "MPI_COMM_SELF");
	else if (c && c->name)
		sa_name(a, "comm", c->name);
	else
		sa_hex(a, "comm", id);
}

void mpi_scene_call_args(struct scene_args *sa, const struct event *ev)
{
	const struct mpi_info *mi = mpi_info_of(ev);
	if (!mi)
		return;
	const struct tprof_mpi_args *a = &mi->a;
	if (a->comm)
		arg_comm(sa, a->comm, mi->comm);
	switch (a->op) {
	case TPROF_MPI_SEND:
	case TPROF_MPI_ISEND:
	case TPROF_MPI_RECV:
	case TPROF_MPI_IRECV:
	case TPROF_MPI_PROBE:
	case TPROF_MPI_SENDRECV:
		arg_rank(sa, "peer", mi->peer_world);
		arg_rank(sa, "peer_in_comm", a->peer);
		arg_tag(sa, "tag", a->tag);
		sa_u64(sa, "bytes", a->bytes);
		if (a->op == TPROF_MPI_SENDRECV && mi->has_b) {
			arg_rank(sa, "source", mi->peer2_world);
			arg_rank(sa, "source_in_comm", mi->b.peer);
			arg_tag(sa, "recv_tag", mi->b.tag);
			sa_u64(sa, "bytes_recv", mi->b.bytes);
		}
		break;
	case TPROF_MPI_COLL:
	case TPROF_MPI_ICOLL:
		if (a->peer >= 0) {
			arg_rank(sa, "root", mi->peer_world);
			arg_rank(sa, "root_in_comm", a->peer);
		}
		sa_u64(sa, "bytes", a->bytes);
		if (mi->has_b)
			sa_u64(sa, "bytes_recv", mi->b.bytes);
		sa_u64(sa, "seq", a->seq);
		break;
	case TPROF_MPI_WAIT:
	case TPROF_MPI_START:
		sa_u64(sa, "requests", a->nreq);
		break;
	case TPROF_MPI_COMM:
		if (mi->has_b && mi->b.req)
			sa_hex(sa, "new_comm", mi->b.req);
		break;
	case TPROF_MPI_RMA:
		sa_i64(sa, "window", a->tag);
		if (a->peer != TPROF_MPI_NONE) {
			arg_rank(sa, "target", mi->peer_world);
			arg_rank(sa, "target_in_comm", a->peer);
		}
		if (a->bytes)
			sa_u64(sa, "bytes", a->bytes);
		/* the atomic ones fetch (read and write); a window made has its size */
		if (mi->has_b && mi->b.bytes)
			sa_u64(sa, (a->flags & (TPROF_MPIF_READ | TPROF_MPIF_WRITE)) ==
					   (TPROF_MPIF_READ | TPROF_MPIF_WRITE)
					   ? "bytes_fetched" : "size",
			       mi->b.bytes);
		sa_u64(sa, "fences", a->seq);
		if (mi->has_b && mi->b.group)   /* MPI_Win_post, _start */
			sa_name(sa, "group", mi->b.group);
		break;
	case TPROF_MPI_IO:
		if (mi->b.file)
			sa_name(sa, "file", mi->b.file);
		if (a->seq)
			sa_u64(sa, "file_number", a->seq);
		if (a->flags & (TPROF_MPIF_READ | TPROF_MPIF_WRITE)) {
			sa_str(sa, "io", a->flags & TPROF_MPIF_READ ? "read" : "write");
			sa_u64(sa, "bytes", a->bytes);
		}
		break;
	default:
		break;
	}
	if (mi->has_b && mi->b.req && (a->op == TPROF_MPI_ISEND || a->op == TPROF_MPI_IRECV ||
				       a->op == TPROF_MPI_ICOLL || a->op == TPROF_MPI_IO ||
				       a->op == TPROF_MPI_RMA))
		sa_hex(sa, "request", mi->b.req);
	if (a->flags & TPROF_MPIF_PERSISTENT)
		sa_str(sa, "persistent", "true");
}

/* "s" bound to the sending call, "f" to the call in which the receive completed. */
static void message(struct scene *s, const struct event *ev)
{
	const struct message_info *m = ev->msg;
	struct scene_args a;
	a.n = 0;
	sa_u64(&a, "bytes", m->bytes);
	sa_i64(&a, "tag", m->tag);
	char key[32];
	snprintf(key, sizeof(key), "m%llu", (unsigned long long)m->id);
	scene_flow_between(s, key, "mpi", "message", flow_end_thread(m->sthread),
			   scene_flow_ts(m->send_t0, m->send_t0, m->send_t1),
			   flow_end_thread(m->rthread),
			   scene_flow_ts(m->recv_done, m->recv_t0, m->recv_t1), m->recv_t0, m->recv_t1,
			   &a);
}

/* From the last member's entry to the exit of every member that left after it came; none
 * from or to a call the window left out (the arrow would join nothing there). */
static void collective(struct scene *s, const struct event *ev)
{
	const struct coll_info *ci = ev->coll;
	if (!ci->last_kept)
		return;
	uint32_t last = 0;
	for (uint32_t k = 1; k < ci->nm; k++)
		if (ci->m[k].t0 > ci->m[last].t0)
			last = k;
	const struct coll_member *lm = &ci->m[last];
	for (uint32_t k = 0; k < ci->nm; k++) {
		const struct coll_member *mb = &ci->m[k];
		int64_t from = scene_flow_ts(lm->t0, lm->t0, lm->post_t1);
		int64_t to = scene_flow_ts(mb->t1, mb->done_t0, mb->done_t1);
		if (k == last || to < from || !mb->done_kept)
			continue;
		struct scene_args a;
		a.n = 0;
		arg_comm(&a, ci->comm_id, ci->comm);
		sa_u64(&a, "seq", ci->seq);
		char key[48];
		snprintf(key, sizeof(key), "c%llu.%u", (unsigned long long)ci->id, k);
		scene_flow_between(s, key, "mpi", "collective", flow_end_thread(lm->thread), from,
				   flow_end_thread(mb->done_thread), to, mb->done_t0, mb->done_t1, &a);
	}
}

/* From the origin's call to the target's call that ended the epoch (a fence, MPI_Win_wait), or
 * to the target's call at (or after) the moment a lock epoch's unlock or flush completed it. */
static void rma(struct scene *s, const struct event *ev)
{
	const struct rma_info *ri = ev->info;
	static const char *const kind[] = { [RK_PUT] = "put", [RK_GET] = "get",
					    [RK_ATOMIC] = "atomic" };
	struct scene_args a;
	a.n = 0;
	sa_str(&a, "op", ri->kind <= RK_ATOMIC && kind[ri->kind] ? kind[ri->kind] : "?");
	sa_u64(&a, "bytes", ri->bytes);
	sa_i64(&a, "window", ri->window);
	sa_i64(&a, "origin", ri->origin);
	sa_i64(&a, "target", ri->target);
	char key[32];
	snprintf(key, sizeof(key), "r%llu", (unsigned long long)ri->id);
	scene_flow_between(s, key, "mpi", "rma", flow_end_thread(ri->othread),
			   scene_flow_ts(ri->o_t0, ri->o_t0, ri->o_t1), flow_end_thread(ri->tthread),
			   scene_flow_ts(ri->t_at, ri->t_t0, ri->t_t1), ri->t_t0, ri->t_t1, &a);
}

int mpi_scene_event(struct scene *s, const struct event *ev, unsigned self)
{
	(void)self;
	if (ev->kind == EV_RMA)
		rma(s, ev);
	else if (ev->kind == EV_MESSAGE)
		message(s, ev);
	else if (ev->kind == EV_COLLECTIVE)
		collective(s, ev);
	else
		return 0;
	return 1;
}
