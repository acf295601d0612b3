/* summary/procs.c — the summary's rows of processes (procs.h). */
#include <stdlib.h>
#include <string.h>

#include "../../common/xalloc.h"
#include "../read/import-image.h"
#include "../util/pack.h"
#include "procs.h"

/* A process made for a followed one that recorded no image is listed when it had events. */
static int listed(const struct proc *p)
{
	return (!p->made || p->events) && !(p->imp && p->imp->home);
}

/* Whether p is folded into a process with a thread of that tid (the same thread, whose
 * imported events are drawn beside its own). */
static int home_has(const struct proc *p, int32_t tid)
{
	const struct proc *h = p->imp ? p->imp->home : NULL;
	for (size_t k = 1; h && k < h->nstreams; k++)
		if (h->threads[k] && h->threads[k]->tid == tid)
			return 1;
	return 0;
}

static uint64_t drop_total(const struct drop_count *d)
{
	uint64_t n = 0;
	for (int r = 1; r < 8; r++)
		n += d->count[r];
	return n;
}

static void add_loss(struct sum_proc *r, int has_stream, uint64_t stream, int64_t tid,
		     const char *name, const struct drop_count *d)
{
	r->losses = xreallocarray(r->losses, r->nlosses + 1, sizeof(*r->losses));
	r->losses[r->nlosses++] = (struct sum_loss){ has_stream, stream, tid, xstrdup(name), *d };
}

static void row_of(struct sum_proc *r, const struct proc *p)
{
	char label[512];
	memset(r, 0, sizeof(*r));
	r->index = p->index;
	r->rank = p->rank;
	r->pid = p->pid;
	r->start_ns = p->start_ns;
	r->end_ns = p->end_ns;
	r->host = xstrdup(p->host ? strings_get(p->host) : "?");
	r->label = xstrdup(proc_label(p, label, sizeof(label)));
	int live = !p->ended && p->writer == WRITER_LIVE;
	r->flags = (listed(p) ? SP_LISTED : 0) | (p->ended ? SP_ENDED : 0) |
		   (!p->ended && p->from_spool ? SP_FROM_SPOOL : 0) | (live ? SP_LIVE : 0) |
		   (p->sys ? SP_SYSTEM : 0) | (p->made ? SP_MADE : 0) | (p->imp ? SP_IMPORTED : 0);
	for (size_t k = 1; k < p->nstreams; k++) {
		const struct thread *t = p->threads[k];
		if (!t)
			continue;
		r->records += t->events;
		/* a system image's streams are no threads; the threads its records belong to
		 * are counted where they were seen */
		r->threads += !p->sys && (t->events || t->seen) && !home_has(p, t->tid);
		if (drop_total(drops_of(t->drops)))
			add_loss(r, 1, thread_stream_id(t), t->tid, t->name ? strings_get(t->name) : "",
				 drops_of(t->drops));
	}
	for (size_t k = 0; k < p->nunreg; k++)
		add_loss(r, 0, 0, p->unreg[k].tid, "", &p->unreg[k].drops);
	r->drops = *drops_of(p->drops);
	r->stream0 = *drops_of(p->stream0);
	r->unattributed = *drops_of(p->unattributed);
}

