/* items.c — the import's items put in order (items.h).  A run is an arena of items and, per
 * stream, an array of small sort keys (time, a tie-breaker, the item's place in the arena): a
 * stream whose items arrived in order is not sorted at all, the others are sorted by a merge
 * sort over their keys alone, and the arena is only read, once, to write the run out in order.
 * Two runs take turns: while one fills, the last full one is sorted and written on a thread of
 * its own (writev straight from the arena).  The last run stays in memory and takes part in
 * the merge of the runs on disk, which are read through a window mapped from each file; the
 * merge runs on a thread of its own, handing the items over in batches (util/handoff.h). */
#include "items.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/uio.h>
#include <unistd.h>

#include "../../common/import-records.h"
#include "../../common/writev-all.h"
#include "../../common/xalloc.h"
#include "../read/trace.h"
#include "../util/grow.h"
#include "../util/handoff.h"
#include "item-code.h"

#define MAX_ITEM (sizeof(struct item) + (TPROF_MAX_EXT - 1) * TPROF_UNIT + TPROF_UNIT)
#define MAX_LEN (MAX_ITEM - sizeof(struct item))   /* payload bytes */
#define MAX_CODED (ITEM_CODE_FIELDS + MAX_LEN)    /* an item in a run on disk */
#define SPILL_BUF (1u << 20)      /* encoded items in one write */
#define WINDOW (4u << 20)         /* of a run file, mapped while it is merged */
#define PREFETCH 8                /* items ahead read into the cache while writing a run */

/* An item's place in its stream's order; unique by off within a run. */
struct key {
	int64_t t;
	uint64_t tie;                   /* cls in the top bits; begins: the longer first */
	uint32_t off;                   /* in the arena: the file's order where all else is equal */
	uint32_t pad;
};

struct istream {
	uint32_t image, stream;
};

/* One stream's keys in a run. */
struct keys {
	struct key *k;
	size_t n, cap;
	int unsorted;                   /* an item arrived before the last one */
};

/* A run in memory: its items, its keys, and the walk through it in order. */
struct mrun {
	uint8_t *arena;
	size_t used, cap;
	struct keys *kv;                /* by stream number */
	size_t nkv, capkv;
	uint32_t *order;                /* stream numbers by (image, stream), at the sort */
	size_t norder;
	struct key *tmp;
	size_t captmp;
	size_t oi, ki;
};

/* A run on disk: items encoded (item-code.h), read through a window. */
struct run {
	int fd;
	uint64_t size;                  /* bytes written */
	uint64_t off;                   /* of the next item */
	uint8_t *map;                   /* [map_off, map_off + map_len) of the file, or NULL */
	uint64_t map_off;
	size_t map_len;
	struct item_coder dec;
	const struct istream *s;        /* the streams' table, for image and stream */
	size_t ns;
	struct item *cur;               /* the item read, its payload after it (MAX_ITEM bytes) */
};

struct items {
	const char *dir;
	struct istream *s;
	size_t ns, caps;
	struct mrun m[2];
	int fill;                       /* the run being filled: m[fill] */
	/* the run being written by the spill thread: m[!fill] */
	pthread_t spiller;
	int spilling;                   /* 0: none, 1: written here, 2: on the thread */
	struct run spilled;             /* its file */
	uint8_t *wbuf;                  /* items encoded for it (SPILL_BUF bytes) */
	char *spill_error;              /* what went wrong, said on the caller's thread */
	struct run *runs;
	size_t nruns;
};

static inline int key_lt(const struct key *a, const struct key *b)
{
	if (a->t != b->t)
		return a->t < b->t;
	if (a->tie != b->tie)
		return a->tie < b->tie;
	return a->off < b->off;
}

static uint64_t tie_of(const struct item *it)
{
	uint64_t t = (uint64_t)(it->cls & 3) << 62;
	if (it->cls == 1) {
		uint64_t d = it->dur > 0 ? (uint64_t)it->dur : 0;
		if (d > (1ull << 62) - 1)
			d = (1ull << 62) - 1;
		t |= (1ull << 62) - 1 - d;
	}
	return t;
}

struct items *items_new(const char *dir, size_t run_bytes)
{
	struct items *x = xcalloc(1, sizeof(*x));
	x->dir = dir;
	x->spilled.fd = -1;
	/* two runs of half the bytes: one fills while the other is written */
	size_t cap = run_bytes / 2 < MAX_ITEM ? MAX_ITEM : run_bytes / 2;
	for (int i = 0; i < 2; i++) {
		x->m[i].cap = cap;
		x->m[i].arena = xmalloc(cap);
	}
	return x;
}

