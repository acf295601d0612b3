/* runtimes/device/summary.c — the summary's device tables: per device the busy share of the covered
 * time (the union of its spans) and a histogram of the idle gaps between them; the kernels
 * by total time; copies by direction with bytes and bandwidth; kernels by the function that
 * launched them (TPROF_CALLSTACK).  A device's operations arrive in launch order; none starts
 * before its launch, so the latest launch seen is a watermark below which a small heap
 * releases operations in start order, and the union is swept as they come. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../common/xalloc.h"
#include "summary.h"
#include "../../summary/busy.h"
#include "../../summary/table.h"
#include "../../util/grow.h"
#include "../../util/pack.h"

static const int64_t gap_edges[] = { 10000, 20000, 50000, 100000, 1000000, 10000000 };
static const char *const gap_names[] = { "< 10 us", "10-20 us", "20-50 us", "50-100 us",
					 "100 us-1 ms", "1-10 ms", "> 10 ms" };
#define NGAPS 7

struct span {
	int64_t t0, t1;
};

struct devstat {
	int proc;                   /* process index */
	uint32_t device;
	struct span *heap;          /* operations not yet swept, by start */
	size_t n, cap;
	int64_t cur0, cur1;         /* the busy interval being grown */
	int open;
	int64_t busy;
	uint64_t ops;
	uint64_t gap_count[NGAPS];
	int64_t gap_total[NGAPS];
};

struct copystat {
	uint64_t calls, bytes;
	int64_t time;
};

struct devsum {
	struct devstat *devs;
	size_t ndevs;
	struct agg *kernels;        /* by name id */
	struct agg *callers;        /* by launching function id */
	size_t cap;
	struct copystat copies[6];
	struct copystat memsets;
};

struct devsum *devsum_new(void)
{
	struct devsum *d = xcalloc(1, sizeof(*d));
	return d;
}

