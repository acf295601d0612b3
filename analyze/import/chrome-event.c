/* chrome-event.c — chrome-event.h: cJSON parses the event into the arena, one pass over its
 * members picks the known ones, and the values a double would not hold exactly (times, numeric
 * ids, very large pids) are read again from their own text (chrome-text.h). */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chrome-arena.h"
#include "chrome-event.h"
#include "chrome-text.h"

struct chrome_parser {
	struct chrome_arena *arena;
};

/* The members whose text may be needed. */
enum { K_TS, K_DUR, K_ID, K_PID, K_TID, K_ID2, K_N };
static const char *const key_names[K_N] = { "ts", "dur", "id", "pid", "tid", "id2" };

#define EXACT_DOUBLE 9007199254740992.0 /* 2^53: integers below it are exact in a double */

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
	if (cJSON_IsNumber(v))
		return "a number";
	if (cJSON_IsString(v))
		return "a string";
	if (cJSON_IsBool(v))
		return "a boolean";
	if (cJSON_IsArray(v))
		return "an array";
	if (cJSON_IsObject(v))
		return "an object";
	return "null";
}

/* k is the key "s"?  (strcmp with a literal, without the call) */
#define KEY_IS(k, lit) (!memcmp((k), (lit), sizeof(lit)))

/* The first member of each known name; null values count as absent, and so do a name, cat,
 * scope or args of another type than theirs (the caller still has them in ev->obj). */
static void pick(const cJSON *root, const cJSON *m[K_N], struct chrome_event *ev)
{
	for (const cJSON *c = root->child; c; c = c->next) {
		const char *k = c->string;
		const cJSON **slot = NULL;
		if (cJSON_IsNull(c))
			continue;
		/* Every key is NUL-terminated: comparing up to the literal's NUL stays inside it. */
		switch (k[0]) {
		case 'a':
			if (k[1] == 'r' && KEY_IS(k, "args") && !ev->args && cJSON_IsObject(c))
				ev->args = c;
			break;
		case 'b':
			if (k[1] == 'p' && !k[2] && cJSON_IsString(c) && KEY_IS(c->valuestring, "e"))
				ev->bp = 'e';
			break;
		case 'c':
			if (k[1] == 'a' && KEY_IS(k, "cat") && !ev->cat && cJSON_IsString(c))
				ev->cat = c->valuestring;
			break;
		case 'd':
			if (k[1] == 'u' && KEY_IS(k, "dur"))
				slot = &m[K_DUR];
			break;
		case 'i':
			if (k[1] == 'd' && !k[2])
				slot = &m[K_ID];
			else if (k[1] == 'd' && KEY_IS(k, "id2"))
				slot = &m[K_ID2];
			break;
		case 'n':
			if (k[1] == 'a' && KEY_IS(k, "name") && !ev->name && cJSON_IsString(c))
				ev->name = c->valuestring;
			break;
		case 'p':
			if (k[1] == 'h' && !k[2]) {
				const char *v = cJSON_IsString(c) ? c->valuestring : "";
				if (!ev->ph && v[0] && !v[1])
					ev->ph = v[0];
			} else if (k[1] == 'i' && KEY_IS(k, "pid")) {
				slot = &m[K_PID];
			}
			break;
		case 's':
			if (!k[1] && !ev->scope && cJSON_IsString(c) && c->valuestring[0] &&
			    strchr("gpt", c->valuestring[0]))
				ev->scope = c->valuestring[0];
			else if (k[1] == 'c' && KEY_IS(k, "scope") && !ev->id_scope && cJSON_IsString(c))
				ev->id_scope = c->valuestring;
			break;
		case 't':
			if (k[1] == 's' && !k[2])
				slot = &m[K_TS];
			else if (k[1] == 'i' && KEY_IS(k, "tid"))
				slot = &m[K_TID];
			break;
		}
		if (slot && !*slot)
			*slot = c;
	}
}

