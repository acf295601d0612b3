/* chrome-event.c — chrome-event.h: the event parsed in the arena (chrome-json.h), its known
 * members picked as the parser reads them (strings and numbers without a cJSON node), and the
 * values a double would not hold exactly (times, numeric ids, very large pids) read from their
 * own text. */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/xalloc.h"
#include "chrome-arena.h"
#include "chrome-event.h"
#include "chrome-json.h"
#include "chrome-parser.h"
#include "chrome-text.h"

struct chrome_parser {
	struct chrome_arena *arena;     /* the one parsed into */
	struct chrome_arena *own;       /* emptied before each event */
	int parsed;             /* of the last parse: 1 an object, 2 another value, 0 it failed */
	size_t bad_at;          /* parsed 0: where */
	cJSON *rest;            /* parsed 1: the other members; parsed 2: the value */
	struct chrome_json_value m[CHROME_KEY_N];       /* parsed 1: the known members */
	unsigned have;          /* which of m[] were read (1 << enum chrome_key) */
	struct chrome_json_blob blob;   /* buf set: args as bytes (m[CHROME_KEY_ARGS] a BLOB) */
	cJSON *args_tree;       /* the tree of those args, for M and C events */
};

/* The keys read into m[]; the others go to ev->obj. */
#define PICKED (1u << CHROME_KEY_PH | 1u << CHROME_KEY_NAME | 1u << CHROME_KEY_CAT | \
		1u << CHROME_KEY_PID | 1u << CHROME_KEY_TID | 1u << CHROME_KEY_TS | \
		1u << CHROME_KEY_DUR | 1u << CHROME_KEY_ARGS | 1u << CHROME_KEY_ID | \
		1u << CHROME_KEY_ID2 | 1u << CHROME_KEY_BP | 1u << CHROME_KEY_S | \
		1u << CHROME_KEY_SCOPE)
#define HAVE(ps, k) ((ps)->have >> (k) & 1)
#define RARE (1u << CHROME_KEY_BP | 1u << CHROME_KEY_S | 1u << CHROME_KEY_SCOPE)

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

static const char *value_type(const struct chrome_json_value *v)
{
	if (v->kind == CHROME_JSON_NUMBER)
		return "a number";
	return v->kind == CHROME_JSON_STRING ? "a string" : type_name(v->node);
}

/* Why a member that must be a time is not one. */
static const char *not_time(const struct chrome_json_value *v)
{
	if (v->kind == CHROME_JSON_NUMBER)
		return "out of range";
	return v->kind == CHROME_JSON_STRING ? "a string that is not a number" : value_type(v);
}

/* A known member's string, or NULL when it is absent or not a string. */
static const char *str_of(const struct chrome_parser *ps, int key)
{
	return HAVE(ps, key) && ps->m[key].kind == CHROME_JSON_STRING ? ps->m[key].str : NULL;
}

/* The members that are strings or an object: the first of each name that is not null counts;
 * one of another type than its own counts as absent. */
static void pick(const struct chrome_parser *ps, struct chrome_event *ev)
{
	static const uint8_t none[1];
	const char *ph = str_of(ps, CHROME_KEY_PH);

	if (ph && ph[0] && !ph[1])
		ev->ph = ph[0];
	ev->name = str_of(ps, CHROME_KEY_NAME);
	ev->cat = str_of(ps, CHROME_KEY_CAT);
	if (HAVE(ps, CHROME_KEY_ARGS) && ps->m[CHROME_KEY_ARGS].kind == CHROME_JSON_NODE &&
	    IS(ps->m[CHROME_KEY_ARGS].node, cJSON_Object))
		ev->args = ps->m[CHROME_KEY_ARGS].node;
	if (HAVE(ps, CHROME_KEY_ARGS) && ps->m[CHROME_KEY_ARGS].kind == CHROME_JSON_BLOB) {
		const struct chrome_json_blob *b = &ps->blob;
		uint8_t *copy = b->len ? chrome_arena_alloc(ps->arena, b->len) : NULL;
		if (copy)
			memcpy(copy, b->buf, b->len);
		ev->args_blob = copy ? copy : none;
		ev->args_len = b->len;
		ev->args_full = b->full;
		ev->args_items = b->items;
		ev->args_deep = b->deep;
		ev->args_cut = b->cut;
		ev->args = ps->args_tree;
	}
	/* the members most events lack, looked at only when one is there */
	if (ps->have & RARE) {
		const char *bp = str_of(ps, CHROME_KEY_BP), *s = str_of(ps, CHROME_KEY_S);
		if (bp && bp[0] == 'e' && !bp[1])
			ev->bp = 'e';
		if (s && (s[0] == 'g' || s[0] == 'p' || s[0] == 't') && !s[1])
			ev->scope = s[0];
		ev->id_scope = str_of(ps, CHROME_KEY_SCOPE);
		if ((HAVE(ps, CHROME_KEY_BP) && !ev->bp) || (HAVE(ps, CHROME_KEY_S) && !ev->scope) ||
		    (HAVE(ps, CHROME_KEY_SCOPE) && !ev->id_scope))
			ev->fixes |= 1u << CHROME_FIX_WRONG_TYPE;
	}
	/* present and not taken: said (the phase is the caller's to judge) */
	if ((HAVE(ps, CHROME_KEY_NAME) && !ev->name) || (HAVE(ps, CHROME_KEY_CAT) && !ev->cat) ||
	    (HAVE(ps, CHROME_KEY_ARGS) && !ev->args && !ev->args_blob))
		ev->fixes |= 1u << CHROME_FIX_WRONG_TYPE;
	if (ps->have & CHROME_HAVE_AGAIN)
		ev->fixes |= 1u << CHROME_FIX_AGAIN;
}