static void heap_push(struct devstat *s, struct span v)
{
	s->heap = util_grow(s->heap, &s->cap, s->n, sizeof(*s->heap), 64);
	size_t i = s->n++;
	while (i && s->heap[(i - 1) / 2].t0 > v.t0) {
		s->heap[i] = s->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	s->heap[i] = v;
}

static struct span heap_pop(struct devstat *s)
{
	struct span top = s->heap[0], last = s->heap[--s->n];
	size_t i = 0;
	for (;;) {
		size_t l = 2 * i + 1, m = l;
		if (l >= s->n)
			break;
		if (l + 1 < s->n && s->heap[l + 1].t0 < s->heap[l].t0)
			m = l + 1;
		if (last.t0 <= s->heap[m].t0)
			break;
		s->heap[i] = s->heap[m];
		i = m;
	}
	if (s->n)
		s->heap[i] = last;
	return top;
}

static void gap(struct devstat *s, int64_t g)
{
	int b = 0;
	while (b < NGAPS - 1 && g >= gap_edges[b])
		b++;
	s->gap_count[b]++;
	s->gap_total[b] = sat_add(s->gap_total[b], g);
}

/* Overlaps shorter than this between consecutive operations are rounding in the device
 * times (float milliseconds), not concurrency: the two are back to back, a gap of 0. */
#define OVERLAP_NOISE 1000

/* The next operation in start order: it overlaps the busy interval (work on another stream
 * ran at the same time) and grows it, or it follows it, after an idle gap that may be 0. */
static void sweep(struct devstat *s, struct span v)
{
	if (s->open && v.t0 < s->cur1 - OVERLAP_NOISE) {
		if (v.t1 > s->cur1)
			s->cur1 = v.t1;
		return;
	}
	if (s->open) {
		s->busy = sat_add(s->busy, s->cur1 - s->cur0);
		gap(s, v.t0 > s->cur1 ? v.t0 - s->cur1 : 0);
		if (v.t0 < s->cur1)
			v.t0 = s->cur1;
	}
	s->cur0 = v.t0;
	s->cur1 = v.t1 > v.t0 ? v.t1 : v.t0;
	s->open = 1;
}

static struct devstat *devstat_of(struct devsum *d, int proc, uint32_t device)
{
	for (size_t i = 0; i < d->ndevs; i++)
		if (d->devs[i].proc == proc && d->devs[i].device == device)
			return &d->devs[i];
	d->devs = xreallocarray(d->devs, d->ndevs + 1, sizeof(*d->devs));
	struct devstat *s = &d->devs[d->ndevs++];
	memset(s, 0, sizeof(*s));
	s->proc = proc;
	s->device = device;
	return s;
}

static void ensure(struct devsum *d, uint32_t id)
{
	if (id < d->cap)
		return;
	size_t n = d->cap ? d->cap : 1024;
	while (n <= id)
		n *= 2;
	d->kernels = xreallocarray(d->kernels, n, sizeof(*d->kernels));
	d->callers = xreallocarray(d->callers, n, sizeof(*d->callers));
	memset(d->kernels + d->cap, 0, (n - d->cap) * sizeof(*d->kernels));
	memset(d->callers + d->cap, 0, (n - d->cap) * sizeof(*d->callers));
	d->cap = n;
}

void devsum_event(struct devsum *d, const struct event *ev)
{
	const struct device_info *di = ev->dev;
	int64_t dur = ev->t1 - ev->t0;
	struct devstat *s = devstat_of(d, ev->proc->index, di->op.device);
	s->ops++;
	heap_push(s, (struct span){ ev->t0, ev->t1 });
	while (s->n && s->heap[0].t0 < di->launch_ns)
		sweep(s, heap_pop(s));
	if (di->kind == TPROF_DEVOP_COPY) {
		struct copystat *c = &d->copies[di->op.copy_kind < 6 ? di->op.copy_kind : 4];
		c->calls++;
		c->bytes += di->op.bytes;
		c->time = sat_add(c->time, dur);
	} else if (di->kind == TPROF_DEVOP_MEMSET) {
		d->memsets.calls++;
		d->memsets.bytes += di->op.bytes;
		d->memsets.time = sat_add(d->memsets.time, dur);
	} else if (di->kind == TPROF_DEVOP_KERNEL) {
		ensure(d, ev->name);
		agg_add(&d->kernels[ev->name], dur);
		if (di->op.caller) {
			ensure(d, di->op.caller);
			agg_add(&d->callers[di->op.caller], dur);
		}
	}
}

static void finish(struct devstat *s)
{
	while (s->n)
		sweep(s, heap_pop(s));
	if (s->open)
		s->busy = sat_add(s->busy, s->cur1 - s->cur0);
	s->open = 0;
}

static void copy_pack(struct pack *b, const struct copystat *c)
{
	pack_u64(b, c->calls);
	pack_u64(b, c->bytes);
	pack_i64(b, c->time);
}

static void copy_merge(struct copystat *c, struct unpack *u)
{
	c->calls += unpack_u64(u);
	c->bytes += unpack_u64(u);
	c->time = sat_add(c->time, unpack_i64(u));
}

void devsum_pack(struct devsum *d, struct pack *b)
{
	pack_u64(b, d->ndevs);
	for (size_t i = 0; i < d->ndevs; i++) {
		struct devstat *s = &d->devs[i];
		finish(s);
		pack_i64(b, s->proc);
		pack_u64(b, s->device);
		pack_i64(b, s->busy);
		pack_u64(b, s->ops);
		for (int g = 0; g < NGAPS; g++) {
			pack_u64(b, s->gap_count[g]);
			pack_i64(b, s->gap_total[g]);
		}
	}
	aggs_pack(b, d->kernels, d->cap);
	aggs_pack(b, d->callers, d->cap);
	for (int k = 0; k < 6; k++)
		copy_pack(b, &d->copies[k]);
	copy_pack(b, &d->memsets);
}

/* Another analysis process's devices are other processes' devices: rows of their own. */
void devsum_merge(struct devsum *d, struct unpack *u)
{
	for (size_t i = 0, n = unpack_count(u, (4 + 2 * NGAPS) * sizeof(uint64_t)); i < n; i++) {
		int proc = (int)unpack_i64(u);
		struct devstat *s = devstat_of(d, proc, (uint32_t)unpack_u64(u));
		s->busy = sat_add(s->busy, unpack_i64(u));
		s->ops += unpack_u64(u);
		for (int g = 0; g < NGAPS; g++) {
			s->gap_count[g] += unpack_u64(u);
			s->gap_total[g] = sat_add(s->gap_total[g], unpack_i64(u));
		}
	}
	struct agg a;
	for (size_t i = 0, n = aggs_unpack_count(u); i < n; i++) {
		uint32_t id = agg_unpack(u, &a);
		ensure(d, id);
		agg_merge(&d->kernels[id], &a);
	}
	for (size_t i = 0, n = aggs_unpack_count(u); i < n; i++) {
		uint32_t id = agg_unpack(u, &a);
		ensure(d, id);
		agg_merge(&d->callers[id], &a);
	}
	for (int k = 0; k < 6; k++)
		copy_merge(&d->copies[k], u);
	copy_merge(&d->memsets, u);
}

static void devices_table(struct sumw *w, struct devsum *d, const struct sum_span *span)
{
	static const struct busy_names names = { "devices", "Devices", "devices", "Ops", "ops",
						 "Device", "device", "GPU" };
	struct busy_row *rows = xmallocarray(d->ndevs + 1, sizeof(*rows));
	for (size_t i = 0; i < d->ndevs; i++)
		rows[i] = (struct busy_row){ d->devs[i].proc, d->devs[i].device, d->devs[i].busy,
					     d->devs[i].ops };
	busy_table(w, &names, rows, d->ndevs, span);
	free(rows);
}

/* The idle gaps by bucket (rows), each with a count and a total per device (the devices
 * table's order).  With more devices than --ranks shows, the text has instead a column of
 * all devices together and one naming the device with the largest total in the bucket. */
static void gaps_table(struct sumw *w, struct devsum *d)
{
	int all = !w->rank_rows || d->ndevs <= w->rank_rows;
	sw_obj(w, "idle_gaps");
	sw_if(w, d->ndevs > 0);
	sw_text(w, "\nIdle gaps between device work\n%-12s", "Gap");
	for (size_t i = 0; all && i < d->ndevs; i++) {
		char h[32];
		snprintf(h, sizeof(h), "GPU %u (p%d)", d->devs[i].device, d->devs[i].proc);
		sw_text(w, " %10s %12s", h, "total");
	}
	if (!all)
		sw_text(w, " %10s %12s %12s  %s", "All GPUs", "total", "Most", "on");
	sw_text(w, "\n");
	sw_endif(w);
	sw_arr(w, "rows");
	for (int g = 0; g < NGAPS; g++) {
		sw_obj(w, NULL);
		sw_if(w, d->ndevs > 0);
		sw_str(w, "%-12s", "gap", gap_names[g]);
		sw_i64(w, NULL, "from_ns", g ? gap_edges[g - 1] : 0);
		if (g < NGAPS - 1)
			sw_i64(w, NULL, "to_ns", gap_edges[g]);
		else
			sw_null(w, NULL, "to_ns", NULL);
		sw_arr(w, "devices");
		uint64_t count = 0;
		int64_t total = 0;
		size_t most = 0;
		for (size_t i = 0; i < d->ndevs; i++) {
			const struct devstat *s = &d->devs[i];
			count += s->gap_count[g];
			total = sat_add(total, s->gap_total[g]);
			if (s->gap_total[g] > d->devs[most].gap_total[g])
				most = i;
			sw_obj(w, NULL);
			sw_if(w, all);
			sw_count(w, " %10s", "count", s->gap_count[g]);
			sw_dur(w, " %12s", "total_ns", s->gap_total[g]);
			sw_endif(w);
			sw_close(w);
		}
		sw_close(w);
		if (!all && !w->json) {
			char c[32], t[32], m[32];
			const struct devstat *s = &d->devs[most];
			sw_text(w, " %10s %12s %12s  ", fmt_count(count, c, sizeof(c)),
				fmt_dur(total, t, sizeof(t)), fmt_dur(s->gap_total[g], m, sizeof(m)));
			if (s->gap_total[g])
				sw_text(w, "GPU %u (p%d)", s->device, s->proc);
			else
				sw_text(w, "-");
		}
		sw_text(w, "\n");
		sw_endif(w);
		sw_close(w);
	}
	sw_close(w);
	sw_close(w);
}

static void copies_table(struct sumw *w, struct devsum *d)
{
	static const char *const names[] = { "host to host", "host to device", "device to host",
					     "device to device", "default", "peer" };
	int any = d->memsets.calls != 0;
	for (int k = 0; k < 6; k++)
		any |= d->copies[k].calls != 0;
	sw_obj(w, "copies");
	sw_if(w, any);
	sw_text(w, "\nCopies and memsets\n%10s %14s %12s %10s  %s\n", "Calls", "Bytes", "Time",
		"GB/s", "Direction");
	sw_endif(w);
	sw_arr(w, "rows");
	for (int k = 0; k <= 6; k++) {
		const struct copystat *c = k < 6 ? &d->copies[k] : &d->memsets;
		if (!c->calls)
			continue;
		sw_obj(w, NULL);
		sw_count(w, "%10s ", "calls", c->calls);
		sw_count(w, "%14s ", "bytes", c->bytes);
		sw_dur(w, "%12s ", "time_ns", c->time);
		sw_real(w, "%10.2f  ", "bandwidth_GBps",
			c->time > 0 ? (double)c->bytes / (double)c->time : 0.0);
		sw_str(w, "%s\n", "direction", k < 6 ? names[k] : "memset");
		sw_close(w);
	}
	sw_close(w);
	sw_close(w);
}

/* Devices in the order of their processes, then of their numbers, whatever order their first
 * operations came in. */
static int by_device(const void *a, const void *b)
{
	const struct devstat *x = a, *y = b;
	if (x->proc != y->proc)
		return x->proc < y->proc ? -1 : 1;
	return x->device < y->device ? -1 : x->device > y->device;
}

void devsum_end(struct devsum *d, struct sumw *w, const struct sum_span *span, int top)
{
	for (size_t i = 0; i < d->ndevs; i++)
		finish(&d->devs[i]);
	if (d->ndevs > 1)
		qsort(d->devs, d->ndevs, sizeof(*d->devs), by_device);
	devices_table(w, d, span);
	gaps_table(w, d);
	time_table_print(w, "kernels", "Kernels", d->kernels, d->cap, top);
	time_table_print(w, "kernels_by_caller", "Kernels by launching function (TPROF_CALLSTACK)",
			 d->callers, d->cap, top);
	copies_table(w, d);
	for (size_t i = 0; i < d->ndevs; i++)
		free(d->devs[i].heap);
	free(d->devs);
	free(d->kernels);
	free(d->callers);
	free(d);
}
