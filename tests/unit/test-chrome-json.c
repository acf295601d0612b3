/* test-chrome-json.c — the import reader's JSON parser against cJSON's: the same trees from
 * random values, doubles to the bit (strtod's), what cJSON rejects rejected, a cut value
 * "incomplete" and not "bad", the keys it does not copy told apart, numbers' text kept. */
#include <cjson/cJSON.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../analyze/import/chrome-json.h"
#include "tap.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

struct buf {
	char *p;
	size_t n, cap;
};

static void put(struct buf *b, const char *s, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		b->cap = (b->n + n + 1) * 2;
		b->p = realloc(b->p, b->cap);
	}
	memcpy(b->p + b->n, s, n);
	b->n += n;
	b->p[b->n] = '\0';
}

static void puts_(struct buf *b, const char *s)
{
	put(b, s, strlen(s));
}

static void space(struct buf *b)
{
	static const char *const ws[] = { "", "", "", " ", "\n  ", "\t", "\r\n" };
	puts_(b, ws[rnd() % 7]);
}

/* A number in any form JSON allows: sign, 1 to 25 digits, a fraction, an exponent. */
static void number(struct buf *b)
{
	char s[80];
	int n = 0, digits = 1 + (int)(rnd() % 25), point = (int)(rnd() % (digits + 3));
	if (rnd() % 3 == 0)
		s[n++] = '-';
	if (point == 0 || point >= digits) {
		point = digits;         /* an integer part only */
		s[n++] = (char)('1' + rnd() % 9);
		for (int i = 1; i < digits; i++)
			s[n++] = (char)('0' + rnd() % 10);
	} else {
		s[n++] = rnd() % 4 ? (char)('1' + rnd() % 9) : '0';
		if (s[n - 1] == '0')
			point = 1;
		for (int i = 1; i < point; i++)
			s[n++] = (char)('0' + rnd() % 10);
		s[n++] = '.';
		for (int i = point; i < digits; i++)
			s[n++] = (char)('0' + rnd() % 10);
	}
	if (rnd() % 3 == 0)
		n += snprintf(s + n, sizeof(s) - (size_t)n, "%s%s%d", rnd() % 2 ? "e" : "E",
			      rnd() % 3 == 0 ? "-" : rnd() % 2 ? "+" : "", (int)(rnd() % 40));
	put(b, s, (size_t)n);
}

static void string(struct buf *b)
{
	static const char *const pieces[] = {
		"a", "ph", "ts", "{", "}", "[", "]", ",", ":", " ", "\\\"", "\\\\", "\\/", "\\b",
		"\\f", "\\n", "\\r", "\\t", "\\u0041", "\\u00e9", "\\u20ac", "\\ud83d\\ude00",
		"\xc3\xa9", "\xe2\x9c\x93", "\xf0\x9f\x98\x80", "name", "0123456789abcdef",
	};
	int n = (int)(rnd() % 12);
	puts_(b, "\"");
	if (rnd() % 4 == 0)     /* a known key, alone */
		puts_(b, rnd() % 2 ? "ph" : rnd() % 2 ? "global" : "scope");
	else
		for (int i = 0; i < n; i++)
			puts_(b, pieces[rnd() % (sizeof(pieces) / sizeof(pieces[0]))]);
	puts_(b, "\"");
}

static void value(struct buf *b, int depth)
{
	int kind = (int)(rnd() % (depth > 4 ? 5 : 7));
	space(b);
	switch (kind) {
	case 0: number(b); break;
	case 1: string(b); break;
	case 2: puts_(b, "true"); break;
	case 3: puts_(b, "false"); break;
	case 4: puts_(b, rnd() % 2 ? "null" : "0"); break;
	default: {
		int object = kind == 5, n = (int)(rnd() % 6);
		puts_(b, object ? "{" : "[");
		for (int i = 0; i < n; i++) {
			if (i)
				puts_(b, ",");
			if (object) {
				space(b);
				string(b);
				space(b);
				puts_(b, ":");
			}
			value(b, depth + 1);
			space(b);
		}
		space(b);
		puts_(b, object ? "}" : "]");
	}
	}
	space(b);
}

