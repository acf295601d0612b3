/* render/sqlite/args.c — scene arguments (struct scene_args: typed values, nested objects and
 * arrays) as JSON text: numbers as numbers, handles as "0x..." strings, durations in
 * microseconds with three decimals, names and strings escaped as JSON wants. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "args.h"

#define MAX_NEST 32

static void key(struct jw *w, const struct scene_arg *a)
{
	if (a->key)
		jw_str(w, a->key, strlen(a->key));
	else
		jw_str(w, strings_get(a->key_name), strings_len(a->key_name));
	jw_lit(w, ":");
}

static void value(struct jw *w, const struct scene_arg *a)
{
	char hex[24];
	switch (a->type) {
	case SA_U64: jw_u64(w, a->v.u); break;
	case SA_I64: jw_i64(w, a->v.i); break;
	case SA_HEX:
		jw_raw(w, hex, (size_t)snprintf(hex, sizeof(hex), "\"0x%" PRIx64 "\"", a->v.u));
		break;
	case SA_DOUBLE: jw_double(w, a->v.d); break;
	case SA_STR: jw_str(w, a->v.s ? a->v.s : "", a->v.s ? strlen(a->v.s) : 0); break;
	case SA_NAME: jw_str(w, strings_get(a->v.name), strings_len(a->v.name)); break;
	case SA_US: jw_us(w, a->v.i); break;
	case SA_BOOL:
		if (a->v.u)
			jw_lit(w, "true");
		else
			jw_lit(w, "false");
		break;
	default: jw_lit(w, "null"); break;
	}
}

int sqlite_args_json(struct jw *w, const struct scene_args *a, int64_t *corr)
{
	uint8_t in_arr[MAX_NEST], first[MAX_NEST];
	int depth = 0;
	*corr = -1;
	if (!a || !a->n)
		return 0;
	in_arr[0] = 0;
	first[0] = 1;
	jw_lit(w, "{");
	for (unsigned i = 0; i < a->n; i++) {
		const struct scene_arg *x = &a->a[i];
		if (x->type == SA_END) {
			if (depth == 0)
				continue;   /* an end without its opening: ignored */
			if (in_arr[depth--])
				jw_lit(w, "]");
			else
				jw_lit(w, "}");
			continue;
		}
		if (!first[depth])
			jw_lit(w, ",");
		first[depth] = 0;
		if (!in_arr[depth])
			key(w, x);
		if (x->type == SA_OBJ || x->type == SA_ARR) {
			if (depth + 1 >= MAX_NEST) {
				w->err = 1;
				return -1;
			}
			depth++;
			in_arr[depth] = x->type == SA_ARR;
			first[depth] = 1;
			if (in_arr[depth])
				jw_lit(w, "[");
			else
				jw_lit(w, "{");
			continue;
		}
		if (depth == 0 && x->type == SA_U64 && x->key && !strcmp(x->key, "correlation"))
			*corr = (int64_t)x->v.u;
		value(w, x);
	}
	/* what a builder left open (its SA_END dropped for want of room) is closed */
	for (; depth > 0; depth--) {
		if (in_arr[depth])
			jw_lit(w, "]");
		else
			jw_lit(w, "}");
	}
	jw_lit(w, "}");
	return w->err ? -1 : 1;
}
