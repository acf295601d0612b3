/* render/chrome/chrome.c — Chrome trace-event JSON (Perfetto, chrome://tracing): one process per
 * profiled process image, one track per thread and per device stream (tracks.c), ranges and
 * API calls as complete events, device work with its arguments, flow arrows from each launch
 * to the work it started, marks as instants, counters, cross-thread ranges as async events,
 * and the training steps on a track of their own; MPI arguments, messages and collectives
 * are written by runtimes/mpi/chrome.c, NCCL arguments and collectives by runtimes/nccl/chrome.c, NRT
 * arguments and NeuronCore tracks by runtimes/nrt/chrome.c, and every event with the helpers of
 * render/chrome/write.c. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "write.h"
#include "../../runtimes/mpi/chrome.h"
#include "../../runtimes/nrt/chrome.h"
#include "../../runtimes/nccl/chrome.h"

static const char *const domain_cat[] = { "call", "hip", "mpi", "nccl", "nrt", "cuda" };
static const char *const devop_cat[] = { "device", "kernel", "copy", "memset", "graph", "collective" };
static const char *const copy_kind[] = { "HtoH", "HtoD", "DtoH", "DtoD", "default", "peer" };

static int begin(void *priv, const struct trace *tr)
{
	struct chrome *c = priv;
	(void)tr;
	if (jw_open(&c->w, c->path) < 0) {
		diag_error("cannot write %s: %m", c->path);
		c->failed = 1;
		return -1;
	}
	jw_lit(&c->w, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
	c->first = 1;
	return 0;
}

static void arg_dims(struct jw *w, int *n, const struct tprof_launch_dims *d)
{
	char buf[96];
	snprintf(buf, sizeof(buf), "[%u,%u,%u]", d->grid[0], d->grid[1], d->grid[2]);
	chrome_arg_key(w, n, "grid");
	jw_raw(w, buf, strlen(buf));
	snprintf(buf, sizeof(buf), "[%u,%u,%u]", d->block[0], d->block[1], d->block[2]);
	chrome_arg_key(w, n, "block");
	jw_raw(w, buf, strlen(buf));
	chrome_arg_u64(w, n, "shmem", d->shmem);
}

static void complete(struct chrome *c, struct track tr, const char *cat, const struct event *ev)
{
	chrome_head(c, tr, "X", cat, ev->t0);
	jw_lit(&c->w, ",\"dur\":");
	jw_us(&c->w, ev->t1 - ev->t0);
	jw_lit(&c->w, ",\"name\":");
}

/* A run of unsuccessful polls: how many calls, their time inside the calls (the span also
 * holds what the program did between them) and, when several functions took turns, each
 * one's share. */
static void poll_args(struct jw *w, int *n, const struct poll_info *pi)
{
	chrome_arg_u64(w, n, "polls", pi->polls);
	chrome_arg_key(w, n, "time in calls (us)");
	jw_us(w, pi->busy);
	if (pi->n < 2)
		return;
	chrome_arg_key(w, n, "functions");
	jw_lit(w, "{");
	for (unsigned i = 0; i < pi->n; i++) {
		if (i)
			jw_lit(w, ",");
		chrome_name(w, pi->fn[i].name);
		jw_lit(w, ":{\"polls\":");
		jw_u64(w, pi->fn[i].count);
		jw_lit(w, ",\"time in calls (us)\":");
		jw_us(w, pi->fn[i].busy);
		jw_lit(w, "}");
	}
	jw_lit(w, "}");
}

