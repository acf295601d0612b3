/* facts.c — the model's events as neutral rows (facts.h): device work (EV_DEVICE) and MPI
 * collectives (EV_COLLECTIVE, whose struct coll_info is the model's); every other event goes
 * to the runtimes that said they have facts about it (their facts hook, runtime.h). */
#include <stdlib.h>

#include "../../common/xalloc.h"
#include "facts.h"
#include "runtime.h"

static const char *const devop_kind[] = { "device", "kernel", "copy", "memset", "graph",
					  "collective" };
static const char *const copy_kind[] = { "HtoH", "HtoD", "DtoH", "DtoD", "default", "peer" };

static void device(const struct event *ev, const struct facts_sink *s)
{
	const struct device_info *di = ev->dev;
	struct fact_devop f = {
		.device_kind = "gpu", .kind = devop_kind[di->kind < 6 ? di->kind : 0],
		.proc = ev->proc, .device = di->op.device, .has_stream = 1, .stream = di->op.stream,
		.name = ev->name, .t0 = ev->t0, .t1 = ev->t1, .corr = di->corr,
		.launcher = di->launcher, .launch_ns = di->launch_ns, .caller = di->op.caller,
		.flags = ev->flags,
	};
	if (di->kind == TPROF_DEVOP_COPY || di->kind == TPROF_DEVOP_MEMSET) {
		f.has_bytes = 1;
		f.bytes = di->op.bytes;
	}
	if (di->kind == TPROF_DEVOP_COPY)
		f.copy_kind = copy_kind[di->op.copy_kind < 6 ? di->op.copy_kind : 4];
	if (di->kind == TPROF_DEVOP_KERNEL)
		f.dims = &di->op.dims;
	s->on_devop(s->ctx, &f);
}

static void mpi_collective(const struct event *ev, const struct facts_sink *s)
{
	const struct coll_info *ci = ev->coll;
	uint32_t n = ci->nm;
	struct fact_member *m = xcalloc(n ? n : 1, sizeof(*m));
	int32_t last = -1;
	for (uint32_t i = 0; i < n; i++) {
		const struct coll_member *cm = &ci->m[i];
		m[i] = (struct fact_member){
			.proc = cm->proc, .thread = cm->thread, .rank = cm->world, .name = cm->name,
			.has_call = 1, .entry = cm->t0, .exit = cm->t1,
			.bytes_sent = cm->bytes_sent, .bytes_recv = cm->bytes_recv,
		};
		if (cm->t0 == ci->last_begin && last < 0)
			last = cm->world;
	}
	struct fact_coll f = {
		.runtime = "mpi", .name = ci->name, .comm = ci->comm_id, .seq = ci->seq,
		.ranks = (int32_t)ci->members, .seen = (int32_t)ci->seen, .root = ci->root_world,
		.last_rank = last, .has_times = 1, .first_entry = ci->first_begin,
		.last_entry = ci->last_begin, .first_exit = ci->first_end,
		.last_exit = ci->last_end, .bytes = ci->bytes_sent,
		.incomplete = !!(ev->flags & EVF_INCOMPLETE), .m = m, .nm = n,
	};
	if (f.root < 0)
		f.root = -1;
	s->on_collective(s->ctx, &f);
	free(m);
}

void facts_event(const struct runtime_set *rts, const struct event *ev,
		 const struct facts_sink *s)
{
	switch (ev->kind) {
	case EV_DEVICE:
		device(ev, s);
		return;
	case EV_COLLECTIVE:
		mpi_collective(ev, s);
		return;
	default:
		break;
	}
	if (!rts)
		return;
	if (ev->kind == EV_CALL) {
		const struct runtime *rt = runtime_of_domain(rts, ev->call->domain);
		if (rt && rt->facts && (rt->fact_events & RT_KIND(EV_CALL)))
			rt->facts(ev, s);
		return;
	}
	for (unsigned i = 0; i < rts->n; i++) {
		const struct runtime *rt = rts->all[i];
		if (rt->facts && (rt->fact_events & RT_KIND(ev->kind)))
			rt->facts(ev, s);
	}
}
