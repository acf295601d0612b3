/* diagnose/timeline.c — a process's spans by category, and the split of an interval into the
 * categories (timeline.h): the spans that overlap it, cut to it, are swept in time order with
 * a count of those open per category; each piece of time between two of their ends goes to
 * the first category with one open, or to CAT_HOST.  The spans are kept in order of start
 * under a tree of the latest end of each run of them, so that those overlapping an interval
 * are found without looking at the others: a binary search for the last that starts before
 * its end, then a descent into the runs that end after its start (a few long spans, a
 * thread's state over the whole run, do not make every question read every span).  Spans
 * that came since the last question are sorted and merged in, and the tree mended from the
 * first that moved: those that come late (device spans, recorded after the host calls of
 * their time) belong near the end, so a question costs what came since, not all that is
 * kept while steps wait for their events. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../util/grow.h"
#include "timeline.h"

static const char *const keys[CATS] = { "compute", "copy", "wait", "collective", "runtime",
					"host", "cpu_wait", "idle" };
static const char *const words[CATS] = { "compute", "copies", "waiting for others",
					 "collectives moving data", "runtime calls",
					 "host outside calls", "waiting for a CPU", "idle" };

const char *part_key(unsigned c)
{
	return c < CATS ? keys[c] : "?";
}

const char *part_words(unsigned c)
{
	return c < CATS ? words[c] : "?";
}

void timeline_add(struct timeline *t, unsigned cat, int64_t t0, int64_t t1, uint32_t name)
{
	if (t1 <= t0 || cat >= TL_KINDS)
		return;
	if (t1 <= t->settled)
		t->late++;      /* kept until forgotten, but no step counts it */
	if (t1 <= t->forgotten)
		return;
	t->v = util_grow(t->v, &t->cap, t->n, sizeof(*t->v), 256);
	t->v[t->n++] = (struct tl_span){ t0, t1, name, (uint8_t)cat };
}

static int span_before(const void *a, const void *b)
{
	const struct tl_span *x = a, *y = b;
	if (x->t0 != y->t0)
		return x->t0 < y->t0 ? -1 : 1;
	return (x->t1 > y->t1) - (x->t1 < y->t1);
}

/* The spans v[at, n) that came since: sorted, and merged with those of v[0, at) that start
 * after the first of them; returns the first index that changed. */
static size_t merge_in(struct timeline *t, size_t at)
{
	struct tl_span *v = t->v;
	if (t->n - at > 1)
		qsort(v + at, t->n - at, sizeof(*v), span_before);
	if (!at || span_before(&v[at - 1], &v[at]) <= 0)
		return at;              /* in order: they follow */
	size_t lo = 0, hi = at;
	while (lo < hi) {
		size_t m = lo + (hi - lo) / 2;
		if (span_before(&v[m], &v[at]) <= 0)
			lo = m + 1;
		else
			hi = m;
	}
	/* v[lo, at) to tmp, then the two runs merged from lo */
	t->tmp = util_grow_index(t->tmp, &t->captmp, at - lo, sizeof(*t->tmp), 64, 0);
	memcpy(t->tmp, v + lo, (at - lo) * sizeof(*v));
	size_t a = 0, na = at - lo, b = at, o = lo;
	while (a < na && b < t->n)
		v[o++] = span_before(&t->tmp[a], &v[b]) <= 0 ? t->tmp[a++] : v[b++];
	while (a < na)
		v[o++] = t->tmp[a++];
	return lo;
}

/* The spans by start, and the tree of their ends: tree[leaves + i] is span i's end, each
 * node above the latest of its two children's (INT64_MIN past the last span). */
static void ready(struct timeline *t)
{
	if (t->indexed == t->n && t->leaves)
		return;
	size_t from = merge_in(t, t->indexed);
	t->indexed = t->n;
	size_t m = t->leaves;
	if (!m || m < t->n) {   /* built anew */
		m = 1;
		while (m < t->n)
			m <<= 1;
		t->tree = util_grow_index(t->tree, &t->captree, 2 * m, sizeof(*t->tree), 512, 0);
		for (size_t i = 0; i < m; i++)
			t->tree[m + i] = i < t->n ? t->v[i].t1 : INT64_MIN;
		for (size_t i = m - 1; i >= 1; i--)
			t->tree[i] = t->tree[2 * i] > t->tree[2 * i + 1] ? t->tree[2 * i]
									 : t->tree[2 * i + 1];
		t->leaves = m;
		return;
	}
	if (from >= t->n)
		return;
	size_t lo = m + from, hi = m + t->n - 1;
	for (size_t i = lo; i <= hi; i++)
		t->tree[i] = t->v[i - m].t1;
	while (lo > 1) {        /* their ancestors, a level at a time */
		lo /= 2;
		hi /= 2;
		for (size_t i = lo; i <= hi; i++)
			t->tree[i] = t->tree[2 * i] > t->tree[2 * i + 1] ? t->tree[2 * i]
									 : t->tree[2 * i + 1];
	}
}