static void call_event(struct chrome *c, const struct event *ev)
{
	struct jw *w = &c->w;
	const struct call_info *ci = ev->call;
	struct track tr = tracks_thread(c->tracks, ev->thread, 1);
	complete(c, tr, domain_cat[ci->domain < 6 ? ci->domain : 0], ev);
	chrome_name(w, ev->name);
	int n = 0;
	if (ci->corr)
		chrome_arg_u64(w, &n, "correlation", ci->corr);
	if (ci->ret)
		chrome_arg_u64(w, &n, "returned", (uint64_t)ci->ret);
	if (ci->has_args) {
		const struct tprof_call_args *a = &ci->args;
		if (a->device != 0xffff)
			chrome_arg_u64(w, &n, "device", a->device);
		if (a->shape == TPROF_SHAPE_LAUNCH || a->stream ||
		    a->shape == TPROF_SHAPE_COPY || a->shape == TPROF_SHAPE_MEMSET)
			chrome_arg_hex(w, &n, "stream", a->stream);
		switch (a->shape) {
		case TPROF_SHAPE_COPY:
			chrome_arg_u64(w, &n, "bytes", a->a);
			chrome_arg_str(w, &n, "kind", copy_kind[a->b < 6 ? a->b : 4]);
			break;
		case TPROF_SHAPE_MEMSET:
			chrome_arg_u64(w, &n, "bytes", a->a);
			break;
		case TPROF_SHAPE_ALLOC:
			chrome_arg_u64(w, &n, "bytes", a->a);
			chrome_arg_hex(w, &n, "ptr", a->b);
			break;
		case TPROF_SHAPE_FREE:
			chrome_arg_hex(w, &n, "ptr", a->b);
			break;
		case TPROF_SHAPE_LAUNCH:
			chrome_arg_key(w, &n, "kernel");
			chrome_name(w, a->name);
			break;
		case TPROF_SHAPE_SYNC:
		case TPROF_SHAPE_OBJECT:
			if (a->b)
				chrome_arg_hex(w, &n, "handle", a->b);
			break;
		}
	}
	if (ci->has_dims)
		arg_dims(w, &n, &ci->dims);
	if (ev->mpi)
		chrome_mpi_args(w, &n, ev->mpi);
	if (ci->nrt)
		chrome_nrt_args(w, &n, ev);
	if (ev->nccl)
		chrome_nccl_args(w, &n, ev->nccl);
	if (ci->poll)
		poll_args(w, &n, ci->poll);
	if (ci->nstack) {
		chrome_arg_key(w, &n, "stack");
		jw_lit(w, "[");
		for (uint32_t i = 0; i < ci->nstack; i++) {
			if (i)
				jw_lit(w, ",");
			chrome_name(w, ci->stack[i]);
		}
		jw_lit(w, "]");
	}
	chrome_arg_flags(w, &n, ev->flags);
	chrome_end_args(w, n);
}

/* An arrow from the launch (bound to the call on the launching thread) to the device span. */
static void flow(struct chrome *c, const struct event *ev, struct track dev)
{
	const struct device_info *di = ev->dev;
	char id[48];
	snprintf(id, sizeof(id), "\"%d:%" PRIu64 "\"", ev->proc->index, di->corr);
	chrome_launch_flow(c, tracks_thread(c->tracks, di->launcher, 1), dev, id, di->launch_ns,
			   ev->t0, ev->t1);
}

static void device_event(struct chrome *c, const struct event *ev)
{
	struct jw *w = &c->w;
	const struct device_info *di = ev->dev;
	if (di->kind == TPROF_DEVOP_COLLECTIVE && chrome_nccl_hold(c, ev))
		return;   /* written with its EV_NCCL */
	int copy = di->kind == TPROF_DEVOP_COPY || di->kind == TPROF_DEVOP_MEMSET;
	struct track tr = tracks_device(c->tracks, ev->proc, di->op.device, di->op.stream, copy);
	complete(c, tr, devop_cat[di->kind < 6 ? di->kind : 0], ev);
	chrome_name(w, ev->name);
	int n = 0;
	chrome_arg_u64(w, &n, "device", di->op.device);
	chrome_arg_hex(w, &n, "stream", di->op.stream);
	if (di->corr)
		chrome_arg_u64(w, &n, "correlation", di->corr);
	if (di->kind == TPROF_DEVOP_KERNEL)
		arg_dims(w, &n, &di->op.dims);
	if (copy) {
		chrome_arg_u64(w, &n, "bytes", di->op.bytes);
		if (di->kind == TPROF_DEVOP_COPY)
			chrome_arg_str(w, &n, "kind", copy_kind[di->op.copy_kind < 6 ? di->op.copy_kind : 4]);
		int64_t dur = ev->t1 - ev->t0;
		if (dur > 0) {
			chrome_arg_key(w, &n, "GB/s");
			jw_double(w, (double)di->op.bytes / (double)dur);
		}
	}
	if (di->op.caller) {
		chrome_arg_key(w, &n, "caller");
		chrome_name(w, di->op.caller);
	}
	chrome_arg_flags(w, &n, ev->flags);
	chrome_end_args(w, n);
	if (di->corr && di->launcher)
		flow(c, ev, tr);
}

