/* runtimes/nccl/transfers.c — NCCL's point-to-point transfers (model/transfers.h), for the
 * report's communication matrix: every send matched with its receive (an instance's links),
 * from the sending process's world rank to the receiving one's (processes without a world
 * rank are left out), its bytes, and its time on the devices: from when both launches' device
 * work had started to the receiving launch's end, shared among the receives of that launch by
 * their bytes when it holds several (a group).  An instance copied to another analysis
 * process (--parallel) is counted where it was matched only. */
#include "../../model/transfers.h"
#include "../../read/trace.h"
#include "nccl.h"

void nccl_transfers(const struct event *ev, const struct transfer_sink *s)
{
	const struct nccl_inst *in = nccl_inst_of(ev);
	if (ev->kind != EV_NCCL || !in || in->copy)
		return;
	for (uint32_t i = 0; i < in->nlinks; i++) {
		const struct nccl_link *k = &in->links[i];
		if (k->from >= in->nl || k->to >= in->nl)
			continue;
		const struct nccl_launch *a = &in->l[k->from], *b = &in->l[k->to];
		if (!a->proc || !b->proc || a->proc->rank < 0 || b->proc->rank < 0)
			continue;
		int64_t ns = 0;
		if (a->nspans && b->nspans) {
			int64_t from = a->dev_t0 > b->dev_t0 ? a->dev_t0 : b->dev_t0;
			uint64_t all = 0;
			for (uint32_t j = 0; j < in->nlinks; j++)
				if (in->links[j].to == k->to)
					all += in->links[j].bytes;
			if (b->dev_t1 > from)
				ns = all ? (int64_t)((double)(b->dev_t1 - from) *
						     ((double)k->bytes / (double)all))
					 : b->dev_t1 - from;
		}
		struct transfer t = { a->proc->rank, b->proc->rank, k->bytes, ns };
		s->transfer(s->ctx, &t);
	}
}
