/* render/perfetto/intern.c — sets of numbers (util/u64map.h). */
#include "intern.h"

int pf_idset_add(struct pf_idset *s, uint64_t k)
{
	if (u64map_get(&s->m, k))
		return 0;
	u64map_put(&s->m, k, 0);
	return 1;
}

void pf_idset_free(struct pf_idset *s)
{
	u64map_free(&s->m);
}
