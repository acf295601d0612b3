/* diagnose/launches.c — launch statistics (launches.h).  The launching call's length is
 * found among the process's latest calls by its entry (the device operation's launch time);
 * an operation launched more than CALLS_KEPT calls before it ran is not timed so. */
#include <stdlib.h>
#include <string.h>

#include "../model/output.h"
#include "../util/grow.h"
#include "launches.h"

/* The bin of ns: 4 per power of two. */
static unsigned bin_of(int64_t ns)
{
	if (ns < 1)
		return 0;
	uint64_t v = (uint64_t)ns;
	unsigned e = 63u - (unsigned)__builtin_clzll(v);
	unsigned sub = e >= 2 ? (unsigned)((v >> (e - 2)) & 3) : (unsigned)((v << (2 - e)) & 3);
	unsigned b = 4 * e + sub;
	return b < HIST_BINS ? b : HIST_BINS - 1;
}

/* The upper edge of bin b. */
static int64_t edge_of(unsigned b)
{
	unsigned e = b / 4, sub = b % 4;
	if (e >= 62)
		return INT64_MAX;
	return (int64_t)(((uint64_t)(4 + sub + 1) << e) >> 2);
}

void hist_add(struct hist *h, int64_t ns)
{
	if (ns < 0)
		ns = 0;
	h->bin[bin_of(ns)]++;
	h->n++;
	if (ns > h->max)
		h->max = ns;
}

int64_t hist_quantile(const struct hist *h, double q)
{
	if (!h->n)
		return 0;
	uint64_t want = (uint64_t)(q * (double)(h->n - 1)) + 1, seen = 0;
	for (unsigned b = 0; b < HIST_BINS; b++) {
		seen += h->bin[b];
		if (seen >= want) {
			int64_t e = edge_of(b);
			return e < h->max ? e : h->max;
		}
	}
	return h->max;
}

void launches_call(struct launches *l, const struct event *ev)
{
	unsigned at = l->ncalls++ % CALLS_KEPT;
	l->calls[at].t0 = ev->t0;
	l->calls[at].t1 = ev->t1;
}

/* The length of the call that entered at t0, or -1. */
static int64_t call_length(const struct launches *l, int64_t t0)
{
	for (unsigned k = 0; k < CALLS_KEPT && k < l->ncalls; k++) {
		unsigned at = (l->ncalls - 1 - k) % CALLS_KEPT;
		if (l->calls[at].t0 == t0)
			return l->calls[at].t1 - l->calls[at].t0;
	}
	return -1;
}

static struct stream_launches *stream_stats(struct launches *l, uint64_t stream)
{
	for (size_t i = 0; i < l->nstreams; i++)
		if (l->streams[i].stream == stream)
			return &l->streams[i];
	l->streams = util_grow(l->streams, &l->capstreams, l->nstreams, sizeof(*l->streams), 4);
	struct stream_launches *s = &l->streams[l->nstreams++];
	memset(s, 0, sizeof(*s));
	s->stream = stream;
	return s;
}

static struct kernel_launches *kernel_stats(struct launches *l, uint32_t name)
{
	uint32_t *at = u64map_get(&l->kernel_of, name);
	if (at)
		return &l->kernels[*at];
	l->kernels = util_grow(l->kernels, &l->capkernels, l->nkernels, sizeof(*l->kernels), 16);
	struct kernel_launches *k = &l->kernels[l->nkernels];
	memset(k, 0, sizeof(*k));
	k->name = name;
	u64map_put(&l->kernel_of, name, (uint32_t)l->nkernels++);
	return k;
}

void launches_kernel(struct launches *l, const struct event *ev)
{
	const struct device_info *di = ev->dev;
	if (!di->launch_ns)
		return;
	int64_t latency = ev->t0 - di->launch_ns;
	struct stream_launches *s = stream_stats(l, di->op.stream);
	hist_add(&s->latency, latency);
	/* the queue it found: those launched before it on its stream, not started by then */
	uint64_t depth = 0;
	for (unsigned k = 0; k < QUEUE_SEEN && k < s->nseen; k++) {
		unsigned at = (s->nseen - 1 - k) % QUEUE_SEEN;
		if (s->starts[at] > di->launch_ns && s->launches[at] <= di->launch_ns)
			depth++;
	}
	s->depth_sum += depth;
	if (depth > s->depth_max)
		s->depth_max = depth;
	unsigned at = s->nseen++ % QUEUE_SEEN;
	s->starts[at] = ev->t0;
	s->launches[at] = di->launch_ns;
	struct kernel_launches *k = kernel_stats(l, ev->name);
	hist_add(&k->latency, latency);
	k->n++;
	int64_t cost = call_length(l, di->launch_ns);
	if (cost >= 0) {
		k->timed++;
		k->shorter += ev->t1 - ev->t0 < cost;
	}
}

void launches_free(struct launches *l)
{
	free(l->streams);
	free(l->kernels);
	u64map_free(&l->kernel_of);
}
