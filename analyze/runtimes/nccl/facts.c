/* runtimes/nccl/facts.c — the NCCL/RCCL domain facts (model/facts.h): each instance the
 * matching stage lined up across ranks (EV_NCCL) as one collective, its launches as the
 * members (rank, launching call, device span), with nccl-tests' sizes of one rank's part for
 * bandwidths.  The only place the tabular outputs' view of NCCL reads struct nccl_inst. */
#include <stdlib.h>

#include "../../../common/xalloc.h"
#include "nccl.h"
#include "../../model/facts.h"

static void member(struct fact_member *m, const struct nccl_launch *l, uint32_t label)
{
	*m = (struct fact_member){ .proc = l->proc, .thread = l->thread, .rank = l->rank,
				   .corr = l->corr };
	m->name = l->nops == 1 && !l->group ? l->ops[0].name : label;
	if (l->thread) {
		m->has_call = 1;
		m->entry = l->t0;
		m->exit = l->t1;
	}
	if (l->nspans) {
		m->has_device = 1;
		m->dev_t0 = l->dev_t0;
		m->dev_t1 = l->dev_t1;
	}
	for (uint32_t k = 0; k < l->nops; k++) {
		if (l->ops[k].op == TPROF_NCCL_RECV)
			m->bytes_recv += l->ops[k].bytes;
		else
			m->bytes_sent += l->ops[k].bytes;
	}
}

/* The root of a rooted collective launched alone, else -1. */
static int32_t root_of(const struct nccl_launch *l)
{
	if (l->nops != 1 || l->group)
		return -1;
	switch (l->ops[0].op) {
	case TPROF_NCCL_BROADCAST:
	case TPROF_NCCL_REDUCE:
	case TPROF_NCCL_GATHER:
	case TPROF_NCCL_SCATTER:
		return l->ops[0].peer;
	default:
		return -1;
	}
}

void nccl_facts(const struct event *ev, const struct facts_sink *s)
{
	const struct nccl_inst *in = nccl_inst_of(ev);
	if (in->copy)
		return;                  /* a fact where it was matched */
	const struct nccl_launch *first = NULL;
	for (uint32_t i = 0; i < in->nl && !first; i++)
		if (in->l[i].nops)
			first = &in->l[i];
	struct fact_member *m = xcalloc(in->nl ? in->nl : 1, sizeof(*m));
	struct fact_coll f = {
		.runtime = "nccl", .name = first ? first->label : ev->name,
		.ranks = (int32_t)in->ranks_expected, .seen = (int32_t)in->nl, .root = -1,
		.last_rank = in->last_rank, .incomplete = in->incomplete, .m = m, .nm = in->nl,
	};
	if (first) {
		f.ranks = first->nranks;
		f.comm = first->comm;
		f.seq = first->ops[0].seq;
		f.root = root_of(first);
		f.has_bw = 1;
		f.alg_bytes = first->algbytes;
		f.bus_bytes = first->busbytes;
		if (first->nops == 1 && !first->group) {
			f.has_count = 1;
			f.count = first->ops[0].count;
			f.dtype = nccl_dtype_name(first->ops[0].dtype);
		}
	}
	for (uint32_t i = 0; i < in->nl; i++) {
		const struct nccl_launch *l = &in->l[i];
		member(&m[i], l, f.name);
		if (!l->thread)
			continue;
		if (!f.has_times || l->t1 < f.first_exit)
			f.first_exit = l->t1;
		if (!f.has_times || l->t1 > f.last_exit)
			f.last_exit = l->t1;
		f.has_times = 1;
	}
	if (f.has_times) {
		f.first_entry = in->first_entry;
		f.last_entry = in->last_entry;
	}
	s->on_collective(s->ctx, &f);
	free(m);
}
