/* chrome-event.c — chrome-event.h: the event parsed into cJSON nodes in the arena
 * (chrome-json.h), one pass over its members picks the known ones, and the values a double
 * would not hold exactly (times, numeric ids, very large pids) are read from their own text. */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chrome-arena.h"
#include "chrome-event.h"
#include "chrome-json.h"
#include "chrome-parser.h"
#include "chrome-text.h"

struct chrome_parser {
	struct chrome_arena *arena;     /* the one parsed into */
	struct chrome_arena *own;       /* emptied before each event */
	cJSON *root;            /* of the last parse; NULL when it failed at bad_at */
	size_t bad_at;
};

/* The members read with more than cJSON's value. */
enum { K_TS, K_DUR, K_ID, K_PID, K_TID, K_ID2, K_N };

#define EXACT_DOUBLE 9007199254740992.0 /* 2^53: integers below it are exact in a double */
/* v (not NULL) is of cJSON type t?  (cJSON_IsString and the others, without the call) */
#define IS(v, t) (((v)->type & 0xff) == (t))

static int damaged(char *why, size_t whylen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int damaged(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
	return -1;
}

static const char *type_name(const cJSON *v)
{
	if (IS(v, cJSON_Number))
		return "a number";
	if (IS(v, cJSON_String))
		return "a string";
	if (v->type & (cJSON_True | cJSON_False))
		return "a boolean";
	if (IS(v, cJSON_Array))
		return "an array";
	if (IS(v, cJSON_Object))
		return "an object";
	return "null";
}

/* Why a member that must be a time is not one. */
static const char *not_time(const cJSON *v)
{
	if (IS(v, cJSON_Number))
		return "out of range";
	return IS(v, cJSON_String) ? "a string that is not a number" : type_name(v);
}

/* The first member of each known name; null values count as absent, and so do a name, cat,
 * scope or args of another type than theirs (the caller still has them in ev->obj). */
static void pick(const cJSON *root, const cJSON *m[K_N], struct chrome_event *ev)
{
	for (const cJSON *c = root->child; c; c = c->next) {
		const cJSON **slot = NULL;
		const char *v = IS(c, cJSON_String) ? c->valuestring : NULL;
		if (IS(c, cJSON_NULL))
			continue;
		switch (chrome_json_key_id(c->string)) {
		case CHROME_KEY_PH:
			if (!ev->ph && v && v[0] && !v[1])
				ev->ph = v[0];
			break;
		case CHROME_KEY_NAME:
			if (!ev->name)
				ev->name = v;
			break;
		case CHROME_KEY_CAT:
			if (!ev->cat)
				ev->cat = v;
			break;
		case CHROME_KEY_ARGS:
			if (!ev->args && IS(c, cJSON_Object))
				ev->args = c;
			break;
		case CHROME_KEY_BP:
			if (v && v[0] == 'e' && !v[1])
				ev->bp = 'e';
			break;
		case CHROME_KEY_S:
			if (!ev->scope && v && (v[0] == 'g' || v[0] == 'p' || v[0] == 't'))
				ev->scope = v[0];
			break;
		case CHROME_KEY_SCOPE:
			if (!ev->id_scope)
				ev->id_scope = v;
			break;
		case CHROME_KEY_TS: slot = &m[K_TS]; break;
		case CHROME_KEY_DUR: slot = &m[K_DUR]; break;
		case CHROME_KEY_ID: slot = &m[K_ID]; break;
		case CHROME_KEY_ID2: slot = &m[K_ID2]; break;
		case CHROME_KEY_PID: slot = &m[K_PID]; break;
		case CHROME_KEY_TID: slot = &m[K_TID]; break;
		}
		if (slot && !*slot)
			*slot = c;
	}
}

/* id2's "local" or "global" member. */
static const cJSON *id2_inner(const cJSON *id2)
{
	if (!IS(id2, cJSON_Object))
		return NULL;
	for (const cJSON *c = id2->child; c; c = c->next) {
		int k = chrome_json_key_id(c->string);
		if (k == CHROME_KEY_LOCAL || k == CHROME_KEY_GLOBAL)
			return c;
	}
	return NULL;
}

/* A time in µs as exact ns: a number from its digits, or a string that holds one. */
static int read_time(const cJSON *v, int64_t *ns)
{
	if (IS(v, cJSON_String))
		return chrome_text_decimal(v->valuestring, strlen(v->valuestring), 3, ns);
	return chrome_json_number_scaled(v, 3, ns);
}

static int read_ref(const cJSON *v, struct chrome_ref *r)
{
	r->present = 1;
	if (IS(v, cJSON_String)) {
		r->is_str = 1;
		r->str = v->valuestring;
		return 0;
	}
	if (!IS(v, cJSON_Number))
		return -1;
	if (fabs(v->valuedouble) < EXACT_DOUBLE) {
		r->num = (int64_t)v->valuedouble;
		return 0;
	}
	return chrome_json_number_scaled(v, 0, &r->num);
}

/* A numeric id as its own text (in the arena); a string as it is. */
static const char *id_text(struct chrome_arena *a, const cJSON *v)
{
	size_t len;
	const char *text = chrome_json_number_text(v, &len);
	if (!text)
		return v->valuestring;
	char *s = chrome_arena_alloc(a, len + 1);
	memcpy(s, text, len);
	s[len] = '\0';
	return s;
}

static int read_id(struct chrome_parser *ps, struct chrome_event *ev, const cJSON *m[K_N],
		   char *why, size_t whylen)
{
	if (m[K_ID]) {
		if (!IS(m[K_ID], cJSON_Number) && !IS(m[K_ID], cJSON_String))
			return damaged(why, whylen, "its id is %s", type_name(m[K_ID]));
		ev->id = id_text(ps->arena, m[K_ID]);
		ev->id_kind = CHROME_ID_PLAIN;
	} else if (m[K_ID2]) {
		const cJSON *inner = id2_inner(m[K_ID2]);
		if (!inner || (!IS(inner, cJSON_Number) && !IS(inner, cJSON_String)))
			return damaged(why, whylen,
				       "its id2 is not {\"local\": id} or {\"global\": id}");
		ev->id = id_text(ps->arena, inner);
		int local = chrome_json_key_id(inner->string) == CHROME_KEY_LOCAL;
		ev->id_kind = local ? CHROME_ID_LOCAL : CHROME_ID_GLOBAL;
	}
	return 0;
}

static int read_members(struct chrome_parser *ps, struct chrome_event *ev, char *why,
			size_t whylen)
{
	const cJSON *m[K_N] = { NULL };

	pick(ev->obj, m, ev);
	if (m[K_TS]) {
		if (read_time(m[K_TS], &ev->ts_ns))
			return damaged(why, whylen, "its ts is %s, not a time in microseconds",
				       not_time(m[K_TS]));
		ev->has_ts = 1;
	}
	if (m[K_DUR]) {
		if (read_time(m[K_DUR], &ev->dur_ns))
			return damaged(why, whylen, "its dur is %s, not a duration in microseconds",
				       not_time(m[K_DUR]));
		ev->has_dur = 1;
	}
	if (m[K_PID] && read_ref(m[K_PID], &ev->pid))
		return damaged(why, whylen, "its pid is %s", IS(m[K_PID], cJSON_Number) ?
			       "out of range" : type_name(m[K_PID]));
	if (m[K_TID] && read_ref(m[K_TID], &ev->tid))
		return damaged(why, whylen, "its tid is %s", IS(m[K_TID], cJSON_Number) ?
			       "out of range" : type_name(m[K_TID]));
	return read_id(ps, ev, m, why, whylen);
}

int chrome_parser_json(void *parser, const char *text, size_t len, size_t *used)
{
	struct chrome_parser *ps = parser;
	if (ps->arena == ps->own)
		chrome_arena_reset(ps->arena);
	ps->root = chrome_json_parse(ps->arena, text, len, used);
	if (ps->root)
		return 1;
	ps->bad_at = *used;
	return *used == len ? 0 : -1;
}

int chrome_parser_event(struct chrome_parser *ps, uint64_t offset, struct chrome_event *ev,
			char *why, size_t whylen)
{
	memset(ev, 0, sizeof(*ev));
	ev->offset = offset;
	if (!ps->root)
		return damaged(why, whylen, "bad JSON at offset %" PRIu64, offset + ps->bad_at);
	if (!IS(ps->root, cJSON_Object))
		return damaged(why, whylen, "not an object");
	ev->obj = ps->root;
	return read_members(ps, ev, why, whylen);
}

struct chrome_parser *chrome_parser_new(void)
{
	struct chrome_parser *ps = calloc(1, sizeof(*ps));
	if (!ps)
		abort();
	ps->arena = ps->own = chrome_arena_new();
	return ps;
}

void chrome_parser_use_arena(struct chrome_parser *ps, struct chrome_arena *a)
{
	ps->arena = a ? a : ps->own;
}

struct chrome_arena *chrome_parser_arena(struct chrome_parser *ps)
{
	return ps->own;
}

void chrome_parser_free(struct chrome_parser *ps)
{
	if (!ps)
		return;
	chrome_arena_free(ps->own);
	free(ps);
}
