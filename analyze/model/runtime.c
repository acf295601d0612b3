/* runtime.c — a set of runtimes (runtime.h) indexed by the API domain and the record kinds
 * each one reads. */
#include "runtime.h"

void runtime_set_init(struct runtime_set *s, const struct runtime *const *all, unsigned n)
{
	*s = (struct runtime_set){ .all = all, .n = n };
	for (unsigned i = 0; i < n; i++) {
		if (all[i]->domain >= 0 && all[i]->domain < 256)
			s->by_domain[all[i]->domain] = all[i];
		for (unsigned k = 0; k < 64; k++)
			if (all[i]->records & (1ull << k))
				s->by_record[k] = all[i];
	}
}
