/* group.c — ncclGroupStart / ncclGroupEnd and the numbering of operations.  A thread's groups
 * nest; between the outermost start and end nothing is launched: operations (and the
 * communicators ncclCommInitRank made inside the group) wait for the outermost ncclGroupEnd,
 * which joins those communicators together, numbers the operations in call order and
 * launches them.  An invalid call inside a group makes ncclGroupEnd return its error and
 * launch nothing, as NCCL does. */
#include "internal.h"

#include <stdlib.h>

struct group_state {
	int depth;
	struct sn_op *ops, **tail;
	struct ncclComm **inits;
	int ninits, capinits;
	ncclResult_t error;
};
static _Thread_local struct group_state g;

int sn_group_depth(void)
{
	return g.depth;
}

void sn_group_add_op(struct sn_op *op)
{
	if (!g.tail)
		g.tail = &g.ops;
	op->next = NULL;
	*g.tail = op;
	g.tail = &op->next;
}

void sn_group_add_init(struct ncclComm *c)
{
	if (g.ninits == g.capinits) {
		int cap = g.capinits ? 2 * g.capinits : 8;
		struct ncclComm **n = realloc(g.inits, (size_t)cap * sizeof(*n));
		if (!n) {
			sn_group_error(sn_fail(ncclSystemError, "standin-nccl: out of memory"));
			return;
		}
		g.inits = n;
		g.capinits = cap;
	}
	g.inits[g.ninits++] = c;
}

ncclResult_t sn_group_error(ncclResult_t r)
{
	if (g.depth > 0 && g.error == ncclSuccess)
		g.error = r;
	return r;
}

/* Collectives: their number on the communicator; send/recv: with the peer. */
static void number(struct sn_op *op)
{
	struct ncclComm *c = op->comm;
	if (op->kind == SN_SEND)
		op->seq = ++c->send_seq[op->root];
	else if (op->kind == SN_RECV)
		op->seq = ++c->recv_seq[op->root];
	else
		op->seq = ++c->coll_seq;
}

static void free_ops(struct sn_op *op)
{
	while (op) {
		struct sn_op *next = op->next;
		free(op->v);
		free(op);
		op = next;
	}
}

ncclResult_t sn_submit(struct sn_op *op)
{
	if (g.depth > 0) {
		sn_group_add_op(op);
		return ncclSuccess;
	}
	op->next = NULL;
	number(op);
	return sn_launch(op);
}

SN_API(ncclResult_t, ncclGroupStart, void)
{
	sn_init();
	g.depth++;
	return ncclSuccess;
}

SN_API(ncclResult_t, ncclGroupEnd, void)
{
	struct sn_op *ops, *op;
	ncclResult_t r;
	int i, n;
	sn_init();
	if (g.depth == 0)
		return sn_fail(ncclInvalidUsage, "ncclGroupEnd: not in a group (no ncclGroupStart)");
	if (--g.depth > 0)
		return ncclSuccess;
	ops = g.ops;
	r = g.error;
	n = g.ninits;
	g.ops = NULL;
	g.tail = &g.ops;
	g.error = ncclSuccess;
	g.ninits = 0;
	if (r == ncclSuccess && n > 0)
		r = sn_comm_join_all(g.inits, n);
	for (i = 0; i < n; i++) {
		int expect = SN_COMM_INIT;
		g.inits[i]->deferred = 0;
		/* not joined because an earlier call of the group failed */
		if (atomic_compare_exchange_strong(&g.inits[i]->state, &expect, SN_COMM_FAILED))
			atomic_store(&g.inits[i]->async_err, r);
	}
	free(g.inits);
	g.inits = NULL;
	g.capinits = 0;
	if (r != ncclSuccess) {
		free_ops(ops);
		return r;
	}
	for (op = ops; op; op = op->next)
		number(op);
	return ops ? sn_launch(ops) : ncclSuccess;
}