static void event(void *priv, const struct event *ev)
{
	struct chrome *c = priv;
	struct jw *w = &c->w;
	int n = 0;
	if (c->failed)
		return;
	switch (ev->kind) {
	case EV_RANGE:
		complete(c, tracks_thread(c->tracks, ev->thread, 0), ev->source == TPROF_SRC_ROCTX ? "roctx" : "range", ev);
		chrome_name(w, ev->name);
		chrome_arg_flags(w, &n, ev->flags);
		chrome_end_args(w, n);
		break;
	case EV_MARK:
		chrome_head(c, tracks_thread(c->tracks, ev->thread, 0), "i", ev->source == TPROF_SRC_ROCTX ? "roctx" : "mark", ev->t0);
		jw_lit(w, ",\"s\":\"t\",\"name\":");
		chrome_name(w, ev->name);
		jw_lit(w, "}");
		break;
	case EV_COUNTER:
		chrome_head(c, (struct track){ ev->proc->index, 0 }, "C", "counter", ev->t0);
		jw_lit(w, ",\"name\":");
		chrome_name(w, ev->name);
		jw_lit(w, ",\"args\":{\"value\":");
		jw_double(w, ev->value);
		jw_lit(w, "}}");
		break;
	case EV_STEP:
		complete(c, tracks_steps(c->tracks, ev->proc), "step", ev);
		jw_lit(w, "\"step ");
		jw_u64(w, ev->step);
		jw_lit(w, "\"");
		chrome_arg_u64(w, &n, "step", ev->step);
		chrome_arg_flags(w, &n, ev->flags);
		chrome_end_args(w, n);
		break;
	case EV_CALL:
		call_event(c, ev);
		if (ev->call->nrt)
			chrome_nrt_core(c, ev);
		break;
	case EV_DEVICE:
		device_event(c, ev);
		break;
	case EV_MESSAGE:
		chrome_message(c, ev);
		break;
	case EV_COLLECTIVE:
		chrome_collective(c, ev);
		break;
	case EV_NCCL:
		chrome_nccl_inst(c, ev);
		break;
	case EV_ASYNC: {
		struct track tr = tracks_thread(c->tracks, ev->thread, 0);
		char id[48];
		snprintf(id, sizeof(id), "\"%d:%" PRIu64 "\"", ev->proc->index, ev->step);
		chrome_head(c, tr, "b", "roctx", ev->t0);
		jw_lit(w, ",\"name\":");
		chrome_name(w, ev->name);
		jw_lit(w, ",\"id\":");
		jw_raw(w, id, strlen(id));
		chrome_arg_flags(w, &n, ev->flags);
		chrome_end_args(w, n);
		chrome_head(c, tr, "e", "roctx", ev->t1);
		jw_lit(w, ",\"name\":");
		chrome_name(w, ev->name);
		jw_lit(w, ",\"id\":");
		jw_raw(w, id, strlen(id));
		jw_lit(w, "}");
		break;
	}
	default:
		break;
	}
}

static void meta(void *ctx, const char *what, int64_t pid, int64_t tid, const char *key,
		 const char *s, int64_t num)
{
	struct chrome *c = ctx;
	struct jw *w = &c->w;
	chrome_sep(c);
	jw_lit(w, "{\"ph\":\"M\",\"name\":\"");
	jw_raw(w, what, strlen(what));
	jw_lit(w, "\",\"pid\":");
	jw_i64(w, pid);
	if (tid >= 0) {
		jw_lit(w, ",\"tid\":");
		jw_i64(w, tid);
	}
	jw_lit(w, ",\"args\":{\"");
	jw_raw(w, key, strlen(key));
	jw_lit(w, "\":");
	if (s)
		chrome_str(w, s);
	else
		jw_i64(w, num);
	jw_lit(w, "}}");
}

static void proc_meta(struct chrome *c, const struct proc *p)
{
	char label[512];
	proc_label(p, label, sizeof(label));
	meta(c, "process_name", p->index, -1, "name", label, 0);
	meta(c, "process_sort_index", p->index, -1, "sort_index", NULL, p->index);
	char *cmd = proc_command(p, 400);
	if (cmd && *cmd)
		meta(c, "process_labels", p->index, -1, "labels", cmd, 0);
	free(cmd);
	if (p->had_steps) {
		struct track s = tracks_steps(c->tracks, p);
		meta(c, "thread_name", s.pid, s.tid, "name", "steps", 0);
		meta(c, "thread_sort_index", s.pid, s.tid, "sort_index", NULL, -1);
	}
}

static void destroy(struct chrome *c)
{
	chrome_nccl_flush(c);
	tracks_free(c->tracks);
	free(c->path);
	free(c);
}

static int end(void *priv, const struct trace *tr)
{
	struct chrome *c = priv;
	if (c->failed) {
		destroy(c);
		return -1;
	}
	chrome_nccl_flush(c);
	if (c->backward)
		diag_note("NCCL: %llu arrows between ranks not drawn: each would end before it "
			  "starts (the device clocks of two hosts disagree)",
			  (unsigned long long)c->backward);
	for (size_t i = 0; i < tr->nprocs; i++)
		if (tr->procs[i]->events)
			proc_meta(c, tr->procs[i]);
	tracks_metadata(c->tracks, tr, meta, c);
	jw_lit(&c->w, "\n],\"otherData\":{\"producer\":\"tprof " PACKAGE_VERSION "\",\"trace_start_realtime_ns\":");
	jw_i64(&c->w, tr->start_ns);
	jw_lit(&c->w, "}}\n");
	int rc = jw_close(&c->w);
	if (rc < 0)
		diag_error("error writing %s", c->path);
	destroy(c);
	return rc;
}

static const struct output_ops chrome_ops = { "chrome", begin, event, end };

struct output output_chrome(const char *path, int group_by)
{
	struct chrome *c = calloc(1, sizeof(*c));
	if (!c)
		abort();
	c->path = strdup(path);
	c->tracks = tracks_new(group_by);
	return (struct output){ &chrome_ops, c };
}