/* Which members' text is needed: numbers a double may not hold exactly. */
static unsigned texts_needed(const cJSON *m[K_N], const cJSON **inner)
{
	unsigned need = 0;
	if (m[K_TS] && cJSON_IsNumber(m[K_TS]))
		need |= 1u << K_TS;
	if (m[K_DUR] && cJSON_IsNumber(m[K_DUR]))
		need |= 1u << K_DUR;
	if (m[K_ID] && cJSON_IsNumber(m[K_ID]))
		need |= 1u << K_ID;
	if (m[K_PID] && cJSON_IsNumber(m[K_PID]) && !(fabs(m[K_PID]->valuedouble) < EXACT_DOUBLE))
		need |= 1u << K_PID;
	if (m[K_TID] && cJSON_IsNumber(m[K_TID]) && !(fabs(m[K_TID]->valuedouble) < EXACT_DOUBLE))
		need |= 1u << K_TID;
	*inner = NULL;
	if (m[K_ID2] && cJSON_IsObject(m[K_ID2]))
		for (const cJSON *c = m[K_ID2]->child; c && !*inner; c = c->next)
			if (!strcmp(c->string, "local") || !strcmp(c->string, "global"))
				*inner = c;
	if (*inner && cJSON_IsNumber(*inner))
		need |= 1u << K_ID2;
	return need;
}

/* The text of the members in need, in one walk over the event's top level. */
static void find_texts(const char *text, size_t len, unsigned need, struct chrome_text t[K_N])
{
	const char *keys[K_N];
	struct chrome_text found[K_N];
	unsigned n = 0, idx[K_N];

	for (unsigned k = 0; k < K_N; k++) {
		t[k].p = NULL;
		t[k].n = 0;
		if (need & (1u << k)) {
			idx[n] = k;
			keys[n++] = key_names[k];
		}
	}
	if (!n)
		return;
	chrome_text_members(text, len, keys, n, found);
	for (unsigned i = 0; i < n; i++)
		t[idx[i]] = found[i];
}

/* A time in µs as exact ns: a number from its text, or a string that holds one. */
static int read_time(const cJSON *v, const struct chrome_text *t, int64_t *ns)
{
	if (cJSON_IsString(v))
		return chrome_text_decimal(v->valuestring, strlen(v->valuestring), 3, ns);
	if (!cJSON_IsNumber(v))
		return -1;
	if (t->p)
		return chrome_text_decimal(t->p, t->n, 3, ns);
	/* A key written with escapes ("t\u0073"): the double is all there is. */
	double x = v->valuedouble * 1000;
	if (!(fabs(x) < 9.2e18))
		return -1;
	*ns = llround(x);
	return 0;
}

static int read_ref(const cJSON *v, const struct chrome_text *t, struct chrome_ref *r)
{
	r->present = 1;
	if (cJSON_IsString(v)) {
		r->is_str = 1;
		r->str = v->valuestring;
		return 0;
	}
	if (!cJSON_IsNumber(v))
		return -1;
	if (fabs(v->valuedouble) < EXACT_DOUBLE) {
		r->num = (int64_t)v->valuedouble;
		return 0;
	}
	return t->p && chrome_text_decimal(t->p, t->n, 0, &r->num) == 0 ? 0 : -1;
}

/* A numeric id as its own text (in the arena); a string as it is. */
static const char *id_text(struct chrome_arena *a, const cJSON *v, const char *text, size_t len)
{
	if (cJSON_IsString(v))
		return v->valuestring;
	char *s;
	if (text) {
		s = chrome_arena_alloc(a, len + 1);
		memcpy(s, text, len);
		s[len] = '\0';
	} else {
		s = chrome_arena_alloc(a, 32);
		if (fabs(v->valuedouble) < EXACT_DOUBLE && v->valuedouble == floor(v->valuedouble))
			snprintf(s, 32, "%" PRId64, (int64_t)v->valuedouble);
		else
			snprintf(s, 32, "%.17g", v->valuedouble);
	}
	return s;
}

