/* op.c — the end of an operation's data phase, whatever ended it: its status, the
 * communicator's asynchronous error when it failed, and the turn it held on the communicator
 * (collectives run in order; so do the messages between two ranks) passed to the next. */
#include "internal.h"

static const char *const kind_names[SN_NKINDS] = {
	"allreduce", "broadcast", "reduce", "allgather", "reducescatter", "alltoall",
	"gather", "scatter", "alltoallv", "send", "recv",
};

const char *sn_kind_name(int kind)
{
	return kind >= 0 && kind < SN_NKINDS ? kind_names[kind] : "?";
}

static ncclResult_t status_result(enum sn_status st)
{
	switch (st) {
	case SN_TIMEOUT: return ncclSystemError;
	case SN_REMOTE:
	case SN_ABORTED: return ncclRemoteError;
	case SN_MISMATCH: return ncclInvalidUsage;
	default: return ncclSuccess;
	}
}

void sn_op_finish(struct sn_op *op, enum sn_status st)
{
	struct ncclComm *c = op->comm;
	op->status = st;
	op->data_done = 1;
	op->t_data = sn_now_ns();
	if (st != SN_OK) {
		op->deadline = op->t_data; /* nothing modelled: it ends when it failed */
		if (status_result(st) != ncclSuccess)
			sn_comm_set_error(c, status_result(st));
	}
	if (op->started) {
		if (op->kind == SN_SEND)
			atomic_fetch_add(&c->send_done[op->root], 1);
		else if (op->kind == SN_RECV)
			atomic_fetch_add(&c->recv_done[op->root], 1);
		else
			atomic_fetch_add(&c->coll_done, 1);
	}
	sn_bell_ring(c->seg); /* an operation of another stream may wait for the turn */
}
