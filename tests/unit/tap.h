/* tap.h — the few TAP helpers the C unit tests need: numbered ok/not ok lines, diagnostics,
 * and a plan printed at the end. */
#ifndef TPROF_TAP_H
#define TPROF_TAP_H

#include <inttypes.h>
#include <stdio.h>

static int tap_n, tap_failed;

static inline int tap_ok(int cond, const char *desc)
{
	tap_n++;
	printf("%s %d - %s\n", cond ? "ok" : "not ok", tap_n, desc);
	if (!cond)
		tap_failed++;
	return cond;
}

/* The condition is evaluated first: a description may print what it computed. */
#define ok(cond, ...)                                                   \
	do {                                                            \
		int tap_cond_ = !!(cond);                               \
		char tap_desc_[256];                                    \
		snprintf(tap_desc_, sizeof(tap_desc_), __VA_ARGS__);    \
		tap_ok(tap_cond_, tap_desc_);                           \
	} while (0)

#define is_u64(got, want, ...)                                                      \
	do {                                                                        \
		uint64_t g_ = (uint64_t)(got), w_ = (uint64_t)(want);               \
		ok(g_ == w_, __VA_ARGS__);                                          \
		if (g_ != w_)                                                       \
			printf("#   got %" PRIu64 ", want %" PRIu64 "\n", g_, w_);      \
	} while (0)

static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
