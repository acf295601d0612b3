/* runtimes/mpi/chrome.c — the MPI part of the Chrome trace: the arguments of MPI calls
 * (communicator, peer as a world rank and as a rank in the communicator, tag, bytes, root,
 * collective number, request), each matched message as a flow arrow from the sending call to
 * the call in which its receive completed, and for each collective, arrows from the entry of
 * the member that arrived last to the exits of the members that had to wait for it. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "../../render/chrome/write.h"
#include "chrome.h"

static void arg_i64(struct jw *w, int *n, const char *key, int64_t v)
{
	chrome_arg_key(w, n, key);
	jw_i64(w, v);
}

/* A rank, or what stands for one: "ANY", "PROC_NULL", "?" (unknown). */
static void arg_rank(struct jw *w, int *n, const char *key, int32_t v)
{
	if (v >= 0)
		arg_i64(w, n, key, v);
	else
		chrome_arg_str(w, n, key, v == TPROF_MPI_ANY ? "ANY" : v == TPROF_MPI_PROCNULL ? "PROC_NULL" : "?");
}

static void arg_tag(struct jw *w, int *n, const char *key, int32_t v)
{
	if (v == TPROF_MPI_ANY)
		chrome_arg_str(w, n, key, "ANY");
	else
		arg_i64(w, n, key, v);
}

static void arg_comm(struct jw *w, int *n, uint64_t id, const struct mpi_comm *c)
{
	if (id == TPROF_COMM_WORLD)
		chrome_arg_str(w, n, "comm", "MPI_COMM_WORLD");
	else if (id == TPROF_COMM_SELF)
		chrome_arg_str(w, n, "comm", "MPI_COMM_SELF");
	else if (c && c->name) {
		chrome_arg_key(w, n, "comm");
		chrome_name(w, c->name);
	} else
		chrome_arg_hex(w, n, "comm", id);
}

void chrome_mpi_args(struct jw *w, int *n, const struct mpi_info *mi)
{
	const struct tprof_mpi_args *a = &mi->a;
	if (a->comm)
		arg_comm(w, n, a->comm, mi->comm);
	switch (a->op) {
	case TPROF_MPI_SEND:
	case TPROF_MPI_ISEND:
	case TPROF_MPI_RECV:
	case TPROF_MPI_IRECV:
	case TPROF_MPI_PROBE:
	case TPROF_MPI_SENDRECV:
		arg_rank(w, n, "peer", mi->peer_world);
		arg_rank(w, n, "peer_in_comm", a->peer);
		arg_tag(w, n, "tag", a->tag);
		chrome_arg_u64(w, n, "bytes", a->bytes);
		if (a->op == TPROF_MPI_SENDRECV && mi->has_b) {
			arg_rank(w, n, "source", mi->peer2_world);
			arg_rank(w, n, "source_in_comm", mi->b.peer);
			arg_tag(w, n, "recv_tag", mi->b.tag);
			chrome_arg_u64(w, n, "bytes_recv", mi->b.bytes);
		}
		break;
	case TPROF_MPI_COLL:
	case TPROF_MPI_ICOLL:
		if (a->peer >= 0) {
			arg_rank(w, n, "root", mi->peer_world);
			arg_rank(w, n, "root_in_comm", a->peer);
		}
		chrome_arg_u64(w, n, "bytes", a->bytes);
		if (mi->has_b)
			chrome_arg_u64(w, n, "bytes_recv", mi->b.bytes);
		chrome_arg_u64(w, n, "seq", a->seq);
		break;
	case TPROF_MPI_WAIT:
	case TPROF_MPI_START:
		chrome_arg_u64(w, n, "requests", a->nreq);
		break;
	case TPROF_MPI_COMM:
		if (mi->has_b && mi->b.req)
			chrome_arg_hex(w, n, "new_comm", mi->b.req);
		break;
	default:
		break;
	}
	if (mi->has_b && mi->b.req && (a->op == TPROF_MPI_ISEND || a->op == TPROF_MPI_IRECV ||
				       a->op == TPROF_MPI_ICOLL))
		chrome_arg_hex(w, n, "request", mi->b.req);
	if (a->flags & TPROF_MPIF_PERSISTENT)
		chrome_arg_str(w, n, "persistent", "true");
}

/* "s" bound to the sending call, "f" to the call in which the receive completed. */
void chrome_message(struct chrome *c, const struct event *ev)
{
	const struct message_info *m = ev->msg;
	struct jw *w = &c->w;
	char id[32];
	int n = 0;
	snprintf(id, sizeof(id), "\"m%" PRIu64 "\"", m->id);
	chrome_flow(c, tracks_thread(c->tracks, m->sthread, 1), "s", "mpi", "message", id,
		 chrome_flow_ts(m->send_t0, m->send_t0, m->send_t1));
	chrome_arg_u64(w, &n, "bytes", m->bytes);
	arg_i64(w, &n, "tag", m->tag);
	chrome_end_args(w, n);
	chrome_flow(c, tracks_thread(c->tracks, m->rthread, 1), "f", "mpi", "message", id,
		 chrome_flow_ts(m->recv_done, m->recv_t0, m->recv_t1));
	jw_lit(w, "}");
}

/* From the last member's entry to the exit of every member that left after it came. */
void chrome_collective(struct chrome *c, const struct event *ev)
{
	const struct coll_info *ci = ev->coll;
	struct jw *w = &c->w;
	uint32_t last = 0;
	for (uint32_t k = 1; k < ci->nm; k++)
		if (ci->m[k].t0 > ci->m[last].t0)
			last = k;
	const struct coll_member *lm = &ci->m[last];
	for (uint32_t k = 0; k < ci->nm; k++) {
		const struct coll_member *mb = &ci->m[k];
		int64_t from = chrome_flow_ts(lm->t0, lm->t0, lm->post_t1);
		int64_t to = chrome_flow_ts(mb->t1, mb->done_t0, mb->done_t1);
		if (k == last || to < from)
			continue;
		char id[48];
		int n = 0;
		snprintf(id, sizeof(id), "\"c%" PRIu64 ".%u\"", ci->id, k);
		chrome_flow(c, tracks_thread(c->tracks, lm->thread, 1), "s", "mpi", "collective", id, from);
		arg_comm(w, &n, ci->comm_id, ci->comm);
		chrome_arg_u64(w, &n, "seq", ci->seq);
		chrome_end_args(w, n);
		chrome_flow(c, tracks_thread(c->tracks, mb->done_thread, 1), "f", "mpi", "collective", id, to);
		jw_lit(w, "}");
	}
}
