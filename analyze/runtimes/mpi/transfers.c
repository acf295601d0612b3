/* runtimes/mpi/transfers.c — MPI's point-to-point transfers (model/transfers.h), for the
 * report's communication matrix: every matched message, from its sender's world rank to its
 * receiver's, its bytes as received, and its time from when both of its ends were there (the
 * later of the send's start and the receive's posting) to the receive's completion. */
#include "../../model/transfers.h"
#include "mpi.h"

void mpi_transfers(const struct event *ev, const struct transfer_sink *s)
{
	const struct message_info *mi = ev->msg;
	if (ev->kind != EV_MESSAGE || !mi || mi->src < 0 || mi->dst < 0)
		return;
	int64_t from = mi->send_t0 > mi->post_t0 ? mi->send_t0 : mi->post_t0;
	struct transfer t = { mi->src, mi->dst, mi->bytes,
			      mi->recv_done > from ? mi->recv_done - from : 0 };
	s->transfer(s->ctx, &t);
}
