/* test-import-items.c — the import's items (analyze/import/items.c) come back in the order a
 * plain stable sort gives, payloads intact: streams in order or not, ties of every kind, runs
 * in memory alone or spilled to disk and merged, and no item lost or repeated. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../analyze/import/items.h"
#include "tap.h"

static uint64_t rng = 0x2545f4914f6cdd1dull;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

struct ref {
	struct item it;
	uint64_t seq;
};

static int cmp_ref(const void *pa, const void *pb)
{
	const struct ref *a = pa, *b = pb;
	const struct item *x = &a->it, *y = &b->it;
	if (x->image != y->image)
		return x->image < y->image ? -1 : 1;
	if (x->stream != y->stream)
		return x->stream < y->stream ? -1 : 1;
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	if (x->cls != y->cls)
		return x->cls < y->cls ? -1 : 1;
	int64_t dx = x->dur > 0 ? x->dur : 0, dy = y->dur > 0 ? y->dur : 0;   /* < 0 as 0 */
	if (x->cls == 1 && dx != dy)
		return dx > dy ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

struct check {
	struct ref *want;
	size_t n, at, bad_order, bad_payload, bad_fields;
};

static void each(void *ctx, const struct item *it, uint8_t *payload)
{
	struct check *c = ctx;
	if (c->at >= c->n) {
		c->at++;
		c->bad_order++;
		return;
	}
	const struct ref *w = &c->want[c->at++];
	if (it->image != w->it.image || it->stream != w->it.stream || it->t != w->it.t ||
	    it->dur != w->it.dur || it->cls != w->it.cls || it->arg != w->it.arg ||
	    it->len != w->it.len || it->gs != w->it.gs)
		c->bad_order++;
	else if (it->name != w->it.name || it->kind != w->it.kind || it->flags != w->it.flags ||
		 it->cat != w->it.cat || it->head != w->it.head || it->offset != w->it.offset)
		c->bad_fields++;
	for (uint32_t i = 0; i < it->len; i++)
		if (payload[i] != (uint8_t)(w->it.arg + i))
			c->bad_payload++;
}

/* n items over nstreams streams of nimages images; sorted: each stream's times arrive in
 * order; run: the run's bytes (small: many runs). */
static void one(const char *what, size_t n, uint32_t nimages, uint32_t nstreams, int sorted,
		size_t run, const char *dir)
{
	struct items *x = items_new(dir, run);
	struct ref *want = calloc(n, sizeof(*want));
	int64_t *clock = calloc(nstreams, sizeof(*clock));
	uint8_t payload[600];
	for (uint32_t s = 0; s < nstreams; s++)   /* numbered out of their order */
		items_stream(x, s, (nstreams - 1 - s) % nimages, s / nimages + 1);
	int failed = 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t gs = (uint32_t)(rnd() % nstreams);
		struct item it = { 0 };
		it.gs = gs;
		it.image = (nstreams - 1 - gs) % nimages;
		it.stream = gs / nimages + 1;
		if (sorted)
			clock[gs] += (int64_t)(rnd() % 3);   /* equal times too */
		else
			clock[gs] = (int64_t)(rnd() % 1000) - 200;
		it.t = clock[gs];
		it.cls = (uint8_t)(rnd() % 3);
		it.dur = it.cls == 1 ? (int64_t)(rnd() % 4) : 0;
		/* args of every size: hashes, small numbers, none */
		it.arg = rnd() % 3 == 0 ? rnd() : rnd() % 3 == 0 ? rnd() % 100000 : 0;
		it.name = (uint32_t)(rnd() % 7 ? rnd() % 300 : rnd());
		it.kind = (uint16_t)rnd();
		it.flags = (uint8_t)(rnd() % 2 ? rnd() : 0);
		it.cat = (uint32_t)(rnd() % 5 ? rnd() % 20 : rnd());
		it.head = (uint8_t)(rnd() % 4 ? rnd() : 0);
		it.offset = rnd() % 9 ? (uint64_t)i * 150 + rnd() % 100 : rnd();
		it.len = (uint32_t)(rnd() % 5 == 0 ? rnd() % sizeof(payload) : 0);
		for (uint32_t k = 0; k < it.len; k++)
			payload[k] = (uint8_t)(it.arg + k);
		if (!sorted && rnd() % 50 == 0)   /* far from the others, and long */
			it.t = rnd() % 2 ? INT64_MIN + (int64_t)(rnd() % 1000) : INT64_MAX - 5;
		if (it.cls == 1 && rnd() % 40 == 0)
			it.dur = -(int64_t)(rnd() % 1000);
		if (sorted)   /* one class: the stream's keys arrive in order */
			it.cls = 2, it.dur = 0;
		want[i] = (struct ref){ it, i };
		if (items_add(x, &it, payload) < 0)
			failed = 1;
	}
	qsort(want, n, sizeof(*want), cmp_ref);
	struct check c = { want, n, 0, 0, 0, 0 };
	ok(!failed && items_each(x, each, &c) == 0, "%s: %zu items in and out (%zu runs on disk)",
	   what, n, items_runs(x));
	is_u64(c.at, n, "%s: every item came back once", what);
	is_u64(c.bad_order, 0, "%s: in order (image, stream, time, ends, longer begins, file)",
	       what);
	is_u64(c.bad_payload, 0, "%s: payloads intact", what);
	is_u64(c.bad_fields, 0, "%s: every field intact (name, kind, flags, cat, head, offset)",
	       what);
	items_free(x);
	free(want);
	free(clock);
}

int main(void)
{
	char dir[] = "/tmp/tprof-items-XXXXXX";
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	one("one stream in order, in memory", 5000, 1, 1, 1, 64 << 20, dir);
	one("streams in order, in memory", 20000, 3, 17, 1, 64 << 20, dir);
	one("streams out of order, in memory", 20000, 3, 17, 0, 64 << 20, dir);
	one("one stream out of order, in memory", 20000, 1, 1, 0, 64 << 20, dir);
	one("streams in order, many runs", 20000, 2, 9, 1, 32 << 10, dir);
	one("streams out of order, many runs", 50000, 4, 33, 0, 64 << 10, dir);
	/* runs of 8 MiB on disk, read back through windows of 4 MiB */
	one("streams out of order, runs larger than the window", 300000, 2, 9, 0, 16 << 20, dir);
	one("no item", 0, 1, 1, 0, 1 << 20, dir);
	ok(rmdir(dir) == 0, "the runs left nothing behind in the scratch directory");
	return tap_done();
}
