/* registry.c — the list of runtimes (registry.h): a runtime folder defines
 * `const struct runtime runtime_<name>` and gets one X(<name>) here. */
#include "registry.h"

#define RUNTIMES(X) \
	X(device)   \
	X(mpi)      \
	X(nccl)     \
	X(nrt)      \
	X(sys)      \
	X(import)

#define DECLARE(name) extern const struct runtime runtime_##name;
#define ENTRY(name) &runtime_##name,
RUNTIMES(DECLARE)

static const struct runtime *all[RT_MAX] = { RUNTIMES(ENTRY) };
static unsigned nall = sizeof((const struct runtime *[]){ RUNTIMES(ENTRY) }) / sizeof(void *);

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