static int by_index(const void *a, const void *b)
{
	const struct sum_proc *x = a, *y = b;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* The folded imports' files, to their homes: in the order of the imports' numbers. */
static void add_imports(struct sum_procs *s, const struct trace *tr)
{
	for (size_t i = 0; i < tr->nprocs; i++) {
		const struct proc *q = tr->procs[i];
		if (!q->imp || !q->imp->home)
			continue;
		struct sum_proc *h = (struct sum_proc *)sum_procs_at(s, q->imp->home->index);
		if (!h)
			continue;
		const char *src = q->imp->source ? strings_get(q->imp->source) : "?";
		const char *base = strrchr(src, '/');
		h->imported = xreallocarray(h->imported, h->nimported + 1, sizeof(*h->imported));
		h->imported[h->nimported++] = xstrdup(base ? base + 1 : src);
	}
}

void sum_procs_of(struct sum_procs *s, const struct trace *tr)
{
	s->v = xmallocarray(tr->nprocs + 1, sizeof(*s->v));
	s->n = tr->nprocs;
	for (size_t i = 0; i < tr->nprocs; i++)
		row_of(&s->v[i], tr->procs[i]);
	sum_procs_sort(s);
	add_imports(s, tr);
}

static void pack_drops(struct pack *b, const struct drop_count *d)
{
	pack_bytes(b, d->count, sizeof(d->count));
}

static void unpack_drops(struct unpack *u, struct drop_count *d)
{
	unpack_bytes(u, d->count, sizeof(d->count));
}

void sum_procs_pack(const struct sum_procs *s, struct pack *b)
{
	pack_u64(b, s->n);
	for (size_t i = 0; i < s->n; i++) {
		const struct sum_proc *r = &s->v[i];
		pack_i64(b, r->index);
		pack_i64(b, r->rank);
		pack_i64(b, r->pid);
		pack_i64(b, r->start_ns);
		pack_i64(b, r->end_ns);
		pack_str(b, r->host);
		pack_str(b, r->label);
		pack_u64(b, r->flags);
		pack_u64(b, r->records);
		pack_u64(b, r->threads);
		pack_drops(b, &r->drops);
		pack_drops(b, &r->stream0);
		pack_drops(b, &r->unattributed);
		pack_u64(b, r->nlosses);
		for (size_t k = 0; k < r->nlosses; k++) {
			const struct sum_loss *l = &r->losses[k];
			pack_i64(b, l->has_stream);
			pack_u64(b, l->stream);
			pack_i64(b, l->tid);
			pack_str(b, l->name);
			pack_drops(b, &l->d);
		}
		pack_u64(b, r->nimported);
		for (size_t k = 0; k < r->nimported; k++)
			pack_str(b, r->imported[k]);
	}
}

void sum_procs_unpack(struct sum_procs *s, struct unpack *u)
{
	size_t n = unpack_count(u, 14 * sizeof(uint64_t));
	s->v = xreallocarray(s->v, s->n + n + 1, sizeof(*s->v));
	for (size_t i = 0; i < n && !u->short_read; i++) {
		struct sum_proc *r = &s->v[s->n++];
		memset(r, 0, sizeof(*r));
		r->index = unpack_i64(u);
		r->rank = unpack_i64(u);
		r->pid = unpack_i64(u);
		r->start_ns = unpack_i64(u);
		r->end_ns = unpack_i64(u);
		r->host = unpack_strdup(u);
		r->label = unpack_strdup(u);
		r->flags = (unsigned)unpack_u64(u);
		r->records = unpack_u64(u);
		r->threads = unpack_u64(u);
		unpack_drops(u, &r->drops);
		unpack_drops(u, &r->stream0);
		unpack_drops(u, &r->unattributed);
		r->nlosses = unpack_count(u, 4 * sizeof(uint64_t));
		r->losses = xmallocarray(r->nlosses + 1, sizeof(*r->losses));
		for (size_t k = 0; k < r->nlosses; k++) {
			struct sum_loss *l = &r->losses[k];
			l->has_stream = (int)unpack_i64(u);
			l->stream = unpack_u64(u);
			l->tid = unpack_i64(u);
			l->name = unpack_strdup(u);
			unpack_drops(u, &l->d);
		}
		r->nimported = unpack_count(u, sizeof(uint64_t));
		r->imported = xmallocarray(r->nimported + 1, sizeof(*r->imported));
		for (size_t k = 0; k < r->nimported; k++)
			r->imported[k] = unpack_strdup(u);
	}
}

void sum_procs_sort(struct sum_procs *s)
{
	if (s->n > 1)
		qsort(s->v, s->n, sizeof(*s->v), by_index);
}

const struct sum_proc *sum_procs_at(const struct sum_procs *s, int64_t index)
{
	size_t lo = 0, hi = s->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->v[mid].index == index)
			return &s->v[mid];
		if (s->v[mid].index < index)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

void sum_procs_free(struct sum_procs *s)
{
	for (size_t i = 0; i < s->n; i++) {
		struct sum_proc *r = &s->v[i];
		free(r->host);
		free(r->label);
		for (size_t k = 0; k < r->nlosses; k++)
			free(r->losses[k].name);
		free(r->losses);
		for (size_t k = 0; k < r->nimported; k++)
			free(r->imported[k]);
		free(r->imported);
	}
	free(s->v);
	*s = (struct sum_procs){ 0 };
}
