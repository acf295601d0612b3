/* render/args-json.c — scene arguments as a JSON object (args-json.h). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "args-json.h"

#define MAX_NEST 32

static void text(struct json_writer *w, const char *s)
{
	jw_str(w, s ? s : "", s ? strlen(s) : 0);
}

static void arg_value(struct json_writer *w, const struct scene_arg *a)
{
	char hex[24];
	switch (a->type) {
	case SA_U64: jw_u64(w, a->v.u); break;
	case SA_I64: jw_i64(w, a->v.i); break;
	case SA_HEX:
		snprintf(hex, sizeof(hex), "0x%" PRIx64, a->v.u);
		text(w, hex);
		break;
	case SA_DOUBLE: jw_double(w, a->v.d); break;
	case SA_STR: text(w, a->v.s); break;
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

static void bracket(struct json_writer *w, int arr, int open)
{
	jw_raw(w, open ? (arr ? "[" : "{") : (arr ? "]" : "}"), 1);
}

void render_args_json(struct json_writer *w, const struct scene_args *a)
{
	/* in_arr[d]: level d is an array (no keys); first[d]: nothing written at it yet */
	uint8_t in_arr[MAX_NEST] = { 0 }, first[MAX_NEST] = { 1 };
	unsigned d = 0, skip = 0;   /* skip: levels inside one nested too deep */
	jw_lit(w, "{");
	for (unsigned i = 0; a && i < a->n; i++) {
		const struct scene_arg *x = &a->a[i];
		int opens = x->type == SA_OBJ || x->type == SA_ARR;
		if (skip) {
			skip += opens;
			skip -= x->type == SA_END;
			continue;
		}
		if (x->type == SA_END) {
			if (d)   /* an end without its opening is ignored */
				bracket(w, in_arr[d--], 0);
			continue;
		}
		if (!first[d])
			jw_lit(w, ",");
		first[d] = 0;
		if (!in_arr[d]) {
			if (x->key)
				text(w, x->key);
			else
				jw_str(w, strings_get(x->key_name), strings_len(x->key_name));
			jw_lit(w, ":");
		}
		if (opens && d + 1 >= MAX_NEST) {
			jw_lit(w, "null");
			skip = 1;
		} else if (opens) {
			d++;
			in_arr[d] = x->type == SA_ARR;
			first[d] = 1;
			bracket(w, in_arr[d], 1);
		} else {
			arg_value(w, x);
		}
	}
	/* what a builder left open (its SA_END dropped for want of room) is closed */
	for (; d; d--)
		bracket(w, in_arr[d], 0);
	jw_lit(w, "}");
}