/* id2's "local" or "global" member. */
static const cJSON *id2_inner(const cJSON *id2)
{
	if (!IS(id2, cJSON_Object))
		return NULL;
	for (const cJSON *c = id2->child; c; c = c->next) {
		if (!strcmp(c->string, "local") || !strcmp(c->string, "global"))
			return c;
	}
	return NULL;
}

/* A time in µs as exact ns: a number from its digits, or a string that holds one. */
static inline int read_time(const struct chrome_json_value *v, int64_t *ns)
{
	if (v->kind == CHROME_JSON_STRING)
		return chrome_text_decimal(v->str, strlen(v->str), 3, ns);
	if (v->kind != CHROME_JSON_NUMBER)
		return -1;
	return chrome_json_num_scaled(&v->num, 3, ns);
}

static inline int read_ref(const struct chrome_json_value *v, struct chrome_ref *r, unsigned *fixes)
{
	r->present = 1;
	if (v->kind == CHROME_JSON_STRING) {
		r->is_str = 1;
		r->str = v->str;
		return 0;
	}
	if (v->kind != CHROME_JSON_NUMBER)
		return -1;
	const struct chrome_json_num *n = &v->num;
	if (!n->many && n->e10 == 0 && n->m < (1ull << 53)) {
		r->num = n->neg ? -(int64_t)n->m : (int64_t)n->m;
		return 0;
	}
	double d = chrome_json_num_double(n);
	if (fabs(d) < EXACT_DOUBLE) {
		r->num = (int64_t)d;
		if ((double)r->num != d)
			*fixes |= 1u << CHROME_FIX_FRACTION;
		return 0;
	}
	/* past 2^53: read exactly from its text (a fraction there is rounded away unsaid) */
	return chrome_json_num_scaled(n, 0, &r->num);
}

static const char *num_text(struct chrome_arena *a, const char *text, size_t len)
{
	char *s = chrome_arena_alloc(a, len + 1);
	memcpy(s, text, len);
	s[len] = '\0';
	return s;
}

/* A numeric id as its own text (in the arena); a string as it is. */
static const char *id_text(struct chrome_arena *a, const struct chrome_json_value *v)
{
	if (v->kind == CHROME_JSON_NUMBER)
		return num_text(a, v->num.text, v->num.len);
	return v->str;
}

/* The same for a node (id2's value). */
static const char *node_id_text(struct chrome_arena *a, const cJSON *v)
{
	size_t len;
	const char *text = chrome_json_number_text(v, &len);
	return text ? num_text(a, text, len) : v->valuestring;
}

static int read_id(struct chrome_parser *ps, struct chrome_event *ev, char *why, size_t whylen)
{
	const struct chrome_json_value *id = &ps->m[CHROME_KEY_ID], *id2 = &ps->m[CHROME_KEY_ID2];
	if (HAVE(ps, CHROME_KEY_ID)) {
		if (id->kind != CHROME_JSON_NUMBER && id->kind != CHROME_JSON_STRING)
			return damaged(why, whylen, "its id is %s", value_type(id));
		ev->id = id_text(ps->arena, id);
		ev->id_kind = CHROME_ID_PLAIN;
	} else if (HAVE(ps, CHROME_KEY_ID2)) {
		const cJSON *inner = id2->kind == CHROME_JSON_NODE ? id2_inner(id2->node) : NULL;
		if (!inner || (!IS(inner, cJSON_Number) && !IS(inner, cJSON_String)))
			return damaged(why, whylen,
				       "its id2 is not {\"local\": id} or {\"global\": id}");
		ev->id = node_id_text(ps->arena, inner);
		int local = !strcmp(inner->string, "local");
		ev->id_kind = local ? CHROME_ID_LOCAL : CHROME_ID_GLOBAL;
	}
	return 0;
}

