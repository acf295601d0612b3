/* runtimes/nccl/waits.c — NCCL's wait states (model/waits.h), for the diagnosis: a collective's
 * kernels wait on their devices until the last rank's has started, so each launch whose
 * device span began before the last one's waited from its start until then (or its end), and
 * the rank whose kernel started last made them wait: from the start of the one before it
 * until its own.  Instances without device times (or sends and receives alone) say nothing. */
#include "../../model/waits.h"
#include "nccl.h"

static void inst_waits(const struct nccl_inst *in, const struct wait_sink *s)
{
	if (in->copy || in->timed < 2)
		return;
	const struct nccl_launch *late = NULL;
	for (uint32_t i = 0; i < in->nl; i++) {
		const struct nccl_launch *l = &in->l[i];
		if (l->nspans && (!late || l->dev_t0 > late->dev_t0))
			late = l;
	}
	if (!late)
		return;
	struct wait_delay d = { .kind = WAIT_DEVICE_COLL, .on_device = 1, .late = late->proc,
				.t0 = INT64_MIN, .t1 = late->dev_t0, .site = late->label,
				.caller = late->nops ? late->ops[0].caller : 0, .comm = late->comm,
				.seq = late->nops ? late->ops[0].seq : 0 };
	for (uint32_t i = 0; i < in->nl; i++) {
		const struct nccl_launch *l = &in->l[i];
		if (l == late || !l->nspans || l->dev_t0 >= late->dev_t0 || !l->proc)
			continue;
		int64_t until = late->dev_t0 < l->dev_t1 ? late->dev_t0 : l->dev_t1;
		if (until <= l->dev_t0)
			continue;
		struct wait_span w = { .kind = WAIT_DEVICE_COLL, .on_device = 1, .proc = l->proc,
				       .t0 = l->dev_t0, .t1 = until, .site = l->label,
				       .caller = l->nops ? l->ops[0].caller : 0,
				       .comm = l->comm, .seq = d.seq,
				       .cause_rank = (int32_t)late->proc->rank };
		s->span(s->ctx, &w);
		d.waiters++;
		d.waited += until - l->dev_t0;
		if (l->dev_t0 > d.t0)
			d.t0 = l->dev_t0;
	}
	if (d.waiters && d.late)
		s->delay(s->ctx, &d);
}

void nccl_waits(const struct event *ev, const struct wait_sink *s)
{
	if (ev->kind == EV_NCCL)
		inst_waits(nccl_inst_of(ev), s);
}
