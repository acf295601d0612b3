/* items.c — the import's items put in order (items.h).  A run is an arena of items and, per
 * stream, an array of small sort keys (time, a tie-breaker, the item's place in the arena): a
 * stream whose items arrived in order is not sorted at all, the others are sorted by a merge
 * sort over their keys alone, and the arena is only read, once, to write the run out in order.
 * The last run stays in memory and takes part in the merge of the runs on disk. */
#include "items.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../common/import.h"
#include "../read/trace.h"
#include "../util/grow.h"

#define MAX_ITEM (sizeof(struct item) + (TPROF_MAX_EXT - 1) * TPROF_UNIT + TPROF_UNIT)
#define RUN_BUF (1u << 20)        /* stdio buffer of a run file */
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
	struct key *k;
	size_t n, cap;
	int unsorted;                   /* an item arrived before the last one */
};

struct run {
	FILE *f;
	struct item cur;
	uint8_t *payload;
	int have;
};

struct items {
	const char *dir;
	uint8_t *arena;
	size_t used, cap;
	struct istream *s;
	size_t ns, caps;
	uint32_t *order;                /* stream numbers by (image, stream) */
	struct key *tmp;
	size_t captmp;
	struct run *runs;
	size_t nruns;
	/* the walk through the run in memory */
	size_t oi, ki;
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
	struct items *x = calloc(1, sizeof(*x));
	if (!x)
		abort();
	x->dir = dir;
	x->cap = run_bytes < MAX_ITEM ? MAX_ITEM : run_bytes;
	if (!(x->arena = malloc(x->cap)))
		abort();
	return x;
}

void items_free(struct items *x)
{
	if (!x)
		return;
	for (size_t i = 0; i < x->ns; i++)
		free(x->s[i].k);
	for (size_t i = 0; i < x->nruns; i++) {
		if (x->runs[i].f)
			fclose(x->runs[i].f);
		free(x->runs[i].payload);
	}
	free(x->runs);
	free(x->s);
	free(x->order);
	free(x->tmp);
	free(x->arena);
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
	return x->nruns;
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
	const struct items *x = ctx;
	const struct istream *a = &x->s[*(const uint32_t *)pa], *b = &x->s[*(const uint32_t *)pb];
	if (a->image != b->image)
		return a->image < b->image ? -1 : 1;
	return a->stream < b->stream ? -1 : a->stream > b->stream;
}

/* The run in memory in order: its streams by (image, stream), each stream's keys. */
static void sort_run(struct items *x)
{
	x->order = realloc(x->order, (x->ns ? x->ns : 1) * sizeof(*x->order));
	if (!x->order)
		abort();
	for (size_t i = 0; i < x->ns; i++)
		x->order[i] = (uint32_t)i;
	qsort_r(x->order, x->ns, sizeof(*x->order), cmp_streams, x);
	for (size_t i = 0; i < x->ns; i++) {
		struct istream *s = &x->s[i];
		if (!s->unsorted)
			continue;
		if (s->n > x->captmp) {
			free(x->tmp);
			x->captmp = s->n;
			if (!(x->tmp = malloc(x->captmp * sizeof(*x->tmp))))
				abort();
		}
		sort_keys(s->k, s->n, x->tmp);
		s->unsorted = 0;
	}
	x->oi = x->ki = 0;
}

/* The next item of the sorted run in memory, or NULL. */
static struct item *mem_next(struct items *x)
{
	while (x->oi < x->ns) {
		struct istream *s = &x->s[x->order[x->oi]];
		if (x->ki < s->n) {
			size_t ki = x->ki++;
			if (ki + PREFETCH < s->n)
				__builtin_prefetch(x->arena + s->k[ki + PREFETCH].off);
			return (struct item *)(x->arena + s->k[ki].off);
		}
		x->oi++;
		x->ki = 0;
	}
	return NULL;
}

static void clear_run(struct items *x)
{
	for (size_t i = 0; i < x->ns; i++)
		x->s[i].n = 0;
	x->used = 0;
}

/* The run in memory, sorted, into a scratch file (unlinked at once: read back through the
 * open file, nothing is left behind). */
