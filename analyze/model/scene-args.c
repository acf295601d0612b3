/* scene-args.c — the generic arguments of API calls and device operations (scene-args.h),
 * in the order viewers show them. */
#include "scene-args.h"

static const char *const copy_kind[] = { "HtoH", "HtoD", "DtoH", "DtoD", "default", "peer" };

void scene_dims_args(struct scene_args *a, const struct tprof_launch_dims *d)
{
	sa_arr(a, "grid");
	for (int i = 0; i < 3; i++)
		sa_u64(a, NULL, d->grid[i]);
	sa_end(a);
	sa_arr(a, "block");
	for (int i = 0; i < 3; i++)
		sa_u64(a, NULL, d->block[i]);
	sa_end(a);
	sa_u64(a, "shmem", d->shmem);
}

static void shaped_args(struct scene_args *a, const struct tprof_call_args *c)
{
	if (c->device != 0xffff)
		sa_u64(a, "device", c->device);
	if (c->shape == TPROF_SHAPE_LAUNCH || c->stream || c->shape == TPROF_SHAPE_COPY ||
	    c->shape == TPROF_SHAPE_MEMSET)
		sa_hex(a, "stream", c->stream);
	switch (c->shape) {
	case TPROF_SHAPE_COPY:
		sa_u64(a, "bytes", c->a);
		sa_str(a, "kind", copy_kind[c->b < 6 ? c->b : 4]);
		break;
	case TPROF_SHAPE_MEMSET:
		sa_u64(a, "bytes", c->a);
		break;
	case TPROF_SHAPE_ALLOC:
		sa_u64(a, "bytes", c->a);
		sa_hex(a, "ptr", c->b);
		break;
	case TPROF_SHAPE_FREE:
		sa_hex(a, "ptr", c->b);
		break;
	case TPROF_SHAPE_LAUNCH:
		sa_name(a, "kernel", c->name);
		break;
	case TPROF_SHAPE_SYNC:
	case TPROF_SHAPE_OBJECT:
		if (c->b)
			sa_hex(a, "handle", c->b);
		break;
	}
}

void scene_call_args(struct scene_args *a, const struct event *ev)
{
	const struct call_info *ci = ev->call;
	if (ci->corr)
		sa_u64(a, "correlation", ci->corr);
	if (ci->ret)
		sa_u64(a, "returned", (uint64_t)ci->ret);
	if (ci->has_args)
		shaped_args(a, &ci->args);
	if (ci->has_dims)
		scene_dims_args(a, &ci->dims);
}

/* A run of unsuccessful polls: how many calls, their time inside the calls (the span also
 * holds what the program did between them) and, when several functions took turns, each
 * one's share. */
static void poll_args(struct scene_args *a, const struct poll_info *pi)
{
	sa_u64(a, "polls", pi->polls);
	sa_us(a, "time in calls (us)", pi->busy);
	if (pi->n < 2)
		return;
	sa_obj(a, "functions");
	for (unsigned i = 0; i < pi->n; i++) {
		sa_obj_named(a, pi->fn[i].name);
		sa_u64(a, "polls", pi->fn[i].count);
		sa_us(a, "time in calls (us)", pi->fn[i].busy);
		sa_end(a);
	}
	sa_end(a);
}

void scene_call_tail_args(struct scene_args *a, const struct event *ev)
{
	const struct call_info *ci = ev->call;
	if (ci->poll)
		poll_args(a, ci->poll);
	if (ci->nstack) {
		sa_arr(a, "stack");
		for (uint32_t i = 0; i < ci->nstack; i++)
			sa_name(a, NULL, ci->stack[i]);
		sa_end(a);
	}
	scene_args_flags(a, ev->flags);
}

void scene_device_args(struct scene_args *a, const struct event *ev)
{
	const struct device_info *di = ev->dev;
	int copy = di->kind == TPROF_DEVOP_COPY || di->kind == TPROF_DEVOP_MEMSET;
	sa_u64(a, "device", di->op.device);
	sa_hex(a, "stream", di->op.stream);
	if (di->corr)
		sa_u64(a, "correlation", di->corr);
	if (di->kind == TPROF_DEVOP_KERNEL)
		scene_dims_args(a, &di->op.dims);
	if (copy) {
		sa_u64(a, "bytes", di->op.bytes);
		if (di->kind == TPROF_DEVOP_COPY)
			sa_str(a, "kind", copy_kind[di->op.copy_kind < 6 ? di->op.copy_kind : 4]);
		int64_t dur = ev->t1 - ev->t0;
		if (dur > 0)
			sa_double(a, "GB/s", (double)di->op.bytes / (double)dur);
	}
	if (di->op.caller)
		sa_name(a, "caller", di->op.caller);
	scene_args_flags(a, ev->flags);
}
