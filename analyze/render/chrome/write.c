/* render/chrome/write.c — the pieces every Chrome trace event is written with: the separator
 * between events, strings and names, the head of an event (phase, category, track, time)
 * and its "args" object from the scene's typed arguments. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "write.h"

void chrome_sep(struct chrome *c)
{
	if (c->first)
		c->first = 0;
	else
		jw_lit(&c->w, ",\n");
}

void chrome_str(struct jw *w, const char *s)
{
	jw_str(w, s, strlen(s));
}

void chrome_name(struct jw *w, uint32_t id)
{
	jw_str(w, strings_get(id), strings_len(id));
}

void chrome_head(struct chrome *c, struct track tr, const char *ph, const char *cat, int64_t ts)
{
	struct jw *w = &c->w;
	chrome_sep(c);
	jw_lit(w, "{\"ph\":\"");
	jw_raw(w, ph, strlen(ph));
	jw_lit(w, "\",\"cat\":\"");
	jw_raw(w, cat, strlen(cat));
	jw_lit(w, "\",\"pid\":");
	jw_i64(w, tr.pid);
	jw_lit(w, ",\"tid\":");
	jw_i64(w, tr.tid);
	jw_lit(w, ",\"ts\":");
	jw_us(w, ts);
}

static void value(struct jw *w, const struct scene_arg *a)
{
	char buf[24];
	switch (a->type) {
	case SA_U64:
		jw_u64(w, a->v.u);
		break;
	case SA_I64:
		jw_i64(w, a->v.i);
		break;
	case SA_HEX:
		snprintf(buf, sizeof(buf), "0x%" PRIx64, a->v.u);
		chrome_str(w, buf);
		break;
	case SA_DOUBLE:
		jw_double(w, a->v.d);
		break;
	case SA_STR:
		chrome_str(w, a->v.s);
		break;
	case SA_NAME:
		chrome_name(w, a->v.name);
		break;
	case SA_US:
		jw_us(w, a->v.i);
		break;
	case SA_BOOL:
		if (a->v.u)
			jw_lit(w, "true");
		else
			jw_lit(w, "false");
		break;
	default:
		jw_lit(w, "null");
		break;
	}
}

static void bracket(struct jw *w, int arr, int open)
{
	if (open)
		jw_raw(w, arr ? "[" : "{", 1);
	else
		jw_raw(w, arr ? "]" : "}", 1);
}

void chrome_args(struct jw *w, const struct scene_args *args)
{
	if (!args || !args->n) {
		jw_lit(w, "}");
		return;
	}
	jw_lit(w, ",\"args\":{");
	/* in_arr[d]: level d is an array (no keys); first[d]: nothing written at it yet */
	char in_arr[32] = { 0 }, first[32] = { 1 };
	unsigned d = 0;
	for (unsigned i = 0; i < args->n; i++) {
		const struct scene_arg *a = &args->a[i];
		if (a->type == SA_END) {
			if (d) {
				bracket(w, in_arr[d], 0);
				d--;
			}
			continue;
		}
		if (!first[d])
			jw_lit(w, ",");
		first[d] = 0;
		if (!in_arr[d]) {
			if (a->key) {
				jw_lit(w, "\"");
				jw_raw(w, a->key, strlen(a->key));
				jw_lit(w, "\":");
			} else {
				chrome_name(w, a->key_name);
				jw_lit(w, ":");
			}
		}
		if ((a->type == SA_OBJ || a->type == SA_ARR) && d + 1 < sizeof(in_arr)) {
			d++;
			in_arr[d] = a->type == SA_ARR;
			first[d] = 1;
			bracket(w, in_arr[d], 1);
			continue;
		}
		value(w, a);
	}
	for (; d; d--)   /* unbalanced: never happens with the builders */
		bracket(w, in_arr[d], 0);
	jw_lit(w, "}}");
}