static void mrun_free(struct mrun *m)
{
	for (size_t i = 0; i < m->nkv; i++)
		free(m->kv[i].k);
	free(m->kv);
	free(m->order);
	free(m->tmp);
	free(m->arena);
}

static void run_close(struct run *r)
{
	if (r->map)
		munmap(r->map, r->map_len);
	if (r->fd >= 0)
		close(r->fd);
	free(r->cur);
	memset(r, 0, sizeof(*r));
	r->fd = -1;
}

static int spill_wait(struct items *x);

void items_free(struct items *x)
{
	if (!x)
		return;
	spill_wait(x);
	for (size_t i = 0; i < x->nruns; i++)
		run_close(&x->runs[i]);
	free(x->runs);
	free(x->s);
	free(x->wbuf);
	mrun_free(&x->m[0]);
	mrun_free(&x->m[1]);
	free(x);
}

void items_stream(struct items *x, uint32_t gs, uint32_t image, uint32_t stream)
{
	while (x->ns <= gs) {
		x->s = util_grow(x->s, &x->caps, x->ns, sizeof(*x->s), 16);
		memset(&x->s[x->ns++], 0, sizeof(*x->s));
	}
	x->s[gs].image = image;
	x->s[gs].stream = stream;
}

size_t items_runs(const struct items *x)
{
	return x->nruns + (x->spilling != 0);
}

/* ---- sorting a run ------------------------------------------------------------------------ */

static void insertion(struct key *a, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		if (!key_lt(&a[i], &a[i - 1]))
			continue;
		struct key v = a[i];
		size_t j = i;
		do {
			a[j] = a[j - 1];
			j--;
		} while (j && key_lt(&v, &a[j - 1]));
		a[j] = v;
	}
}

/* Sorts a (n keys) with tmp (room for n): insertion-sorted blocks, then merges of neighbours
 * that are not in order already, the left one copied out first. */
static void sort_keys(struct key *a, size_t n, struct key *tmp)
{
	enum { BLOCK = 32 };
	for (size_t b = 0; b < n; b += BLOCK)
		insertion(a + b, n - b < BLOCK ? n - b : BLOCK);
	for (size_t w = BLOCK; w < n; w *= 2)
		for (size_t lo = 0; lo + w < n; lo += 2 * w) {
			size_t mid = lo + w, hi = lo + 2 * w < n ? lo + 2 * w : n;
			if (!key_lt(&a[mid], &a[mid - 1]))
				continue;
			size_t nl = mid - lo, i = 0, j = mid, o = lo;
			memcpy(tmp, a + lo, nl * sizeof(*a));
			while (i < nl && j < hi)
				a[o++] = key_lt(&a[j], &tmp[i]) ? a[j++] : tmp[i++];
			while (i < nl)
				a[o++] = tmp[i++];
		}
}

static int cmp_streams(const void *pa, const void *pb, void *ctx)
{
	const struct istream *s = ctx;
	const struct istream *a = &s[*(const uint32_t *)pa], *b = &s[*(const uint32_t *)pb];
	if (a->image != b->image)
		return a->image < b->image ? -1 : 1;
	return a->stream < b->stream ? -1 : a->stream > b->stream;
}

/* The order of the run's streams, by (image, stream): on the caller's thread, which owns the
 * streams' table. */
static void order_run(struct items *x, struct mrun *m)
{
	m->order = xreallocarray(m->order, m->nkv ? m->nkv : 1, sizeof(*m->order));
	m->norder = m->nkv;
	for (size_t i = 0; i < m->nkv; i++)
		m->order[i] = (uint32_t)i;
	qsort_r(m->order, m->norder, sizeof(*m->order), cmp_streams, x->s);
	m->oi = m->ki = 0;
}

/* Each stream's keys in order (on whichever thread owns the run). */
static void sort_run(struct mrun *m)
{
	for (size_t i = 0; i < m->nkv; i++) {
		struct keys *kv = &m->kv[i];
		if (!kv->unsorted)
			continue;
		if (kv->n > m->captmp) {
			free(m->tmp);
			m->captmp = kv->n;
			m->tmp = xmallocarray(m->captmp, sizeof(*m->tmp));
		}
		sort_keys(kv->k, kv->n, m->tmp);
		kv->unsorted = 0;
	}
}

