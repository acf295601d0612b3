/* render/perfetto/annot.c — the scene's typed arguments as debug annotations: unsigned,
 * signed, double, bool and string values as such, handles as pointers (shown in hex), trace
 * strings and argument names interned, microseconds as doubles, nested objects and arrays
 * as dict_entries and array_values. */
#include <string.h>

#include "annot.h"
#include "seq.h"
#include "proto.h"

#define DEPTH 32

static void annot_value(struct perfetto_writer *w, struct pf_seq *s, const struct scene_arg *a)
{
	struct proto_buf *b = &s->b;
	switch (a->type) {
	case SA_U64:
		pb_uint(b, DA_UINT, a->v.u);
		break;
	case SA_I64:
		pb_uint(b, DA_INT, (uint64_t)a->v.i);
		break;
	case SA_HEX:
		pb_uint(b, DA_POINTER, a->v.u);
		break;
	case SA_DOUBLE:
		pb_double(b, DA_DOUBLE, a->v.d);
		break;
	case SA_STR:
		pb_bytes(b, DA_STRING, a->v.s ? a->v.s : "", a->v.s ? strlen(a->v.s) : 0);
		break;
	case SA_NAME:
		if (a->v.name)
			pb_uint(b, DA_STRING_IID, pf_iid_strval(w, s, a->v.name));
		else
			pb_bytes(b, DA_STRING, "", 0);
		break;
	case SA_US:
		pb_double(b, DA_DOUBLE, (double)a->v.i / 1000.0);
		break;
	case SA_BOOL:
		pb_uint(b, DA_BOOL, a->v.u != 0);
		break;
	default:
		break;
	}
}

void pf_annotations(struct perfetto_writer *w, struct pf_seq *s, const struct scene_args *args)
{
	if (!args || !args->n)
		return;
	struct proto_buf *b = &s->b;
	size_t open[DEPTH];
	char in_arr[DEPTH] = { 0 };
	unsigned d = 0, too_deep = 0;
	for (unsigned i = 0; i < args->n; i++) {
		const struct scene_arg *a = &args->a[i];
		if (a->type == SA_END) {
			if (too_deep)
				too_deep--;
			else if (d)
				pb_close(b, open[d--]);
			continue;
		}
		if (too_deep) {
			too_deep += a->type == SA_OBJ || a->type == SA_ARR;
			continue;
		}
		pb_need(b, 4 * PB_MAX_FIELD);
		unsigned field = TE_DEBUG_ANNOTATIONS;
		if (d)
			field = in_arr[d] ? DA_ARRAY_VALUES : DA_DICT_ENTRIES;
		size_t m = pb_open(b, field);
		if (!in_arr[d])
			pb_uint(b, DA_NAME_IID, pf_iid_key(w, s, a->key, a->key_name));
		if (a->type == SA_OBJ || a->type == SA_ARR) {
			if (d + 1 < DEPTH) {
				open[++d] = m;
				in_arr[d] = a->type == SA_ARR;
				continue;
			}
			too_deep = 1;
		} else {
			annot_value(w, s, a);
		}
		pb_close(b, m);
	}
	while (d)   /* unbalanced: never happens with the builders */
		pb_close(b, open[d--]);
}