static int spill(struct items *x)
{
	char *path = NULL;
	struct run r = { 0 };
	sort_run(x);
	if (asprintf(&path, "%s/run.%zu", x->dir, x->nruns) < 0)
		abort();
	if (!(r.f = fopen(path, "w+"))) {
		diag_error("%s: cannot write a run of the import: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	unlink(path);
	setvbuf(r.f, NULL, _IOFBF, RUN_BUF);
	int bad = 0;
	for (struct item *it; !bad && (it = mem_next(x));)
		bad = fwrite(it, sizeof(*it) + it->len, 1, r.f) != 1;
	if (bad || fflush(r.f) != 0 || fseek(r.f, 0, SEEK_SET) != 0) {
		diag_error("%s: cannot write a run of the import: %s", path, strerror(errno));
		fclose(r.f);
		free(path);
		return -1;
	}
	free(path);
	if (!(r.payload = malloc(MAX_ITEM)))
		abort();
	x->runs = realloc(x->runs, (x->nruns + 1) * sizeof(*x->runs));
	if (!x->runs)
		abort();
	x->runs[x->nruns++] = r;
	clear_run(x);
	return 0;
}

int items_add(struct items *x, const struct item *head, const void *payload)
{
	size_t need = (sizeof(*head) + head->len + 7) & ~(size_t)7;
	if (x->used + need > x->cap && spill(x) < 0)
		return -1;
	struct istream *s = &x->s[head->gs];
	struct key k = { head->t, tie_of(head), (uint32_t)x->used, 0 };
	if (s->n && key_lt(&k, &s->k[s->n - 1]))
		s->unsorted = 1;
	s->k = util_grow(s->k, &s->cap, s->n, sizeof(*s->k), 64);
	s->k[s->n++] = k;
	struct item *it = (struct item *)(x->arena + x->used);
	*it = *head;
	if (head->len)
		memcpy(it + 1, payload, head->len);
	x->used += need;
	return 0;
}

/* ---- in order ----------------------------------------------------------------------------- */

static int read_run(struct run *r)
{
	if (fread(&r->cur, sizeof(r->cur), 1, r->f) != 1) {
		r->have = 0;
		return ferror(r->f) ? -1 : 0;
	}
	if (r->cur.len > MAX_ITEM - sizeof(r->cur) ||
	    (r->cur.len && fread(r->payload, r->cur.len, 1, r->f) != 1)) {
		r->have = 0;
		return -1;
	}
	r->have = 1;
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
	return s->r ? &s->r->cur : s->it;
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
static int src_next(struct items *x, struct src *s)
{
	if (!s->r) {
		if (!(s->it = mem_next(x)))
			return 0;
		s->tie = tie_of(s->it);
		return 1;
	}
	int rc = read_run(s->r);
	if (rc > 0)
		s->tie = tie_of(&s->r->cur);
	return rc;
}

int items_each(struct items *x, void (*each)(void *ctx, const struct item *it, uint8_t *payload),
	       void *ctx)
{
	sort_run(x);
	if (!x->nruns) {
		for (struct item *it; (it = mem_next(x));)
			each(ctx, it, (uint8_t *)(it + 1));
		return 0;
	}
	struct src *h = calloc(x->nruns + 1, sizeof(*h));
	size_t n = 0;
	if (!h)
		abort();
	for (size_t i = 0; i <= x->nruns; i++) {
		struct src s = { i < x->nruns ? &x->runs[i] : NULL, NULL, i, 0 };
		int rc = src_next(x, &s);
		if (rc < 0)
			goto bad;
		if (rc > 0)
			h[n++] = s;
	}
	for (size_t i = n / 2; i-- > 0;)
		sift(h, n, i);
	while (n) {
		struct src *s = &h[0];
		if (s->r)
			each(ctx, &s->r->cur, s->r->payload);
		else
			each(ctx, s->it, (uint8_t *)(s->it + 1));
		int rc = src_next(x, s);
		if (rc < 0)
			goto bad;
		if (rc == 0)
			h[0] = h[--n];
		sift(h, n, 0);
	}
	free(h);
	return 0;
bad:
	diag_error("a run of the import cannot be read back: %s", strerror(errno));
	free(h);
	return -1;
}
