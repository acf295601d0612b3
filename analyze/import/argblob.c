/* argblob.c — the args of an imported event as bytes (common/import-records.h): written while the
 * Chrome trace is read, read back when the event is drawn.  Numbers that are whole stay
 * integers, others doubles; nesting deeper than the reader follows is cut to a string. */
#include "argblob.h"

#include <math.h>
#include <string.h>

#include "../../common/import-records.h"

#define MAX_DEPTH 31

struct out {
	uint8_t *buf;
	size_t len, cap;
	int full;
	struct argblob_stats st;
};

static void put(struct out *o, const void *p, size_t n)
{
	if (o->full || o->cap - o->len < n) {
		o->full = 1;
		return;
	}
	memcpy(o->buf + o->len, p, n);
	o->len += n;
}

static void put_u8(struct out *o, uint8_t v)
{
	put(o, &v, 1);
}

static void put_key(struct out *o, const char *key)
{
	size_t n = key ? strlen(key) : 0;
	uint16_t n16 = n > 65535 ? 65535 : (uint16_t)n;
	o->st.cut += n > 65535;
	put(o, &n16, 2);
	put(o, key, n16);
}

static void value(struct out *o, const cJSON *v, const char *key, int keyed, int depth);

static void members(struct out *o, const cJSON *parent, int keyed, int depth)
{
	for (const cJSON *c = parent->child; c && !o->full; c = c->next)
		value(o, c, c->string, keyed, depth);
}

static void value(struct out *o, const cJSON *v, const char *key, int keyed, int depth)
{
	uint8_t type;
	/* the type bits read here: the cJSON_Is* calls went through the library's PLT, up to six
	 * for each value */
	switch (v->type & 0xFF) {
	case cJSON_NULL:
		type = TPROF_IMP_A_NULL;
		break;
	case cJSON_False:
		type = TPROF_IMP_A_FALSE;
		break;
	case cJSON_True:
		type = TPROF_IMP_A_TRUE;
		break;
	case cJSON_Number: {
		double d = v->valuedouble;
		type = fabs(d) < 9007199254740992.0 && d == (double)(int64_t)d ? TPROF_IMP_A_INT
									 : TPROF_IMP_A_DOUBLE;
		break;
	}
	case cJSON_String:
		type = TPROF_IMP_A_STR;
		break;
	case cJSON_Object:
		type = TPROF_IMP_A_OBJ;
		break;
	case cJSON_Array:
		type = TPROF_IMP_A_ARR;
		break;
	default:
		return;
	}
	if ((type == TPROF_IMP_A_OBJ || type == TPROF_IMP_A_ARR) && depth >= MAX_DEPTH) {
		/* too deep to follow: the value as its JSON text */
		char *text = cJSON_PrintUnformatted(v);
		o->st.deep++;
		o->st.items++;
		put_u8(o, TPROF_IMP_A_STR);
		if (keyed)
			put_key(o, key);
		uint32_t n = text ? (uint32_t)strlen(text) : 0;
		put(o, &n, 4);
		put(o, text, n);
		cJSON_free(text);
		return;
	}
	put_u8(o, type);
	o->st.items += type == TPROF_IMP_A_OBJ || type == TPROF_IMP_A_ARR ? 2 : 1;
	if (keyed)
		put_key(o, key);
	switch (type) {
	case TPROF_IMP_A_INT: {
		int64_t i = (int64_t)v->valuedouble;
		put(o, &i, 8);
		break;
	}
	case TPROF_IMP_A_DOUBLE:
		put(o, &v->valuedouble, 8);
		break;
	case TPROF_IMP_A_STR: {
		uint32_t n = (uint32_t)strlen(v->valuestring);
		put(o, &n, 4);
		put(o, v->valuestring, n);
		break;
	}
	case TPROF_IMP_A_OBJ:
	case TPROF_IMP_A_ARR:
		members(o, v, type == TPROF_IMP_A_OBJ, depth + 1);
		put_u8(o, TPROF_IMP_A_END);
		break;
	default:
		break;
	}
}

int argblob_encode(const cJSON *args, uint8_t *buf, size_t *len, size_t cap,
		   struct argblob_stats *st)
{
	struct out o = { buf, *len, cap, 0, { 0, 0, 0 } };
	if (args && cJSON_IsObject(args))
		members(&o, args, 1, 0);
	if (st)
		*st = o.st;
	if (o.full)
		return -1;
	*len = o.len;
	return 0;
}

void argblob_reader_init(struct argblob_reader *r, const uint8_t *blob, size_t len)
{
	r->p = blob;
	r->end = blob + len;
	r->depth = 0;
	r->in_array[0] = 0;
}

static int take(struct argblob_reader *r, void *out, size_t n)
{
	if ((size_t)(r->end - r->p) < n)
		return -1;
	memcpy(out, r->p, n);
	r->p += n;
	return 0;
}

int argblob_next(struct argblob_reader *r, struct argblob_item *it)
{
	uint8_t type;
	if (r->p >= r->end)
		return 0;
	if (take(r, &type, 1) < 0)
		return -1;
	memset(it, 0, sizeof(*it));
	it->type = type;
	if (type == TPROF_IMP_A_END) {
		if (r->depth == 0)
			return -1;
		r->depth--;
		return 1;
	}
	if (!r->in_array[r->depth]) {
		uint16_t n;
		if (take(r, &n, 2) < 0 || (size_t)(r->end - r->p) < n)
			return -1;
		it->key = (const char *)r->p;
		it->key_len = n;
		r->p += n;
	}
	switch (type) {
	case TPROF_IMP_A_NULL:
	case TPROF_IMP_A_FALSE:
	case TPROF_IMP_A_TRUE:
		return 1;
	case TPROF_IMP_A_INT:
		return take(r, &it->i, 8) < 0 ? -1 : 1;
	case TPROF_IMP_A_DOUBLE:
		return take(r, &it->d, 8) < 0 ? -1 : 1;
	case TPROF_IMP_A_STR: {
		uint32_t n;
		if (take(r, &n, 4) < 0 || (size_t)(r->end - r->p) < n)
			return -1;
		it->s = (const char *)r->p;
		it->s_len = n;
		r->p += n;
		return 1;
	}
	case TPROF_IMP_A_OBJ:
	case TPROF_IMP_A_ARR:
		if (r->depth + 1 >= (int)sizeof(r->in_array))
			return -1;
		r->in_array[++r->depth] = type == TPROF_IMP_A_ARR;
		return 1;
	default:
		return -1;
	}
}
