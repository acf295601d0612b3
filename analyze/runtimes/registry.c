/* registry.c — the list of runtimes (registry.h): one line per runtime folder. */
#include "registry.h"

extern const struct runtime runtime_mpi, runtime_nccl, runtime_nrt;

static const struct runtime *all[RT_MAX] = {
	&runtime_mpi,
	&runtime_nccl,
	&runtime_nrt,
};
static unsigned nall = 3;

const struct runtime *const *runtimes_all(unsigned *n)
{
	*n = nall;
	return all;
}

int runtimes_add(const struct runtime *rt)
{
	if (nall >= RT_MAX)
		return -1;
	all[nall++] = rt;
	return 0;
}