static int read_id(struct chrome_parser *ps, struct chrome_event *ev, const cJSON *m[K_N],
		   const cJSON *inner, const struct chrome_text t[K_N], char *why, size_t whylen)
{
	if (m[K_ID]) {
		if (!cJSON_IsNumber(m[K_ID]) && !cJSON_IsString(m[K_ID]))
			return damaged(why, whylen, "its id is %s", type_name(m[K_ID]));
		ev->id = id_text(ps->arena, m[K_ID], t[K_ID].p, t[K_ID].n);
		ev->id_kind = CHROME_ID_PLAIN;
	} else if (m[K_ID2]) {
		if (!inner || (!cJSON_IsNumber(inner) && !cJSON_IsString(inner)))
			return damaged(why, whylen, "its id2 is not {\"local\": id} or {\"global\": id}");
		struct chrome_text it = { NULL, 0 };
		if (t[K_ID2].p) {
			const char *keys[1] = { inner->string };
			chrome_text_members(t[K_ID2].p, t[K_ID2].n, keys, 1, &it);
		}
		ev->id = id_text(ps->arena, inner, it.p, it.n);
		ev->id_kind = inner->string[0] == 'l' ? CHROME_ID_LOCAL : CHROME_ID_GLOBAL;
	}
	return 0;
}

static int read_members(struct chrome_parser *ps, struct chrome_event *ev, const char *text,
			size_t len, char *why, size_t whylen)
{
	const cJSON *m[K_N] = { NULL }, *inner;
	struct chrome_text t[K_N];

	pick(ev->obj, m, ev);
	find_texts(text, len, texts_needed(m, &inner), t);
	if (m[K_TS]) {
		if (read_time(m[K_TS], &t[K_TS], &ev->ts_ns))
			return damaged(why, whylen, "its ts is %s, not a time in microseconds",
				       cJSON_IsNumber(m[K_TS]) ? "out of range" : type_name(m[K_TS]));
		ev->has_ts = 1;
	}
	if (m[K_DUR]) {
		if (read_time(m[K_DUR], &t[K_DUR], &ev->dur_ns))
			return damaged(why, whylen, "its dur is %s, not a duration in microseconds",
				       cJSON_IsNumber(m[K_DUR]) ? "out of range" : type_name(m[K_DUR]));
		ev->has_dur = 1;
	}
	if (m[K_PID] && read_ref(m[K_PID], &t[K_PID], &ev->pid))
		return damaged(why, whylen, "its pid is %s", cJSON_IsNumber(m[K_PID]) ?
			       "out of range" : type_name(m[K_PID]));
	if (m[K_TID] && read_ref(m[K_TID], &t[K_TID], &ev->tid))
		return damaged(why, whylen, "its tid is %s", cJSON_IsNumber(m[K_TID]) ?
			       "out of range" : type_name(m[K_TID]));
	return read_id(ps, ev, m, inner, t, why, whylen);
}

int chrome_parser_parse(struct chrome_parser *ps, const char *text, size_t len, uint64_t offset,
			struct chrome_event *ev, char *why, size_t whylen)
{
	const char *end = NULL;

	memset(ev, 0, sizeof(*ev));
	ev->offset = offset;
	chrome_arena_reset(ps->arena);
	chrome_arena_enter(ps->arena);
	cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
	chrome_arena_leave();
	if (!root) {
		uint64_t at = offset + (end && end >= text && end <= text + len ? (uint64_t)(end - text) : 0);
		return damaged(why, whylen, "bad JSON at offset %" PRIu64, at);
	}
	if (!cJSON_IsObject(root))
		return damaged(why, whylen, "not an object");
	ev->obj = root;
	return read_members(ps, ev, text, len, why, whylen);
}

struct chrome_parser *chrome_parser_new(void)
{
	struct chrome_parser *ps = calloc(1, sizeof(*ps));
	if (!ps)
		abort();
	ps->arena = chrome_arena_new();
	return ps;
}

void chrome_parser_free(struct chrome_parser *ps)
{
	if (!ps)
		return;
	chrome_arena_free(ps->arena);
	free(ps);
}
