/* runtimes/nrt/chrome.c — the Neuron runtime part of the Chrome trace, laid out like Neuron's own
 * viewer: a track per NeuronCore of each process ("nc N", after the process's threads; see
 * tracks.c), on which each execution is a span named by its model, and loads, unloads and
 * tensor calls on device tensors spans named by the call.  The call itself stays on its
 * thread's track, named by the API function, as HIP calls do, and a flow arrow joins the two
 * (an NRT call is blocking: both spans have the call's times).  Failed calls are marked
 * (args "failed", "status" as NRT_STATUS names it, a red colour). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "nrt.h"
#include "chrome.h"

static void arg_i64(struct jw *w, int *n, const char *key, int64_t v)
{
	chrome_arg_key(w, n, key);
	jw_i64(w, v);
}

static void arg_status(struct jw *w, int *n, int status)
{
	const char *s = nrt_status_name(status);
	char buf[40];
	if (!s) {
		snprintf(buf, sizeof(buf), "NRT_STATUS %d", status);
		s = buf;
	}
	chrome_arg_str(w, n, "status", s);
	if (nrt_failed(status)) {
		chrome_arg_key(w, n, "failed");
		jw_lit(w, "true");
	}
}

static int is_tensor_op(unsigned op)
{
	return op >= TPROF_NRT_TENSOR_ALLOC && op <= TPROF_NRT_TENSOR_MEMSET;
}

/* What both tracks show: the model or tensor, bytes, execution sizes. */
static void common_args(struct jw *w, int *n, const struct event *ev, const struct nrt_info *ni)
{
	const struct tprof_nrt_args *a = &ni->a;
	if (ni->model) {
		chrome_arg_key(w, n, "model");
		chrome_name(w, ni->model);
		if (a->handle)
			chrome_arg_hex(w, n, "model_handle", a->handle);
	} else if (is_tensor_op(a->op)) {
		if (a->name) {
			chrome_arg_key(w, n, "tensor");
			chrome_name(w, a->name);
		}
		if (a->handle)
			chrome_arg_hex(w, n, "tensor_handle", a->handle);
		chrome_arg_str(w, n, "placement", nrt_placement_name(a->placement));
	}
	if (ni->has_exec) {
		chrome_arg_u64(w, n, "input_bytes", ni->x.in_bytes);
		chrome_arg_u64(w, n, "output_bytes", ni->x.out_bytes);
		chrome_arg_u64(w, n, "input_tensors", ni->x.in_tensors);
		chrome_arg_u64(w, n, "output_tensors", ni->x.out_tensors);
		if (a->extra)
			chrome_arg_u64(w, n, "repeat", a->extra);
	} else if (a->bytes || is_tensor_op(a->op) || a->op == TPROF_NRT_LOAD) {
		chrome_arg_u64(w, n, "bytes", a->bytes);
	}
	if (a->op == TPROF_NRT_LOAD && a->extra)
		arg_i64(w, n, "cores_requested", (int32_t)a->extra);
	if (a->op == TPROF_NRT_COLLECTIVE) {
		/* the recorder puts this device's id in the group and the group's size there */
		chrome_arg_u64(w, n, "device_id", a->handle);
		chrome_arg_u64(w, n, "devices", a->extra);
	}
	int64_t dur = ev->t1 - ev->t0;
	if (nrt_traffic_name(a->op) && dur > 0) {
		chrome_arg_key(w, n, "GB/s");
		jw_double(w, (double)a->bytes / (double)dur);
	}
}

void chrome_nrt_args(struct jw *w, int *n, const struct event *ev)
{
	const struct nrt_info *ni = ev->call->nrt;
	if (ni->a.nc >= 0)
		arg_i64(w, n, "nc", ni->a.nc);
	common_args(w, n, ev, ni);
	arg_status(w, n, ev->call->ret);
}

/* "s" inside the call on its thread, "f" inside the span on the core. */
static void flow(struct chrome *c, const struct event *ev, struct track core, int32_t nc)
{
	struct jw *w = &c->w;
	char id[96];
	snprintf(id, sizeof(id), "\"nrt%d.%u.%" PRId64 ".%d\"", ev->proc->index, ev->thread->stream,
		 ev->t0, nc);
	int64_t at = ev->t0 + (ev->t1 - ev->t0 >= 2 ? 1 : 0);
	chrome_flow(c, tracks_thread(c->tracks, ev->thread, 1), "s", "nrt", "nrt", id, at);
	jw_lit(w, "}");
	chrome_flow(c, core, "f", "nrt", "nrt", id, at);
	jw_lit(w, "}");
}

static void core_span(struct chrome *c, const struct event *ev, const struct nrt_info *ni,
		      int32_t nc, int32_t first, int ncores)
{
	struct jw *w = &c->w;
	int64_t t1 = ev->t1 < ev->t0 ? ev->t0 : ev->t1;
	struct track tr = tracks_neuroncore(c->tracks, ev->proc, nc, ev->t0, t1);
	int exec = ni->a.op == TPROF_NRT_EXECUTE;
	chrome_head(c, tr, "X", "neuroncore", ev->t0);
	jw_lit(w, ",\"dur\":");
	jw_us(w, t1 - ev->t0);
	if (nrt_failed(ev->call->ret))
		jw_lit(w, ",\"cname\":\"terrible\"");
	jw_lit(w, ",\"name\":");
	chrome_name(w, exec && ni->model ? ni->model : ev->name);
	int n = 0;
	arg_i64(w, &n, "nc", nc);
	if (ncores > 1) {
		char buf[32];
		snprintf(buf, sizeof(buf), "%d-%d", first, first + ncores - 1);
		chrome_arg_str(w, &n, "cores", buf);
	}
	chrome_arg_key(w, &n, "call");
	chrome_name(w, ev->name);
	common_args(w, &n, ev, ni);
	arg_status(w, &n, ev->call->ret);
	char th[320];
	const struct thread *t = ev->thread;
	snprintf(th, sizeof(th), "%s (tid %d)", t->name ? strings_get(t->name) : "thread", t->tid);
	chrome_arg_str(w, &n, "thread", th);
	if (ev->call->corr)
		chrome_arg_u64(w, &n, "correlation", ev->call->corr);
	chrome_arg_flags(w, &n, ev->flags);
	chrome_end_args(w, n);
	flow(c, ev, tr, nc);
}

void chrome_nrt_core(struct chrome *c, const struct event *ev)
{
	const struct nrt_info *ni = ev->call->nrt;
	int32_t first;
	int ncores = nrt_cores(ni, &first);
	for (int k = 0; k < ncores; k++)
		core_span(c, ev, ni, first + k, first, ncores);
}
