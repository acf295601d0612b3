/* bench.h — what the benchmark programs share: a nanosecond clock, argument parsing, and the
 * names they record (string literals, as real annotated code passes them). */
#ifndef TPROF_BENCH_H
#define TPROF_BENCH_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static inline uint64_t bench_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* A count such as 10000000, 1e7 or 2.5e8; exits on anything else. */
static inline uint64_t bench_count(const char *s, const char *what)
{
	char *end;
	double v = strtod(s, &end);
	if (*end || end == s || v < 0 || v > 1e15) {
		fprintf(stderr, "bad %s '%s'\n", what, s);
		exit(2);
	}
	return (uint64_t)(v + 0.5);
}

/* The benchmark programs' random numbers: xorshift64 on *state (not 0). */
static inline uint64_t bench_rand(uint64_t *state)
{
	uint64_t x = *state;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *state = x;
}

/* A program's own work between two calls: 0 to max multiply-adds, as many as the next
 * random number says; the result, for the caller to keep (so that the loop stays). */
static inline uint64_t bench_work(uint64_t *state, unsigned max)
{
	unsigned k = (unsigned)(bench_rand(state) % (max + 1));
	uint64_t a = *state;
	for (unsigned i = 0; i < k; i++)
		a = a * 6364136223846793005ull + 1442695040888963407ull;
	return a;
}

static inline int bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Median of v[0..n); sorts v. */
static inline double bench_median(double *v, size_t n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), bench_cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Fifty range names of the kind a training loop annotates. */
static const char *const bench_names[50] = {
	"embed.forward", "embed.backward",
	"layer00.attn", "layer00.mlp", "layer01.attn", "layer01.mlp",
	"layer02.attn", "layer02.mlp", "layer03.attn", "layer03.mlp",
	"layer04.attn", "layer04.mlp", "layer05.attn", "layer05.mlp",
	"layer06.attn", "layer06.mlp", "layer07.attn", "layer07.mlp",
	"layer08.attn", "layer08.mlp", "layer09.attn", "layer09.mlp",
	"layer10.attn", "layer10.mlp", "layer11.attn", "layer11.mlp",
	"layer12.attn", "layer12.mlp", "layer13.attn", "layer13.mlp",
	"layer14.attn", "layer14.mlp", "layer15.attn", "layer15.mlp",
	"lm_head.forward", "lm_head.backward", "loss.forward", "loss.backward",
	"allreduce.grads", "allgather.params", "reduce_scatter.grads", "broadcast.params",
	"optimizer.step", "optimizer.zero_grad", "dataloader.next", "h2d.copy",
	"d2h.copy", "checkpoint.save", "lr_scheduler.step", "grad_clip",
};

#endif