/* The next item of a sorted run in memory, or NULL. */
static struct item *mem_next(struct mrun *m)
{
	while (m->oi < m->norder) {
		struct keys *kv = &m->kv[m->order[m->oi]];
		if (m->ki < kv->n) {
			size_t ki = m->ki++;
			if (ki + PREFETCH < kv->n)
				__builtin_prefetch(m->arena + kv->k[ki + PREFETCH].off);
			return (struct item *)(m->arena + kv->k[ki].off);
		}
		m->oi++;
		m->ki = 0;
	}
	return NULL;
}

static void clear_run(struct mrun *m)
{
	for (size_t i = 0; i < m->nkv; i++)
		m->kv[i].n = 0;
	m->used = 0;
}

/* ---- runs to disk ------------------------------------------------------------------------- */

static int write_all(int fd, const void *p, size_t n)
{
	struct iovec v = { (void *)p, n };
	return tprof_writev_all(fd, &v, 1);
}

static size_t padded(const struct item *it)
{
	return (sizeof(*it) + it->len + 7) & ~(size_t)7;
}

/* The spill thread: the full run sorted, encoded and written into x->spilled.fd. */
static void *spill_run(void *arg)
{
	struct items *x = arg;
	struct mrun *m = &x->m[!x->fill];
	struct run *r = &x->spilled;
	struct item_coder enc = { 0 };
	int bad = 0;
	size_t n = 0;
	/* Behind the reader's threads, whose work it follows: it has until the next run fills,
	 * and takes what they leave of the processors (a processor running only it counts as
	 * idle when the reader's threads wake each other: neither is put behind the other). */
	struct sched_param idle = { 0 };
	if (pthread_setschedparam(pthread_self(), SCHED_IDLE, &idle) != 0)
		setpriority(PRIO_PROCESS, (id_t)gettid(), 19);
	sort_run(m);
	for (struct item *it; !bad && (it = mem_next(m));) {
		if (n + ITEM_CODE_FIELDS + it->len > SPILL_BUF) {
			bad = write_all(r->fd, x->wbuf, n) < 0;
			r->size += n;
			n = 0;
		}
		n += item_encode(&enc, it, it + 1, x->wbuf + n);
	}
	if (!bad && n)
		bad = write_all(r->fd, x->wbuf, n) < 0;
	r->size += n;
	if (bad)
		x->spill_error = xasprintf("cannot write a run of the import: %s", strerror(errno));
	return NULL;
}

/* Waits for the run being written: 0, or -1 when it could not be (said here). */
static int spill_wait(struct items *x)
{
	if (!x->spilling)
		return 0;
	if (x->spilling > 1)
		pthread_join(x->spiller, NULL);
	x->spilling = 0;
	clear_run(&x->m[!x->fill]);
	if (x->spill_error) {
		diag_error("%s", x->spill_error);
		free(x->spill_error);
		x->spill_error = NULL;
		run_close(&x->spilled);
		return -1;
	}
	x->runs = xreallocarray(x->runs, x->nruns + 1, sizeof(*x->runs));
	x->runs[x->nruns++] = x->spilled;
	memset(&x->spilled, 0, sizeof(x->spilled));
	x->spilled.fd = -1;
	return 0;
}

/* The run being filled goes to disk on the spill thread (once the last one is written) and the
 * other one fills: 0, or -1 when a run could not be written (the reason has been said).  The
 * file is unlinked at once: read back through the open file, nothing is left behind. */
