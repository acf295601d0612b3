/* diagnose/order.c — the diagnosis's processes in the order every output writes them (by
 * process number), whatever order their first events came in. */
#include <stdlib.h>
#include <string.h>

#include "../../common/xalloc.h"
#include "../read/trace.h"
#include "state.h"

static int by_number(const void *a, const void *b)
{
	const struct dproc *x = *(struct dproc *const *)a, *y = *(struct dproc *const *)b;
	return (x->p->index > y->p->index) - (x->p->index < y->p->index);
}

struct dproc **dprocs_in_order(const struct diagnosis *dx)
{
	struct dproc **order = xmallocarray(dx->nprocs ? dx->nprocs : 1, sizeof(*order));
	memcpy(order, dx->procs, dx->nprocs * sizeof(*order));
	qsort(order, dx->nprocs, sizeof(*order), by_number);
	return order;
}
