/* render/sqlite/args.c — a scene item's typed arguments as its args column's JSON text
 * (render/args-json.c writes them as the Chrome trace does), and its top-level
 * "correlation". */
#include <string.h>

#include "../args-json.h"
#include "args.h"

/* The top-level "correlation" (an unsigned value), or -1. */
static int64_t correlation(const struct scene_args *a)
{
	unsigned depth = 0;
	for (unsigned i = 0; i < a->n; i++) {
		const struct scene_arg *x = &a->a[i];
		if (x->type == SA_OBJ || x->type == SA_ARR)
			depth++;
		else if (x->type == SA_END)
			depth -= depth > 0;
		else if (depth == 0 && x->type == SA_U64 && x->key && !strcmp(x->key, "correlation"))
			return (int64_t)x->v.u;
	}
	return -1;
}

int sqlite_args_json(struct json_writer *w, const struct scene_args *a, int64_t *corr)
{
	*corr = -1;
	if (!a || !a->n)
		return 0;
	*corr = correlation(a);
	render_args_json(w, a);
	return w->err ? -1 : 1;
}