/* a and b the same tree: types, keys, strings, numbers to the bit, links. */
static int same(const cJSON *a, const cJSON *b, char *why, size_t whylen)
{
	if ((a->type & 0xff) != (b->type & 0xff))
		return snprintf(why, whylen, "types %d and %d", a->type & 0xff, b->type & 0xff), 0;
	if ((a->string == NULL) != (b->string == NULL) ||
	    (a->string && strcmp(a->string, b->string)))
		return snprintf(why, whylen, "keys %s and %s", a->string, b->string), 0;
	if (cJSON_IsString(a) && strcmp(a->valuestring, b->valuestring))
		return snprintf(why, whylen, "strings \"%s\" and \"%s\"", a->valuestring,
				b->valuestring), 0;
	if (cJSON_IsNumber(a) && (memcmp(&a->valuedouble, &b->valuedouble, sizeof(double)) ||
				  a->valueint != b->valueint))
		return snprintf(why, whylen, "numbers %.17g and %.17g", a->valuedouble,
				b->valuedouble), 0;
	if (cJSON_IsTrue(a) && a->valueint != b->valueint)
		return snprintf(why, whylen, "true's valueint"), 0;
	const cJSON *x = a->child, *y = b->child;
	if (x && y && (x->prev == NULL) != (y->prev == NULL))
		return snprintf(why, whylen, "the first child's prev"), 0;
	for (; x && y; x = x->next, y = y->next)
		if (!same(x, y, why, whylen))
			return 0;
	if (x || y)
		return snprintf(why, whylen, "child counts"), 0;
	return 1;
}

static void test_random_trees(void)
{
	struct chrome_arena *a = chrome_arena_new();
	int bad = 0, prefixes_bad = 0, objects = 0;
	char why[256];
	for (int i = 0; i < 20000; i++) {
		struct buf b = { 0 };
		value(&b, 0);
		chrome_arena_reset(a);
		size_t used;
		cJSON *want = cJSON_ParseWithLengthOpts(b.p, b.n + 1, NULL, 1);
		cJSON *got = chrome_json_parse(a, b.p, b.n, &used);
		/* Past the value: white space only. */
		while (got && used < b.n && strchr(" \t\r\n", b.p[used]))
			used++;
		if (!want || !got || used != b.n || !same(want, got, why, sizeof(why))) {
			if (bad++ < 5)
				printf("# %s: %s\n#   %.200s\n", !want ? "cJSON rejects" : !got ?
				       "rejected" : used != b.n ? "stopped early" : "differs", why, b.p);
		}
		/* An object cut anywhere is incomplete (the reader's cue to read more). */
		const char *o = b.p + strspn(b.p, " \t\r\n");
		if (*o == '{') {
			size_t off = (size_t)(o - b.p), n = b.n - off;
			while (n && strchr(" \t\r\n", o[n - 1]))
				n--;
			objects++;
			for (size_t k = 1; k < n; k++) {
				chrome_arena_reset(a);
				if (chrome_json_parse(a, o, k, &used) || used != k) {
					if (prefixes_bad++ < 3)
						printf("# prefix %zu of %.100s: used %zu\n", k, o, used);
					break;
				}
			}
		}
		cJSON_Delete(want);
		free(b.p);
	}
	ok(!bad, "20000 random values: the trees cJSON makes, doubles to the bit (%d differ)", bad);
	ok(!prefixes_bad && objects > 1000,
	   "every prefix of %d objects: incomplete, stopped at its end (%d not)", objects,
	   prefixes_bad);
	chrome_arena_free(a);
}

static void test_numbers(void)
{
	static const char *const edges[] = {
		"0", "-0", "1", "0.1", "0.3", "1e23", "9007199254740993", "9007199254740992.5",
		"18446744073709551615", "18446744073709551616", "1700000000123456.789",
		"1700000000123456.7891", "2.2250738585072011e-308", "4.9e-324", "1.7976931348623157e308",
		"1e-19", "1e19", "1.5e300", "123456789012345678901234567890", "0.000000000000000000001",
		"5e-1", "2.5e6", "-19.5", "99999999999999999999e-20", "7.0e-10", "1844674407370955.1615",
	};
	struct chrome_arena *a = chrome_arena_new();
	int bad = 0, n = 0;
	for (int i = 0; i < 300000 + (int)(sizeof(edges) / sizeof(edges[0])); i++, n++) {
		struct buf b = { 0 };
		if (i < (int)(sizeof(edges) / sizeof(edges[0])))
			puts_(&b, edges[i]);
		else
			number(&b);
		size_t used, len;
		chrome_arena_reset(a);
		cJSON *got = chrome_json_parse(a, b.p, b.n, &used);
		double want = strtod(b.p, NULL);
		const char *text = chrome_json_number_text(got, &len);
		if (!got || !cJSON_IsNumber(got) || memcmp(&want, &got->valuedouble, sizeof(double)) ||
		    !text || len != b.n || memcmp(text, b.p, len)) {
			if (bad++ < 5)
				printf("# %s: %.17g, strtod %.17g\n", b.p, got ? got->valuedouble : 0.0,
				       want);
		}
		free(b.p);
	}
	ok(!bad, "%d numbers: strtod's double to the bit, and their own text (%d wrong)", n, bad);

	size_t used;
	int64_t v = 0;
	chrome_arena_reset(a);
	cJSON *t = chrome_json_parse(a, "1700000000123456.789", 20, &used);
	ok(t && !chrome_json_number_scaled(t, 3, &v) && v == 1700000000123456789,
	   "a number's digits scaled exactly: %lld", (long long)v);
	chrome_arena_reset(a);
	t = chrome_json_parse(a, "17000000001234567890123e-7", 26, &used);
	ok(t && !chrome_json_number_scaled(t, 3, &v) && v == 1700000000123456789,
	   "... past 19 digits, from its text: %lld", (long long)v);
	chrome_arena_reset(a);
	t = chrome_json_parse(a, "\"1\"", 3, &used);
	ok(t && chrome_json_number_scaled(t, 3, &v) == -1 && !chrome_json_number_text(t, &used),
	   "a string is no number");
	/* Python's json module writes these; a trace made in Python may hold them. */
	const char *py = "[NaN, Infinity, -Infinity]";
	chrome_arena_reset(a);
	t = chrome_json_parse(a, py, strlen(py), &used);
	const cJSON *x = t ? t->child : NULL;
	ok(x && isnan(x->valuedouble) && x->valueint == 0 && x->next &&
	   x->next->valuedouble == INFINITY && x->next->valueint == INT_MAX && x->next->next &&
	   x->next->next->valuedouble == -INFINITY && chrome_json_number_scaled(x, 3, &v) == -1,
	   "NaN, Infinity and -Infinity: numbers, with no exact value");
	chrome_arena_free(a);
}

