/* runtimes/import/summary.c — "Framework ops": the imported slices by name, with their count,
 * total time (inclusive) and self time (less the slices nested in them on their thread), top
 * N by self time.  A slice's children close before it, so self time needs only, per thread
 * and depth, the sum of the children closed since. */
#include <stdlib.h>
#include <string.h>

#include "../../../common/xalloc.h"
#include "../../summary/table.h"
#include "../../summary/write.h"
#include "../../util/strings.h"
#include "../../util/grow.h"
#include "../../util/pack.h"
#include "../../util/satarith.h"
#include "../../util/u64map.h"
#include "import.h"

struct op {
	uint32_t name;
	uint64_t count;
	int64_t total, self;
};

struct depth_sums {
	const struct thread *t;
	int64_t *child;                  /* per depth: children's time closed since */
	size_t cap;
};

struct impsum {
	struct op *ops;
	size_t nops, capops;
	uint32_t *index;                 /* by name string id: 1 + index into ops, 0: none */
	size_t nindex;
	struct depth_sums *threads;
	size_t nthreads, capthreads, last;
	struct u64map thread_of;         /* thread address -> index in threads */
	int64_t total;
};

void *imp_sum_new(void)
{
	struct impsum *s = xcalloc(1, sizeof(*s));
	return s;
}

static struct op *op_of(struct impsum *s, uint32_t name)
{
	s->index = util_grow_index(s->index, &s->nindex, name, sizeof(*s->index), 1024, 0);
	if (!s->index[name]) {
		s->ops = util_grow(s->ops, &s->capops, s->nops, sizeof(*s->ops), 256);
		s->ops[s->nops] = (struct op){ .name = name };
		s->index[name] = (uint32_t)++s->nops;
	}
	return &s->ops[s->index[name] - 1];
}

static struct depth_sums *sums_of(struct impsum *s, const struct thread *t, size_t depth)
{
	struct depth_sums *d = NULL;
	if (s->last < s->nthreads && s->threads[s->last].t == t)
		d = &s->threads[s->last];
	uint32_t *v = d ? NULL : u64map_get(&s->thread_of, (uint64_t)(uintptr_t)t);
	if (v)
		d = &s->threads[s->last = *v];
	if (!d) {
		u64map_put(&s->thread_of, (uint64_t)(uintptr_t)t, (uint32_t)s->nthreads);
		s->threads = util_grow(s->threads, &s->capthreads, s->nthreads, sizeof(*s->threads), 16);
		d = &s->threads[s->last = s->nthreads++];
		*d = (struct depth_sums){ .t = t };
	}
	d->child = util_grow_index(d->child, &d->cap, depth + 1, sizeof(*d->child), 4, 0);
	return d;
}

void imp_sum_event(void *priv, const struct event *ev)
{
	struct impsum *s = priv;
	if (!ev->imp || ev->kind != EV_RANGE)
		return;
	/* times from a file: sums held at the end of the range */
	int64_t dur = sat_sub(ev->t1, ev->t0);
	struct depth_sums *d = sums_of(s, ev->thread, ev->depth);
	int64_t children = d->child[ev->depth + 1];
	d->child[ev->depth + 1] = 0;
	d->child[ev->depth] = sat_add(d->child[ev->depth], dur);
	if (ev->imp->is_step)
		return;   /* steps are in the Steps table (tprof's or the file's own) */
	struct op *o = op_of(s, ev->name);
	o->count++;
	o->total = sat_add(o->total, dur);
	o->self = sat_add(o->self, dur > children ? dur - children : 0);
	if (ev->depth == 0)
		s->total = sat_add(s->total, dur);
}

static int by_self(const void *a, const void *b)
{
	const struct op *x = a, *y = b;
	if (x->self != y->self)
		return x->self > y->self ? -1 : 1;
	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return strcmp(strings_get(x->name), strings_get(y->name));
}

void imp_sum_pack(void *priv, const struct sum_span *span, struct pack *b)
{
	struct impsum *s = priv;
	(void)span;
	pack_i64(b, s->total);
	pack_u64(b, s->nops);
	for (size_t i = 0; i < s->nops; i++) {
		pack_name(b, s->ops[i].name);
		pack_u64(b, s->ops[i].count);
		pack_i64(b, s->ops[i].total);
		pack_i64(b, s->ops[i].self);
	}
}

void imp_sum_merge(void *priv, const struct sum_span *span, struct unpack *u)
{
	struct impsum *s = priv;
	(void)span;
	s->total = sat_add(s->total, unpack_i64(u));
	for (size_t i = 0, n = unpack_count(u, 4 * sizeof(uint64_t)); i < n; i++) {
		struct op *o = op_of(s, unpack_name(u));
		o->count += unpack_u64(u);
		o->total = sat_add(o->total, unpack_i64(u));
		o->self = sat_add(o->self, unpack_i64(u));
	}
}

void imp_sum_end(void *priv, struct sumw *w, const struct sum_span *span, int top)
{
	struct impsum *s = priv;
	int64_t self_all = 0;
	(void)span;
	for (size_t i = 0; i < s->nops; i++)
		self_all = sat_add(self_all, s->ops[i].self);
	if (s->nops > 1)
		qsort(s->ops, s->nops, sizeof(*s->ops), by_self);
	sw_obj(w, "framework_ops");
	sw_if(w, s->nops > 0);
	sw_text(w, "\nFramework ops (imported slices by name; self: less the slices inside them)\n"
		"%10s %12s %8s %12s %12s  %s\n", "Count", "Self", "Self(%)", "Total", "Avg", "Op");
	sw_endif(w);
	sw_arr(w, "rows");
	size_t shown = top > 0 && (size_t)top < s->nops ? (size_t)top : s->nops;
	for (size_t i = 0; i < shown; i++) {
		const struct op *o = &s->ops[i];
		sw_obj(w, NULL);
		sw_count(w, "%10s ", "count", o->count);
		sw_dur(w, "%12s ", "self_ns", o->self);
		sw_real(w, "%6.2f %% ", "self_pct",
			self_all ? 100.0 * (double)o->self / (double)self_all : 0.0);
		sw_dur(w, "%12s ", "total_ns", o->total);
		sw_dur(w, "%12s  ", "avg_ns", o->count ? o->total / (int64_t)o->count : 0);
		sw_name(w, "name", strings_get(o->name));
		sw_close(w);
	}
	sw_close(w);
	table_more(w, s->nops - shown);
	sw_close(w);
	for (size_t i = 0; i < s->nthreads; i++)
		free(s->threads[i].child);
	u64map_free(&s->thread_of);
	free(s->threads);
	free(s->ops);
	free(s->index);
	free(s);
}
