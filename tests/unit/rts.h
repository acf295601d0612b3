/* rts.h — the analyzer's registered runtimes as a set, for unit tests that run a pipeline. */
#ifndef TPROF_TEST_RTS_H
#define TPROF_TEST_RTS_H

#include "../../analyze/runtimes/registry.h"

static inline const struct runtime_set *test_runtimes(void)
{
	static struct runtime_set set;
	unsigned n;
	const struct runtime *const *all = runtimes_all(&n);
	runtime_set_init(&set, all, n);
	return &set;
}

#endif
