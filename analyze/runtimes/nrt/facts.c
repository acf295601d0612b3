/* runtimes/nrt/facts.c — the Neuron runtime's domain facts (model/facts.h): each execution
 * (nrt_execute, a blocking call) as an operation of every NeuronCore its model occupies, one
 * row per core, named by its model, with its input and output bytes.  The only place the
 * tabular outputs' view of an NRT call reads struct nrt_info. */
#include "nrt.h"
#include "../../model/facts.h"

void nrt_facts(const struct event *ev, const struct facts_sink *s)
{
	const struct nrt_info *ni = nrt_info_of(ev);
	if (!ni || ni->a.op != TPROF_NRT_EXECUTE || !ni->model)
		return;
	int32_t first;
	int n = nrt_cores(ni, &first);
	struct fact_devop f = {
		.device_kind = "neuroncore", .kind = "execution", .proc = ev->proc,
		.name = ni->model, .t0 = ev->t0, .t1 = ev->t1, .corr = ev->call->corr,
		.launcher = ev->thread, .launch_ns = ev->t0, .failed = nrt_failed(ev->call->ret),
		.flags = ev->flags,
	};
	if (ni->has_exec) {
		f.has_bytes = 1;
		f.bytes = ni->x.in_bytes + ni->x.out_bytes;
	}
	for (int k = 0; k < n; k++) {
		f.device = first + k;
		s->on_devop(s->ctx, &f);
	}
}