static int spill(struct items *x)
{
	if (spill_wait(x) < 0)
		return -1;
	char *path = xasprintf("%s/run.%zu", x->dir, x->nruns);
	x->spilled.fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (x->spilled.fd < 0) {
		diag_error("%s: cannot write a run of the import: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	unlink(path);
	free(path);
	if (!x->wbuf)
		x->wbuf = xmalloc(SPILL_BUF);
	order_run(x, &x->m[x->fill]);
	x->fill = !x->fill;
	if (pthread_create(&x->spiller, NULL, spill_run, x) == 0) {
		x->spilling = 2;
		return 0;
	}
	spill_run(x);   /* no thread: written here */
	x->spilling = 1;
	return spill_wait(x);
}

int items_add(struct items *x, const struct item *head, const void *payload)
{
	size_t need = (sizeof(*head) + head->len + 7) & ~(size_t)7;
	struct mrun *m = &x->m[x->fill];
	if (m->used + need > m->cap) {
		if (spill(x) < 0)
			return -1;
		m = &x->m[x->fill];
	}
	while (m->nkv <= head->gs) {
		m->kv = util_grow(m->kv, &m->capkv, m->nkv, sizeof(*m->kv), 16);
		memset(&m->kv[m->nkv++], 0, sizeof(*m->kv));
	}
	struct keys *kv = &m->kv[head->gs];
	struct key k = { head->t, tie_of(head), (uint32_t)m->used, 0 };
	if (kv->n && key_lt(&k, &kv->k[kv->n - 1]))
		kv->unsorted = 1;
	/* from a few: a file may name a great many threads, each with a few events */
	kv->k = util_grow(kv->k, &kv->cap, kv->n, sizeof(*kv->k), 4);
	kv->k[kv->n++] = k;
	struct item *it = (struct item *)(m->arena + m->used);
	/* the padding too, written with the item: its last 8 bytes zeroed first (one store, where
	 * a memset of 0 to 7 bytes was a call), then the item and payload over them */
	static const uint64_t zero;
	memcpy((uint8_t *)it + need - sizeof(zero), &zero, sizeof(zero));
	*it = *head;
	if (head->len)
		memcpy(it + 1, payload, head->len);
	m->used += need;
	return 0;
}

/* ---- in order ----------------------------------------------------------------------------- */

/* The window over [off, off + need) of the run's file (need at most MAX_ITEM): 0, or -1. */
static int run_map(struct run *r, uint64_t off, size_t need)
{
	if (r->map && off >= r->map_off && off + need <= r->map_off + r->map_len)
		return 0;
	if (r->map)
		munmap(r->map, r->map_len);
	uint64_t at = off & ~(uint64_t)(sysconf(_SC_PAGESIZE) - 1);
	size_t len = r->size - at < WINDOW ? (size_t)(r->size - at) : WINDOW;
	r->map = mmap(NULL, len, PROT_READ, MAP_SHARED, r->fd, (off_t)at);
	if (r->map == MAP_FAILED) {
		r->map = NULL;
		return -1;
	}
	r->map_off = at;
	r->map_len = len;
	return 0;
}

/* The run's next item into r->cur: 1, 0 at its end, -1 when it cannot be read (errno). */
static int read_run(struct run *r)
{
	if (r->off == r->size)
		return 0;
	size_t need = r->size - r->off < MAX_CODED ? (size_t)(r->size - r->off) : MAX_CODED;
	if (run_map(r, r->off, need) < 0)
		return -1;
	const uint8_t *p = r->map + (r->off - r->map_off);
	size_t used = item_decode(&r->dec, p, p + need, r->cur, MAX_LEN);
	if (!used || r->cur->gs >= r->ns) {
		errno = EIO;
		return -1;
	}
	r->cur->image = r->s[r->cur->gs].image;
	r->cur->stream = r->s[r->cur->gs].stream;
	r->off += used;
	return 1;
}

/* A source of the merge: a run on disk (r) or the run in memory (r NULL, it its next item). */
struct src {
	struct run *r;
	struct item *it;
	size_t rank;                    /* runs in the file's order; the one in memory last */
	uint64_t tie;
};

static const struct item *src_item(const struct src *s)
{
	return s->r ? s->r->cur : s->it;
}

static int src_lt(const struct src *a, const struct src *b)
{
	const struct item *x = src_item(a), *y = src_item(b);
	if (x->image != y->image)
		return x->image < y->image;
	if (x->stream != y->stream)
		return x->stream < y->stream;
	if (x->t != y->t)
		return x->t < y->t;
	if (a->tie != b->tie)
		return a->tie < b->tie;
	return a->rank < b->rank;
}

static void sift(struct src *h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		if (l < n && src_lt(&h[l], &h[m]))
			m = l;
		if (l + 1 < n && src_lt(&h[l + 1], &h[m]))
			m = l + 1;
		if (m == i)
			return;
		struct src t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

/* The source's next item; 0 when it has none left, -1 when a run cannot be read back. */
static int src_next(struct mrun *m, struct src *s)
{
	if (!s->r) {
		if (!(s->it = mem_next(m)))
			return 0;
		s->tie = tie_of(s->it);
		return 1;
	}
	int rc = read_run(s->r);
	if (rc > 0)
		s->tie = tie_of(s->r->cur);
	return rc;
}

/* The merge of the runs on disk and the one in memory: a heap of their next items. */
struct merge {
	struct mrun *m;
	struct src *h;
	size_t n;
};

typedef void each_fn(void *ctx, const struct item *it, uint8_t *payload);

/* The heap over every run: 0, or -1 when one cannot be read back (errno). */
static int merge_start(struct items *x, struct merge *g)
{
	g->m = &x->m[x->fill];
	g->n = 0;
	g->h = xcalloc(x->nruns + 1, sizeof(*g->h));
	for (size_t i = 0; i < x->nruns; i++) {
		struct run *r = &x->runs[i];
		r->s = x->s;
		r->ns = x->ns;
		if (!r->cur)
			r->cur = xmalloc(MAX_ITEM);
	}
	for (size_t i = 0; i <= x->nruns; i++) {
		struct src s = { i < x->nruns ? &x->runs[i] : NULL, NULL, i, 0 };
		int rc = src_next(g->m, &s);
		if (rc < 0)
			return -1;
		if (rc > 0)
			g->h[g->n++] = s;
	}
	for (size_t i = g->n / 2; i-- > 0;)
		sift(g->h, g->n, i);
	return 0;
}

/* Each item in order to fn: 0, or -1 when a run cannot be read back (errno). */
static int merge_all(struct merge *g, each_fn *fn, void *ctx)
{
	while (g->n) {
		struct src *s = &g->h[0];
		struct item *it = s->r ? s->r->cur : s->it;
		fn(ctx, it, (uint8_t *)(it + 1));
		int rc = src_next(g->m, s);
		if (rc < 0)
			return -1;
		if (rc == 0)
			g->h[0] = g->h[--g->n];
		sift(g->h, g->n, 0);
	}
	return 0;
}

/* ---- the merge on a thread of its own ----------------------------------------------------- */

#define BATCH_BYTES (1u << 20)
#define NBATCH 4

/* Items copied as they are in a run (each padded to 8 bytes). */
struct ibatch {
	uint8_t *buf;
	size_t used;
	int last;               /* the merge ended with it */
	int err;                /* last: the errno of a run that could not be read back, or 0 */
};

struct ahead {
	struct merge *g;
	struct ibatch b[NBATCH];
	struct handoff ring;    /* util/handoff.h */
	struct ibatch *cur;     /* the merge thread's */
};

static void next_batch(struct ahead *a)
{
	a->cur = &a->b[handoff_free_slot(&a->ring)];
	a->cur->used = 0;
	a->cur->last = a->cur->err = 0;
}

static void put(void *arg, const struct item *it, uint8_t *payload)
{
	struct ahead *a = arg;
	size_t need = padded(it);
	(void)payload;          /* it follows the item */
	if (a->cur->used + need > BATCH_BYTES) {
		handoff_filled(&a->ring);
		next_batch(a);
	}
	memcpy(a->cur->buf + a->cur->used, it, need);
	a->cur->used += need;
}

static void *run_merge(void *arg)
{
	struct ahead *a = arg;
	next_batch(a);
	int rc = merge_all(a->g, put, a);
	a->cur->last = 1;
	a->cur->err = rc < 0 ? errno : 0;
	handoff_filled(&a->ring);
	return NULL;
}

/* The merge on its thread, the items to each on this one: 0, -1 when a run cannot be read
 * back (errno), -2 when the thread could not start (nothing was taken). */
static int merge_ahead(struct merge *g, each_fn *each, void *ctx)
{
	struct ahead a = { .g = g };
	pthread_t thread;
	int err = 0;
	for (int i = 0; i < NBATCH; i++)
		a.b[i].buf = xmalloc(BATCH_BYTES);
	handoff_init(&a.ring, NBATCH);
	int started = pthread_create(&thread, NULL, run_merge, &a) == 0;
	for (int last = !started; !last;) {
		struct ibatch *b = &a.b[handoff_full_slot(&a.ring)];
		for (size_t off = 0; off < b->used;) {
			struct item *it = (struct item *)(b->buf + off);
			off += padded(it);
			each(ctx, it, (uint8_t *)(it + 1));
		}
		last = b->last;
		err = b->err;
		handoff_taken(&a.ring);
	}
	if (started)
		pthread_join(thread, NULL);
	handoff_destroy(&a.ring);
	for (int i = 0; i < NBATCH; i++)
		free(a.b[i].buf);
	if (!started)
		return -2;
	errno = err;
	return err ? -1 : 0;
}

int items_each(struct items *x, each_fn *each, void *ctx)
{
	if (spill_wait(x) < 0)
		return -1;
	struct mrun *m = &x->m[x->fill];
	order_run(x, m);
	sort_run(m);
	if (!x->nruns) {
		for (struct item *it; (it = mem_next(m));)
			each(ctx, it, (uint8_t *)(it + 1));
		return 0;
	}
	struct merge g;
	int rc = merge_start(x, &g);
	if (rc == 0 && (rc = merge_ahead(&g, each, ctx)) == -2)
		rc = merge_all(&g, each, ctx);   /* no thread: on this one */
	free(g.h);
	if (rc < 0)
		diag_error("a run of the import cannot be read back: %s", strerror(errno));
	return rc < 0 ? -1 : 0;
}
