/* registry.c — the list of runtimes (registry.h): a runtime folder defines
 * `const struct runtime runtime_<name>` and gets one X(<name>) here. */
#include "registry.h"

#define RUNTIMES(X) \
	X(mpi)      \
	X(nccl)     \
	X(nrt)

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

static const struct runtime *by_domain[256];
static const struct runtime *by_record[64];
static int indexed;

static void index_all(void)
{
	for (unsigned i = 0; i < nall; i++) {
		if (all[i]->domain >= 0 && all[i]->domain < 256)
			by_domain[all[i]->domain] = all[i];
		for (unsigned k = 0; k < 64; k++)
			if (all[i]->records & (1ull << k))
				by_record[k] = all[i];
	}
	indexed = 1;
}

int runtimes_add(const struct runtime *rt)
{
	if (nall >= RT_MAX)
		return -1;
	all[nall++] = rt;
	indexed = 0;
	return 0;
}

const struct runtime *runtime_of_domain(unsigned domain)
{
	if (__builtin_expect(!indexed, 0))
		index_all();
	return domain < 256 ? by_domain[domain] : NULL;
}

const struct runtime *runtime_of_record(unsigned kind)
{
	if (!indexed)
		index_all();
	return kind < 64 ? by_record[kind] : NULL;
}