/* The number of spans that start before b (they are first, by start). */
static size_t starting_before(struct timeline *t, int64_t b)
{
	ready(t);
	size_t l = 0, h = t->n;
	while (l < h) {
		size_t m = l + (h - l) / 2;
		if (t->v[m].t0 < b)
			l = m + 1;
		else
			h = m;
	}
	return l;
}

/* The spans that overlap a..b: their indexes, in order, in t->hits; returns how many. */
static size_t overlapping(struct timeline *t, int64_t a, int64_t b)
{
	size_t hi = starting_before(t, b), nh = 0;
	t->nhits = 0;
	if (!hi)
		return 0;
	t->hits = util_grow_index(t->hits, &t->caphits, hi, sizeof(*t->hits), 64, 0);
	/* the nodes to look into, the leftmost last: (node, its first leaf, its width) */
	struct { size_t node, first, width; } stack[2 * 64];
	size_t depth = 0;
	stack[depth++] = (typeof(stack[0])){ 1, 0, t->leaves };
	while (depth) {
		typeof(stack[0]) x = stack[--depth];
		if (x.first >= hi || t->tree[x.node] <= a)
			continue;
		if (x.width == 1) {
			if (t->v[x.first].t1 > t->forgotten)    /* not yet dropped */
				t->hits[nh++] = x.first;
			continue;
		}
		size_t half = x.width / 2;
		stack[depth++] = (typeof(stack[0])){ 2 * x.node + 1, x.first + half, half };
		stack[depth++] = (typeof(stack[0])){ 2 * x.node, x.first, half };
	}
	t->nhits = nh;
	return nh;
}

struct edge {
	int64_t t;
	uint32_t span;
	int32_t delta;          /* +1 its start, -1 its end */
};

static int edge_before(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->delta - y->delta;
}

/* The names with the most time, per category: a few, kept while splitting. */
#define TOPS 32
struct tops {
	struct { uint32_t name; uint8_t cat; int64_t ns; } v[TOPS];
	unsigned n;
};

static void tops_add(struct tops *s, unsigned cat, uint32_t name, int64_t ns)
{
	if (!name)
		return;
	for (unsigned i = 0; i < s->n; i++)
		if (s->v[i].name == name && s->v[i].cat == cat) {
			s->v[i].ns += ns;
			return;
		}
	if (s->n < TOPS) {
		s->v[s->n].name = name;
		s->v[s->n].cat = (uint8_t)cat;
		s->v[s->n++].ns = ns;
	}
}

/* The split of a..b, counting only where a span of kind `within` is open when within is
 * not TL_KINDS, and none of kind `not` when that is not TL_KINDS. */
static void sweep(struct timeline *t, int64_t a, int64_t b, unsigned within, unsigned not,
		  int64_t ns[CATS], uint32_t top[CATS])
{
	for (unsigned c = 0; c < CATS; c++) {
		ns[c] = 0;
		if (top)
			top[c] = 0;
	}
	if (b <= a)
		return;
	struct edge *e = NULL;
	size_t ne = 0, cap = 0, nh = overlapping(t, a, b);
	for (size_t k = 0; k < nh; k++) {
		size_t i = t->hits[k];
		const struct tl_span *s = &t->v[i];
		if (s->t1 <= a || s->t0 >= b ||
		    (s->cat >= CATS && s->cat != within && s->cat != not))
			continue;
		e = util_grow(e, &cap, ne + 1, sizeof(*e), 64);
		e[ne++] = (struct edge){ s->t0 > a ? s->t0 : a, (uint32_t)i, 1 };
		e[ne++] = (struct edge){ s->t1 < b ? s->t1 : b, (uint32_t)i, -1 };
	}
	if (ne > 1)
		qsort(e, ne, sizeof(*e), edge_before);
	int64_t open[TL_KINDS + 1] = { 0 };
	uint32_t name[CATS] = { 0 };
	struct tops tops = { .n = 0 };
	int64_t at = a;
	for (size_t i = 0; i <= ne; i++) {
		int64_t next = i < ne ? e[i].t : b;
		if (next > at) {
			unsigned c = 0;
			while (c < CATS && !open[c])
				c++;
			if (c == CATS)
				c = CAT_HOST;
			if ((within == TL_KINDS || open[within]) && (not == TL_KINDS || !open[not])) {
				ns[c] += next - at;
				if (top && open[c])
					tops_add(&tops, c, name[c], next - at);
			}
			at = next;
		}
		if (i == ne)
			break;
		const struct tl_span *s = &t->v[e[i].span];
		open[s->cat] += e[i].delta;
		if (e[i].delta > 0 && s->name && s->cat < CATS)
			name[s->cat] = s->name;
	}
	free(e);
	if (!top)
		return;
	int64_t best[CATS] = { 0 };
	for (unsigned i = 0; i < tops.n; i++)
		if (tops.v[i].ns > best[tops.v[i].cat]) {
			best[tops.v[i].cat] = tops.v[i].ns;
			top[tops.v[i].cat] = tops.v[i].name;
		}
}

