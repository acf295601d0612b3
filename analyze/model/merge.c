/* merge.c — the k-way merge: every thread stream is already in time order, so a binary heap
 * keyed on each stream's next record yields one time-ordered sequence for the whole trace
 * with memory proportional to the number of streams.  A stream is opened (its reading state
 * and first record) only when it reaches the top, keyed until then by the time its first
 * piece says it begins: a trace of many streams holds readers for those whose times overlap,
 * not for all.  The heap runs ahead on a thread of its own (reading, inflating and decoding
 * the streams with it), handing the records over in batches, while the pipeline takes them on
 * the caller's thread: when the pipeline has enough to do for that to pay, as the first
 * records show. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../common/xalloc.h"
#include "../util/grow.h"
#include "output.h"
#include "../util/handoff.h"
#include "../util/progress.h"

#define BATCH_RECS 4096
#define BATCH_BYTES (256u * 1024)
#define NBATCH 4
#define REC_MAX ((1 + TPROF_MAX_EXT) * TPROF_UNIT)

struct heap {
	struct stream **v;
	size_t n;
};

/* A record of a batch: its stream, its time on the global axis, where its bytes are. */
struct entry {
	struct stream *s;
	int64_t ns;
	size_t off;
};

struct batch {
	struct entry e[BATCH_RECS];
	size_t n;
	uint8_t *bytes;         /* BATCH_BYTES: the records, copied */
	int last;               /* the merge ends with it */
};

/* NBATCH batches in a ring (util/handoff.h): the merge thread fills them, the caller hands
 * each back when its records went through the pipeline. */
struct ahead {
	struct heap *h;
	struct batch b[NBATCH];
	struct handoff ring;
};

