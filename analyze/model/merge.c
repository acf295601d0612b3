/* merge.c — the k-way merge: every thread stream is already in time order, so a binary heap
 * keyed on each stream's next record yields one time-ordered sequence for the whole trace
 * with memory proportional to the number of streams. */
#include <stdlib.h>

#include "output.h"
#include "../util/progress.h"

struct heap {
	struct stream **v;
	size_t n;
};

static int before(const struct stream *a, const struct stream *b)
{
	return a->ns < b->ns || (a->ns == b->ns && a < b);
}

static void sift_down(struct heap *h, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		if (l < h->n && before(h->v[l], h->v[m]))
			m = l;
		if (l + 1 < h->n && before(h->v[l + 1], h->v[m]))
			m = l + 1;
		if (m == i)
			return;
		struct stream *t = h->v[i];
		h->v[i] = h->v[m];
		h->v[m] = t;
		i = m;
	}
}

static int advance(struct stream *s)
{
	if (!stream_next(s))
		return 0;
	s->ns = timebase_global(&s->proc->tb, s->rec->t0, &s->tb_cursor);
	return 1;
}

int merge_run(struct trace *tr, struct pipeline *pl)
{
	struct heap h = { NULL, 0 };
	size_t cap = 0;
	uint64_t total = 0;
	for (size_t i = 0; i < tr->nprocs; i++) {
		struct proc *p = tr->procs[i];
		for (size_t id = 1; id < p->nstreams; id++) {
			struct stream *s = p->streams[id];
			if (!s || !s->thread)
				continue;
			total += stream_records(s);
			stream_rewind(s);
			if (!advance(s))
				continue;
			if (h.n == cap) {
				cap = cap ? cap * 2 : 64;
				h.v = realloc(h.v, cap * sizeof(*h.v));
				if (!h.v)
					abort();
			}
			h.v[h.n++] = s;
		}
	}
	for (size_t i = h.n; i-- > 0;)
		sift_down(&h, i);
	/* One compare per record; the clock is read only past the mark. */
	uint64_t n = 0, mark = progress_begin("merging", total, PROGRESS_RECORDS);
	while (h.n) {
		struct stream *s = h.v[0];
		pipeline_record(pl, s, s->rec, s->ns);
		if (!advance(s))
			h.v[0] = h.v[--h.n];
		sift_down(&h, 0);
		if (++n >= mark)
			mark = progress_at(n);
	}
	progress_end();
	free(h.v);
	pipeline_finish(pl);
	return 0;
}
