/* runtimes/nccl/hangs.c — what NCCL/RCCL says of a job's hang (model/hangs.h): each rank's part
 * in each collective of an instance (EV_NCCL), entered when its launching call was seen and
 * left when its device work ended (or, without device timing, when the call returned).  An
 * instance the data ended in the middle of comes at the end, flagged incomplete: the ranks
 * whose launch is missing never entered it.  The members' counts must agree. */
#include <inttypes.h>
#include <stdio.h>

#include "../../model/hangs.h"
#include "nccl.h"

static void launch_parts(const struct nccl_launch *l, const struct hang_sink *s)
{
	int timed = l->spans_expected > 0;
	int64_t left = timed ? (l->nspans >= l->spans_expected ? l->dev_t1 : -1) : l->t1;
	if (!l->thread)
		return;   /* its call was not read: nothing to say it entered */
	for (uint32_t j = 0; j < l->nops; j++) {
		const struct nccl_op *o = &l->ops[j];
		if (!nccl_op_is_coll(o->op))
			continue;
		struct hang_member m = { .proc = l->proc, .thread = l->thread, .rank = o->rank,
					 .name = o->name, .caller = o->caller, .size = o->count,
					 .unit = "elements", .t0 = o->t0, .t1 = left };
		char label[40];
		int n = snprintf(label, sizeof(label), "NCCL comm %016" PRIx64, o->comm);
		struct hang_coll c = { .comm = o->comm, .seq = o->seq,
				       .comm_name = strings_add(label, (size_t)n),
				       .size = o->nranks > 0 ? (uint32_t)o->nranks : 0,
				       .on_device = (uint8_t)timed, .m = &m, .nm = 1 };
		s->coll(s->ctx, &c);
	}
}

void nccl_hangs(const struct event *ev, const struct hang_sink *s)
{
	if (ev->kind != EV_NCCL)
		return;
	const struct nccl_inst *in = nccl_inst_of(ev);
	if (in->copy)
		return;
	for (uint32_t i = 0; i < in->nl; i++)
		launch_parts(&in->l[i], s);
}