static void test_rejects(void)
{
	static const char *const bad[] = {
		"{\"a\"}", "{\"a\":}", "[1,]", "{\"a\":1,}", "\"\\x\"", "\"\\ud800\"", "\"\\udc00\"",
		"\"\\ud800\\u0041\"", "\"\\u12\"", "trux", "nulL", "1.e3", "1.x", "-x", "+1", "[1 2]",
		"{\"a\" 1}", "{1:2}", "[}", "{]", ".5", "-", "-NaN", "Infinite", "nan", "'a'",
	};
	struct chrome_arena *a = chrome_arena_new();
	int wrong = 0;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		size_t used, n = strlen(bad[i]);
		chrome_arena_reset(a);
		cJSON *c = cJSON_ParseWithLengthOpts(bad[i], n + 1, NULL, 1);
		cJSON *got = chrome_json_parse(a, bad[i], n, &used);
		/* "-" alone is cut short, not bad: more digits could follow. */
		int fine = !got ? used < n || !strcmp(bad[i], "-") : used < n;
		if (!fine || (c && !got && strcmp(bad[i], "+1") && strcmp(bad[i], "1.e3"))) {
			printf("# \"%s\": %s, used %zu; cJSON %s\n", bad[i], got ? "parsed" : "rejected",
			       used, c ? "parses it" : "rejects it");
			wrong++;
		}
		cJSON_Delete(c);
	}
	ok(!wrong, "%zu bad texts: rejected where they go wrong (%d not)",
	   sizeof(bad) / sizeof(bad[0]), wrong);
	chrome_arena_free(a);
}

static void test_keys(void)
{
	static const char *const names[CHROME_KEY_N] = {
		"ph", "name", "cat", "pid", "tid", "ts", "dur", "args", "id", "id2", "local",
		"global", "bp", "s", "scope",
	};
	const char *text = "{\"ph\":1,\"name\":1,\"cat\":1,\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1,"
			   "\"args\":1,\"id\":1,\"id2\":1,\"local\":1,\"global\":1,\"bp\":1,\"s\":1,"
			   "\"scope\":1,\"t\\u0073\":1,\"tss\":1,\"p\":1,\"Ph\":1,\"\":1,\"ph\\u0000\":1}";
	struct chrome_arena *a = chrome_arena_new();
	size_t used;
	cJSON *o = chrome_json_parse(a, text, strlen(text), &used);
	int good = o != NULL, i = 0;
	for (const cJSON *c = o ? o->child : NULL; c; c = c->next, i++) {
		int want = i < CHROME_KEY_N ? i : i == CHROME_KEY_N ? CHROME_KEY_TS : -1;
		if (chrome_json_key_id(c->string) != want || (want >= 0 && strcmp(c->string, names[want]))) {
			printf("# member %d (%s): id %d\n", i, c->string, chrome_json_key_id(c->string));
			good = 0;
		}
	}
	ok(good && i == CHROME_KEY_N + 6, "the keys it does not copy, each told apart; others not");
	chrome_arena_free(a);
}

int main(void)
{
	test_random_trees();
	test_numbers();
	test_rejects();
	test_keys();
	return tap_done();
}