/* By time; at one time by process (output order), then stream: the same order every run. */
static int before(const struct stream *a, const struct stream *b)
{
	if (a->ns != b->ns)
		return a->ns < b->ns;
	if (a->proc != b->proc)
		return a->proc->index < b->proc->index;
	return a->id < b->id;
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

/* A stream not yet opened (closed and rewound: no record): its key is when its first piece
 * begins (no later than its first record: a damaged piece only makes it earlier), or the
 * earliest time when that is not known. */
static void pending(struct stream *s)
{
	size_t cursor = 0;
	stream_close(s);
	stream_rewind(s);
	s->ns = s->npieces && s->nsorted == s->npieces
		? timebase_global(&s->proc->tb, s->pieces[0].t_first, &cursor) : INT64_MIN;
}

/* The top of the heap opened, until it holds a record: a stream with none left goes. */
static inline __attribute__((always_inline)) void settle_top(struct heap *h)
{
	while (h->n && !h->v[0]->rec) {
		if (!advance(h->v[0]))
			h->v[0] = h->v[--h->n];
		sift_down(h, 0);
	}
}

/* The heap's next record gone; the stream that held it moves on. */
static inline __attribute__((always_inline)) void pop(struct heap *h)
{
	if (!advance(h->v[0]))
		h->v[0] = h->v[--h->n];
	sift_down(h, 0);
	settle_top(h);
}

/* The merge thread: batches filled while the caller has room for them. */
static void *run_ahead(void *arg)
{
	struct ahead *a = arg;
	struct heap *h = a->h;
	for (;;) {
		struct batch *b = &a->b[handoff_free_slot(&a->ring)];
		size_t used = 0;
		b->n = 0;
		while (h->n && b->n < BATCH_RECS && used + REC_MAX <= BATCH_BYTES) {
			struct stream *s = h->v[0];
			const struct tprof_rec *src = s->rec;
			struct tprof_rec *dst = (struct tprof_rec *)(b->bytes + used);
			unsigned units = 1u + src->ext;
			/* unit by unit: one to three, mostly, where memcpy chose rep movsq */
			for (unsigned u = 0; u < units; u++)
				dst[u] = src[u];
			b->e[b->n++] = (struct entry){ s, s->ns, used };
			used += units * (size_t)TPROF_UNIT;
			pop(h);
		}
		b->last = h->n == 0;
		handoff_filled(&a->ring);
		if (b->last)
			return NULL;
	}
}

/* The batches through the pipeline, as the merge thread fills them: 0, or -1 when the thread
 * could not start (nothing was taken). */
static int merge_ahead(struct heap *h, struct pipeline *pl, uint64_t *n, uint64_t *mark)
{
	struct ahead a = { .h = h };
	pthread_t thread;
	for (int i = 0; i < NBATCH; i++)
		a.b[i].bytes = xmalloc(BATCH_BYTES);
	handoff_init(&a.ring, NBATCH);
	int rc = pthread_create(&thread, NULL, run_ahead, &a) ? -1 : 0;
	for (int last = 0; !rc && !last;) {
		const struct batch *b = &a.b[handoff_full_slot(&a.ring)];
		for (size_t i = 0; i < b->n; i++) {
			const struct entry *e = &b->e[i];
			pipeline_record(pl, e->s, (const struct tprof_rec *)(b->bytes + e->off), e->ns);
			if (++*n >= *mark)
				*mark = progress_at(*n);
		}
		last = b->last;
		handoff_taken(&a.ring);
	}
	if (!rc)
		pthread_join(thread, NULL);
	handoff_destroy(&a.ring);
	for (int i = 0; i < NBATCH; i++)
		free(a.b[i].bytes);
	return rc;
}

static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The first PROBE records on this thread, the pipeline's time measured on one in SAMPLE: 1
 * when it takes SHARE_PCT percent of the whole or more, and the merge should go on a thread
 * of its own (the copies and the handing over cost more than they save when the pipeline has
 * little to do: a --summary of the recorders' own records), and a processor is left for it
 * (0 at once when not: an output's compressor has it).  TPROF_TEST_MERGE_AHEAD=1 or 0
 * decides instead, from the first record (the tests). */
static int probe(struct heap *h, struct pipeline *pl, uint64_t *n, uint64_t *mark)
{
	enum { PROBE = 1 << 16, SAMPLE = 32, SHARE_PCT = 30 };
	const char *force = getenv("TPROF_TEST_MERGE_AHEAD");
	if (force && (force[0] == '0' || force[0] == '1') && !force[1])
		return force[0] == '1';
	if (handoff_cores_left() < 1)
		return 0;       /* no processor for it: an output's compressor has the other */
	/* what reading the clock costs, taken off each sample */
	int64_t clock_cost = INT64_MAX;
	for (int i = 0; i < 16; i++) {
		int64_t t0 = now_ns(), d = now_ns() - t0;
		clock_cost = d < clock_cost ? d : clock_cost;
	}
	int64_t start = now_ns(), in_pipeline = 0;
	for (uint64_t i = 0; h->n && i < PROBE; i++, pop(h)) {
		struct stream *s = h->v[0];
		if (i % SAMPLE == 0) {
			int64_t t0 = now_ns();
			pipeline_record(pl, s, s->rec, s->ns);
			int64_t d = now_ns() - t0 - clock_cost;
			in_pipeline += d > 0 ? d : 0;
		} else {
			pipeline_record(pl, s, s->rec, s->ns);
		}
		if (++*n >= *mark)
			*mark = progress_at(*n);
	}
	return in_pipeline * SAMPLE * 100 >= (now_ns() - start) * SHARE_PCT;
}

int merge_run(struct trace *tr, struct pipeline *pl)
{
	struct heap h = { NULL, 0 };
	size_t cap = 0;
	uint64_t total = 0;
	for (size_t i = 0; i < tr->nprocs; i++) {
		struct proc *p = tr->procs[i];
		p->capture_seen = 0;    /* each run reads the window's changes from the first */
		for (size_t id = 1; id < p->nstreams; id++) {
			struct stream *s = p->streams[id];
			if (!s || !s->thread)
				continue;
			total += stream_records(s);
			pending(s);
			h.v = util_grow(h.v, &cap, h.n, sizeof(*h.v), 64);
			h.v[h.n++] = s;
		}
	}
	for (size_t i = h.n; i-- > 0;)
		sift_down(&h, i);
	settle_top(&h);
	/* One compare per record; the clock is read only past the mark. */
	uint64_t n = 0, mark = progress_begin("merging", total, PROGRESS_RECORDS);
	int ahead = probe(&h, pl, &n, &mark);
	if (!h.n || !ahead || merge_ahead(&h, pl, &n, &mark) < 0) {
		/* nothing left, not worth a thread, or no thread: the heap on this one */
		for (; h.n; pop(&h)) {
			struct stream *s = h.v[0];
			pipeline_record(pl, s, s->rec, s->ns);
			if (++n >= mark)
				mark = progress_at(n);
		}
	}
	progress_end();
	free(h.v);
	pipeline_finish(pl);
	return 0;
}
