/* diagnose/launches.h — what a process's launches show, per stream and per kernel (launches.c):
 * the latency from the launching call's entry to the device's start (a distribution, in
 * log-spaced bins), the queue depth each launch found (kernels launched before it on its stream
 * not started yet), and kernels that ran shorter than the call that launched them took. */
#ifndef TPROF_ANALYZE_DIAGNOSE_LAUNCHES_H
#define TPROF_ANALYZE_DIAGNOSE_LAUNCHES_H

#include <stddef.h>
#include <stdint.h>

#include "../util/u64map.h"

#define HIST_BINS 256            /* 4 a power of two, from 1 ns to 2^64 */

/* Durations in bins a quarter of a power of two wide: a quantile is read to within 19 %. */
struct hist {
	uint64_t n;
	int64_t max;
	uint32_t bin[HIST_BINS];
};

void hist_add(struct hist *h, int64_t ns);
/* The q-quantile (0..1): the upper edge of its bin, no more than max; 0 when empty. */
int64_t hist_quantile(const struct hist *h, double q);

#define QUEUE_SEEN 64            /* a stream's latest starts kept: depths up to this */

struct stream_launches {
	uint64_t stream;
	struct hist latency;
	uint64_t depth_sum, depth_max;
	int64_t starts[QUEUE_SEEN];      /* the latest starts, a ring */
	int64_t launches[QUEUE_SEEN];    /* and their launches */
	unsigned nseen;
};

struct kernel_launches {
	uint32_t name;
	struct hist latency;
	uint64_t n, shorter;             /* kernels; those shorter than their launching call */
	uint64_t timed;                  /* those whose launching call was found */
};

#define CALLS_KEPT 1024          /* a process's latest calls, for the launching call's length */

struct launches {
	struct stream_launches *streams;
	size_t nstreams, capstreams;
	struct kernel_launches *kernels;
	size_t nkernels, capkernels;
	struct u64map kernel_of;         /* name -> index */
	struct { int64_t t0, t1; } calls[CALLS_KEPT];   /* by entry, a ring */
	unsigned ncalls;
};

struct event;
/* A call of the process (before the device operations it launched, mostly). */
void launches_call(struct launches *l, const struct event *ev);
/* A kernel, in order on its stream. */
void launches_kernel(struct launches *l, const struct event *ev);
void launches_free(struct launches *l);

#endif