void timeline_split(struct timeline *t, int64_t a, int64_t b, int64_t ns[CATS],
		    uint32_t top[CATS])
{
	sweep(t, a, b, TL_KINDS, TL_KINDS, ns, top);
}

void timeline_split_within(struct timeline *t, unsigned kind, unsigned not, int64_t a,
			   int64_t b, int64_t ns[CATS])
{
	sweep(t, a, b, kind, not, ns, NULL);
}

int64_t timeline_sum(struct timeline *t, unsigned k, int64_t a, int64_t b, uint32_t *name)
{
	int64_t sum = 0, best = 0;
	if (name)
		*name = 0;
	size_t nh = overlapping(t, a, b);
	for (size_t j = 0; j < nh; j++) {
		const struct tl_span *s = &t->v[t->hits[j]];
		if (s->cat != k || s->t1 <= a || s->t0 >= b)
			continue;
		int64_t part = (s->t1 < b ? s->t1 : b) - (s->t0 > a ? s->t0 : a);
		sum += part;
		if (name && part > best) {
			best = part;
			*name = s->name;
		}
	}
	return sum;
}

/* Spans looked at, back from `at`, for the call before it: a name for the text, not worth
 * more. */
#define CALL_BEFORE_LOOK 4096

uint32_t timeline_call_before(struct timeline *t, int64_t at)
{
	size_t hi = starting_before(t, at == INT64_MAX ? at : at + 1);
	int64_t best = INT64_MIN;
	uint32_t name = 0;
	for (size_t i = hi, k = 0; i > 0 && k < CALL_BEFORE_LOOK; i--, k++) {
		const struct tl_span *s = &t->v[i - 1];
		if (s->cat == CAT_RUNTIME && s->t1 <= at && s->t1 > best && s->name &&
		    s->t1 > t->forgotten) {
			best = s->t1;
			name = s->name;
		}
	}
	return name;
}

static int by_start(const void *a, const void *b)
{
	const struct tl_span *x = a, *y = b;
	return (x->t0 > y->t0) - (x->t0 < y->t0);
}

uint32_t timeline_gap_after(struct timeline *t, int64_t a, int64_t b)
{
	struct tl_span *v = NULL;
	size_t n = 0, cap = 0, nh = overlapping(t, a, b);
	for (size_t k = 0; k < nh; k++) {
		const struct tl_span *s = &t->v[t->hits[k]];
		if (s->cat < CAT_HOST) {
			v = util_grow(v, &cap, n, sizeof(*v), 32);
			v[n++] = *s;
		}
	}
	if (n > 1)
		qsort(v, n, sizeof(*v), by_start);
	int64_t covered = a, best = 0, best_at = a;
	for (size_t i = 0; i <= n; i++) {
		int64_t next = i < n ? (v[i].t0 > a ? v[i].t0 : a) : b;
		if (next - covered > best) {
			best = next - covered;
			best_at = covered;
		}
		if (i < n && v[i].t1 > covered)
			covered = v[i].t1;
	}
	free(v);
	return best ? timeline_call_before(t, best_at) : 0;
}

void timeline_forget(struct timeline *t, int64_t upto)
{
	if (upto <= t->forgotten)
		return;
	t->forgotten = upto;
	if (t->n < 2 * t->kept + 64)
		return;         /* dropped when they may be half: each span moved O(1) times */
	size_t k = 0, sorted = 0;
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].t1 > upto) {
			sorted += i < t->indexed;
			t->v[k++] = t->v[i];
		}
	t->n = k;
	t->indexed = sorted;    /* still in order */
	t->kept = k;
	t->leaves = 0;          /* the tree anew */
}

void timeline_free(struct timeline *t)
{
	free(t->v);
	free(t->tree);
	free(t->hits);
	free(t->tmp);
	*t = (struct timeline){ 0 };
}
