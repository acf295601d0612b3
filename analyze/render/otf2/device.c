/* render/otf2/device.c — one location per (process, device, stream) for the work devices ran:
 * kernels, copies, memsets, as regions with their launch's correlation id, grid and block,
 * bytes.  Operations arrive in launch order, not start order; none starts before its
 * launch, so the launch of each new arrival is a watermark below which a small heap per
 * stream releases operations in start order (as the summary does). */
#include <stdlib.h>

#include "state.h"

static struct loc *stream_loc(struct otf2 *o, struct proc *p, uint32_t device, uint64_t stream)
{
	struct pstate *ps = otf2_pstate(o, p);
	int n = 0;
	for (size_t i = 0; i < ps->ndevs; i++) {
		if (ps->devs[i]->device != device)
			continue;
		if (ps->devs[i]->stream == stream)
			return ps->devs[i];
		n++;
	}
	ps->devs = realloc(ps->devs, (ps->ndevs + 1) * sizeof(*ps->devs));
	if (!ps->devs)
		abort();
	struct loc *l = otf2_loc_new(o, LOC_DEVICE, p);
	l->device = device;
	l->stream = stream;
	/* Streams are numbered per device in the order they first appear, as in Chrome. */
	l->stream_no = stream ? n + 1 : 0;
	ps->devs[ps->ndevs++] = l;
	return l;
}

static void heap_push(struct loc *l, const struct devop *v)
{
	if (l->nheap == l->capheap) {
		l->capheap = l->capheap ? l->capheap * 2 : 16;
		l->heap = realloc(l->heap, l->capheap * sizeof(*l->heap));
		if (!l->heap)
			abort();
	}
	size_t i = l->nheap++;
	while (i && l->heap[(i - 1) / 2].t0 > v->t0) {
		l->heap[i] = l->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	l->heap[i] = *v;
}

static struct devop heap_pop(struct loc *l)
{
	struct devop top = l->heap[0], last = l->heap[--l->nheap];
	size_t i = 0;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= l->nheap)
			break;
		if (c + 1 < l->nheap && l->heap[c + 1].t0 < l->heap[c].t0)
			c++;
		if (last.t0 <= l->heap[c].t0)
			break;
		l->heap[i] = l->heap[c];
		i = c;
	}
	if (l->nheap)
		l->heap[i] = last;
	return top;
}

/* One operation: Enter with its attributes, Leave (the pipeline hands a stream's operations
 * over one after the other: devorder.c). */
static void write_op(struct otf2 *o, struct loc *l, const struct devop *v)
{
	OTF2_AttributeList *a = o->attrs;
	struct otf2_defs *d = o->defs;
	OTF2_AttributeList_AddUint32(a, otf2_attr(d, A_DEVICE), v->device);
	OTF2_AttributeList_AddUint64(a, otf2_attr(d, A_STREAM), v->stream);
	if (v->corr)
		OTF2_AttributeList_AddUint64(a, otf2_attr(d, A_CORR), v->corr);
	if (v->kind == TPROF_DEVOP_KERNEL)
		otf2_attr_dims(o, &v->dims);
	else if (v->kind == TPROF_DEVOP_COPY)
		otf2_attr_copy(o, v->bytes, v->copy_kind);
	else if (v->kind == TPROF_DEVOP_MEMSET)
		OTF2_AttributeList_AddUint64(a, otf2_attr(d, A_BYTES), v->bytes);
	if (v->caller)
		OTF2_AttributeList_AddStringRef(a, otf2_attr(d, A_CALLER), otf2_tstr(d, v->caller));
	otf2_attr_flags(o, v->flags);
	otf2_enter(o, l, v->t0, v->region);
	otf2_leave(o, l, v->t1, v->region);
}

void otf2_device_event(struct otf2 *o, const struct event *ev)
{
	const struct device_info *di = ev->dev;
	struct loc *l = stream_loc(o, ev->proc, di->op.device, di->op.stream);
	int kind = di->kind < 8 ? di->kind : 0;
	struct devop v = {
		.t0 = ev->t0, .t1 = ev->t1 < ev->t0 ? ev->t0 : ev->t1,
		.region = otf2_region(o->defs, ev->name, RC_DEVICE + kind),
		.kind = (uint8_t)kind, .copy_kind = (uint8_t)(di->op.copy_kind < 6 ? di->op.copy_kind : 4),
		.flags = ev->flags, .device = di->op.device, .caller = di->op.caller,
		.stream = di->op.stream, .corr = di->corr, .bytes = di->op.bytes, .dims = di->op.dims,
	};
	heap_push(l, &v);
	while (l->nheap && l->heap[0].t0 < di->launch_ns) {
		struct devop top = heap_pop(l);
		write_op(o, l, &top);
	}
}

void otf2_device_finish(struct otf2 *o, struct loc *l)
{
	while (l->nheap) {
		struct devop top = heap_pop(l);
		write_op(o, l, &top);
	}
}