static int read_members(struct chrome_parser *ps, struct chrome_event *ev, char *why,
			size_t whylen)
{
	const struct chrome_json_value *m = ps->m;

	pick(ps, ev);
	if (HAVE(ps, CHROME_KEY_TS)) {
		if (read_time(&m[CHROME_KEY_TS], &ev->ts_ns))
			return damaged(why, whylen, "its ts is %s, not a time in microseconds",
				       not_time(&m[CHROME_KEY_TS]));
		ev->has_ts = 1;
	}
	if (HAVE(ps, CHROME_KEY_DUR)) {
		if (read_time(&m[CHROME_KEY_DUR], &ev->dur_ns))
			return damaged(why, whylen, "its dur is %s, not a duration in microseconds",
				       not_time(&m[CHROME_KEY_DUR]));
		ev->has_dur = 1;
	}
	if (HAVE(ps, CHROME_KEY_PID) && read_ref(&m[CHROME_KEY_PID], &ev->pid, &ev->fixes))
		return damaged(why, whylen, "its pid is %s",
			       m[CHROME_KEY_PID].kind == CHROME_JSON_NUMBER
				       ? "out of range" : value_type(&m[CHROME_KEY_PID]));
	if (HAVE(ps, CHROME_KEY_TID) && read_ref(&m[CHROME_KEY_TID], &ev->tid, &ev->fixes))
		return damaged(why, whylen, "its tid is %s",
			       m[CHROME_KEY_TID].kind == CHROME_JSON_NUMBER
				       ? "out of range" : value_type(&m[CHROME_KEY_TID]));
	return read_id(ps, ev, why, whylen);
}

int chrome_parser_json(void *parser, const char *text, size_t len, size_t *used)
{
	struct chrome_parser *ps = parser;
	if (ps->arena == ps->own)
		chrome_arena_reset(ps->arena);
	ps->parsed = chrome_json_event(ps->arena, text, len, used, PICKED, ps->m, &ps->have,
				       &ps->rest, ps->blob.buf ? &ps->blob : NULL);
	ps->args_tree = NULL;
	if (ps->parsed == 1 && HAVE(ps, CHROME_KEY_ARGS) &&
	    ps->m[CHROME_KEY_ARGS].kind == CHROME_JSON_BLOB) {
		/* the metadata and counters are read from the tree of their args, and so are args
		 * larger than the bytes hold */
		const char *ph = HAVE(ps, CHROME_KEY_PH) &&
				 ps->m[CHROME_KEY_PH].kind == CHROME_JSON_STRING
					 ? ps->m[CHROME_KEY_PH].str : "";
		size_t n;
		if (ps->blob.full || ((ph[0] == 'M' || ph[0] == 'C') && !ph[1]))
			ps->args_tree = chrome_json_parse(ps->arena, ps->blob.text,
							  ps->blob.text_len, &n);
	}
	if (ps->parsed)
		return 1;
	ps->bad_at = *used;
	return *used == len ? 0 : -1;
}

int chrome_parser_event(struct chrome_parser *ps, uint64_t offset, struct chrome_event *ev,
			char *why, size_t whylen)
{
	memset(ev, 0, sizeof(*ev));
	ev->offset = offset;
	if (!ps->parsed)
		return damaged(why, whylen, "bad JSON at offset %" PRIu64, offset + ps->bad_at);
	if (ps->parsed != 1)
		return damaged(why, whylen, "not an object");
	ev->obj = ps->rest;
	return read_members(ps, ev, why, whylen);
}

struct chrome_parser *chrome_parser_new(void)
{
	struct chrome_parser *ps = xcalloc(1, sizeof(*ps));
	ps->arena = ps->own = chrome_arena_new();
	return ps;
}

void chrome_parser_use_arena(struct chrome_parser *ps, struct chrome_arena *a)
{
	ps->arena = a ? a : ps->own;
}

void chrome_parser_args_blob(struct chrome_parser *ps, size_t cap)
{
	free(ps->blob.buf);
	ps->blob.buf = NULL;
	ps->blob.cap = cap;
	/* 16 bytes more: short strings are copied 16 bytes at a time */
	if (cap)
		ps->blob.buf = xmalloc(cap + 16);
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
	free(ps->blob.buf);
	free(ps);
}
