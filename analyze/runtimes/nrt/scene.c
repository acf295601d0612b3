/* runtimes/nrt/scene.c — the Neuron runtime in the scene, laid out like Neuron's own
 * viewer: a track per NeuronCore of each process ("nc N", after the process's threads; see
 * tracks.c), on which each execution is a span named by its model, and loads, unloads and
 * tensor calls on device tensors spans named by the call.  The call itself stays on its
 * thread's track, named by the API function, as HIP calls do, and a flow arrow joins the two
 * (an NRT call is blocking: both spans have the call's times).  Failed calls are marked
 * (args "failed", "status" as NRT_STATUS names it, a red colour). */
#include <stdio.h>
#include <string.h>

#include "../registry.h"
#include "nrt.h"

static void arg_status(struct scene_args *a, int status)
{
	const char *s = nrt_status_name(status);
	char buf[40];
	if (!s) {
		snprintf(buf, sizeof(buf), "NRT_STATUS %d", status);
		s = buf;
	}
	sa_str(a, "status", s);
	if (nrt_failed(status))
		sa_bool(a, "failed", 1);
}

static int is_tensor_op(unsigned op)
{
	return op >= TPROF_NRT_TENSOR_ALLOC && op <= TPROF_NRT_TENSOR_MEMSET;
}

/* What both tracks show: the model or tensor, bytes, execution sizes. */
static void common_args(struct scene_args *a, const struct event *ev, const struct nrt_info *ni)
{
	const struct tprof_nrt_args *r = &ni->a;
	if (ni->model) {
		sa_name(a, "model", ni->model);
		if (r->handle)
			sa_hex(a, "model_handle", r->handle);
	} else if (is_tensor_op(r->op)) {
		if (r->name)
			sa_name(a, "tensor", r->name);
		if (r->handle)
			sa_hex(a, "tensor_handle", r->handle);
		sa_str(a, "placement", nrt_placement_name(r->placement));
	} else if (r->op == TPROF_NRT_SET && r->name) {
		sa_name(a, "tensor", r->name);   /* the one a set gains or gives */
	}
	if (ni->has_exec) {
		sa_u64(a, "input_bytes", ni->x.in_bytes);
		sa_u64(a, "output_bytes", ni->x.out_bytes);
		sa_u64(a, "input_tensors", ni->x.in_tensors);
		sa_u64(a, "output_tensors", ni->x.out_tensors);
		if (r->extra)
			sa_u64(a, "repeat", r->extra);
	} else if (r->bytes || is_tensor_op(r->op) || r->op == TPROF_NRT_LOAD) {
		sa_u64(a, "bytes", r->bytes);
	}
	if (r->op == TPROF_NRT_LOAD && r->extra)
		sa_i64(a, "cores_requested", (int32_t)r->extra);
	if (r->op == TPROF_NRT_COLLECTIVE) {
		/* the recorder puts this device's id in the group and the group's size there */
		sa_u64(a, "device_id", r->handle);
		sa_u64(a, "devices", r->extra);
	}
	int64_t dur = ev->t1 - ev->t0;
	if (nrt_traffic_name(r->op) && dur > 0)
		sa_double(a, "GB/s", (double)r->bytes / (double)dur);
}

void nrt_scene_call_args(struct scene_args *a, const struct event *ev)
{
	const struct nrt_info *ni = nrt_info_of(ev);
	if (!ni)
		return;
	if (ni->a.nc >= 0)
		sa_i64(a, "nc", ni->a.nc);
	common_args(a, ev, ni);
	arg_status(a, ev->call->ret);
}

/* The span on NeuronCore nc, and the arrow from the call ("s" inside the call on its
 * thread, "f" inside the span on the core: both have the call's times). */
static void core_span(struct scene *s, const struct event *ev, const struct nrt_info *ni,
		      int32_t nc, int32_t first, int ncores)
{
	struct tracks *tk = scene_tracks(s);
	int64_t t1 = ev->t1 < ev->t0 ? ev->t0 : ev->t1;
	struct track tr = tracks_neuroncore(tk, ev->proc, nc, ev->t0, t1);
	int exec = ni->a.op == TPROF_NRT_EXECUTE;
	struct scene_args a;
	a.n = 0;
	sa_i64(&a, "nc", nc);
	char buf[32];
	if (ncores > 1) {
		snprintf(buf, sizeof(buf), "%d-%d", first, first + ncores - 1);
		sa_str(&a, "cores", buf);
	}
	sa_name(&a, "call", ev->name);
	common_args(&a, ev, ni);
	arg_status(&a, ev->call->ret);
	char th[320];
	const struct thread *t = ev->thread;
	snprintf(th, sizeof(th), "%s (tid %d)", t->name ? strings_get(t->name) : "thread", t->tid);
	sa_str(&a, "thread", th);
	if (ev->call->corr)
		sa_u64(&a, "correlation", ev->call->corr);
	scene_args_flags(&a, ev->flags);
	struct scene_item it = { .kind = SI_SLICE, .cat = "neuroncore",
				 .name = exec && ni->model ? ni->model : ev->name,
				 .color = nrt_failed(ev->call->ret) ? "terrible" : NULL, .track = tr,
				 .proc = ev->proc, .t0 = ev->t0, .t1 = t1, .args = &a, .ev = ev };
	scene_item(s, &it);
	int64_t at = ev->t0 + (ev->t1 - ev->t0 >= 2 ? 1 : 0);
	char key[96];
	snprintf(key, sizeof(key), "nrt%d.%u.%lld.%d", ev->proc->index, ev->thread->stream,
		 (long long)ev->t0, nc);
	scene_flow(s, key, "nrt", "nrt", tracks_thread(tk, ev->thread, 1), at, tr, at, ev->t0, t1,
		   NULL);
}

/* The call on its thread, then its spans on the NeuronCores it ran on. */
int nrt_scene_event(struct scene *s, const struct event *ev, unsigned self)
{
	(void)self;
	const struct nrt_info *ni = nrt_info_of(ev);
	scene_draw_call(s, ev);
	if (!ni)
		return 1;
	int32_t first;
	int ncores = nrt_cores(ni, &first);
	for (int k = 0; k < ncores; k++)
		core_span(s, ev, ni, first + k, first, ncores);
	return 1;
}
