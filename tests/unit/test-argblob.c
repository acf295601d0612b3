/* test-argblob.c — an imported event's args as bytes (analyze/import/argblob.c) and back:
 * each JSON type, whole numbers as integers up to 2^53 and doubles past it, nesting, nesting
 * too deep kept as its JSON text, and a buffer too small refused with nothing written.  And
 * the same bytes written by the event parser from the text (chrome-json.h, a
 * chrome_json_blob) as argblob_encode writes from the tree: on chosen and on random args, with
 * room and without, and bad or cut text refused where the tree's parse refuses it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../analyze/import/argblob.h"
#include "../../analyze/import/chrome-arena.h"
#include "../../analyze/import/chrome-json.h"
#include "../../common/import-records.h"
#include "tap.h"

/* The members read back, as text: key=value, I int, D double, S'string', T F N, [..] {..}. */
static int dump(const uint8_t *blob, size_t len, char *out, size_t cap)
{
	struct argblob_reader r;
	struct argblob_item it;
	size_t n = 0;
	int rc;
	out[0] = '\0';
	argblob_reader_init(&r, blob, len);
	while ((rc = argblob_next(&r, &it)) > 0) {
		char v[160] = "";
		switch (it.type) {
		case TPROF_IMP_A_NULL: strcpy(v, "N"); break;
		case TPROF_IMP_A_FALSE: strcpy(v, "F"); break;
		case TPROF_IMP_A_TRUE: strcpy(v, "T"); break;
		case TPROF_IMP_A_INT: snprintf(v, sizeof(v), "I%lld", (long long)it.i); break;
		case TPROF_IMP_A_DOUBLE: snprintf(v, sizeof(v), "D%.17g", it.d); break;
		case TPROF_IMP_A_STR: snprintf(v, sizeof(v), "S'%.*s'", (int)it.s_len, it.s); break;
		case TPROF_IMP_A_OBJ: strcpy(v, "{"); break;
		case TPROF_IMP_A_ARR: strcpy(v, "["); break;
		case TPROF_IMP_A_END: strcpy(v, "}"); break;
		}
		n += (size_t)snprintf(out + n, n < cap ? cap - n : 0, "%s%.*s%s%s", n ? " " : "",
				      (int)it.key_len, it.key ? it.key : "", it.key ? "=" : "", v);
	}
	return rc;
}

static void one(const char *what, const char *json, const char *want)
{
	cJSON *args = cJSON_Parse(json);
	uint8_t buf[4096];
	char got[8192];
	size_t len = 0;
	ok(args && argblob_encode(args, buf, &len, sizeof(buf), NULL) == 0, "%s: encoded", what);
	ok(dump(buf, len, got, sizeof(got)) == 0, "%s: read back to its end", what);
	ok(!strcmp(got, want), "%s: read back as written", what);
	if (strcmp(got, want))
		printf("#   got  %s\n#   want %s\n", got, want);
	cJSON_Delete(args);
}


/* ---- the parser's bytes against argblob_encode's ------------------------------------------ */

static struct chrome_arena *arena;

/* The event {"ph":"X","args":ARGS} parsed with a blob of cap bytes, and ARGS parsed to a tree
 * then encoded with cap: the same outcome, bytes and stats.  0 when they agree. */
static int same_bytes(const char *args, size_t alen, size_t cap)
{
	static char ev[1 << 20];
	static uint8_t a[1 << 18], b[(1 << 18) + 16];
	struct chrome_json_value vals[CHROME_KEY_N];
	struct argblob_stats st = { 0, 0, 0 };
	struct chrome_json_blob blob = { .buf = b, .cap = cap };
	unsigned have;
	cJSON *rest;
	size_t used, len = 0, n = (size_t)snprintf(ev, sizeof(ev), "{\"ph\":\"X\",\"args\":");
	memcpy(ev + n, args, alen);
	n += alen;
	ev[n++] = '}';
	chrome_arena_reset(arena);
	int rc = chrome_json_event(arena, ev, n, &used, 1u << CHROME_KEY_ARGS | 1u << CHROME_KEY_PH,
				   vals, &have, &rest, &blob);
	if (rc != 1 || used != n || !(have >> CHROME_KEY_ARGS & 1) ||
	    vals[CHROME_KEY_ARGS].kind != CHROME_JSON_BLOB || blob.text_len != alen)
		return 1;
	cJSON *tree = chrome_json_parse(arena, args, alen, &used);
	if (!tree || used != alen)
		return 2;
	int full = argblob_encode(tree, a, &len, cap, &st) < 0;
	if (full != blob.full)
		return 3;
	if (!full && (len != blob.len || memcmp(a, b, len) || st.items != blob.items ||
		      st.deep != blob.deep || st.cut != blob.cut))
		return 4;
	return 0;
}

static void same(const char *what, const char *args)
{
	int rc = 0;
	size_t n = strlen(args);
	/* with room, and with less than each length up to it */
	static const size_t caps[] = { 65536 * 4, 0, 1, 2, 3, 7, 8, 11, 16, 24, 40, 100, 1000 };
	for (size_t i = 0; i < sizeof(caps) / sizeof(caps[0]) && !rc; i++)
		rc = same_bytes(args, n, caps[i]);
	ok(!rc, "the parser's bytes: %s", what);
	if (rc)
		printf("#   %d on %.200s\n", rc, args);
}

/* The parse of text (an event) with and without a blob: the same result and stopping place. */
static int same_refusal(const char *text, size_t n)
{
	struct chrome_json_value vals[CHROME_KEY_N];
	static uint8_t b[4096 + 16];
	struct chrome_json_blob blob = { .buf = b, .cap = 4096 };
	unsigned have;
	cJSON *rest;
	size_t used1, used2;
	chrome_arena_reset(arena);
	int rc1 = chrome_json_event(arena, text, n, &used1, ~0u >> 1, vals, &have, &rest, NULL);
	chrome_arena_reset(arena);
	int rc2 = chrome_json_event(arena, text, n, &used2, ~0u >> 1, vals, &have, &rest, &blob);
	return rc1 == rc2 && used1 == used2;
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static unsigned rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

static const char *const pieces[] = {
	"a", "Input Dims", "", "\\\"", "\\\\", "\\/", "\\n\\t", "\\u00e9", "\\u0000x", "\\ud83d\\ude00",
	"caf\xc3\xa9", "} ] , :", "{\\\"", "0123456789abcdef0123",
};
static const char *const numbers[] = {
	"0", "-0", "1", "-7", "3.0", "1e2", "1E+2", "2.5e-1", "0.1", "1.5e300", "-1e-300",
	"9007199254740991", "9007199254740992", "9007199254740993", "-9007199254740992",
	"123456789012345678901234", "1e-400", "5e-324", "1e400", "NaN", "Infinity", "-Infinity",
	"0.000000000000000000000000001", "18446744073709551616", "007", "1.0000000000000000001",
};

static void rand_value(char *o, size_t *n, size_t cap, int depth)
{
	if (*n + 512 > cap)
		depth = 99;
	switch (depth > 35 ? rnd(5) : rnd(8)) {
	case 0:
		*n += (size_t)sprintf(o + *n, "%s",
				      numbers[rnd(sizeof(numbers) / sizeof(numbers[0]))]);
		break;
	case 1: *n += (size_t)sprintf(o + *n, "\"%s%s\"", pieces[rnd(14)], pieces[rnd(14)]); break;
	case 2: *n += (size_t)sprintf(o + *n, "%s", rnd(2) ? "true" : "false"); break;
	case 3: *n += (size_t)sprintf(o + *n, "null"); break;
	case 4: *n += (size_t)sprintf(o + *n, "%d", (int)rnd(100000) - 50000); break;
	default: {
		int object = rnd(2), k = (int)rnd(depth > 6 ? 2 : 5);
		o[(*n)++] = object ? '{' : '[';
		for (int i = 0; i < k; i++) {
			if (i)
				*n += (size_t)sprintf(o + *n, rnd(2) ? "," : " ,\n  ");
			if (object)
				*n += (size_t)sprintf(o + *n, "\"%s\"%s", pieces[rnd(14)], rnd(2) ? ":" : " : ");
			rand_value(o, n, cap, depth + 1);
		}
		o[(*n)++] = object ? '}' : ']';
		break;
	}
	}
}

static void reader_bytes(void)
{
	arena = chrome_arena_new();
	same("no member", "{}");
	same("numbers", "{\"n\":1,\"neg\":-7,\"z\":-0.0,\"w\":3.0,\"big\":9007199254740991,"
	     "\"edge\":9007199254740992,\"f\":2.5,\"e\":1e300,\"t\":-1e-300,\"nan\":NaN,"
	     "\"inf\":-Infinity,\"many\":123456789012345678901234,\"x\":1E+2}");
	same("literals, strings, escapes",
	     "{\"b\":true,\"c\":false,\"x\":null,\"s\":\"hi\",\"empty\":\"\","
	     "\"q\":\"a \\\"q\\\" \\\\ \\/\","
	     "\"u\":\"caf\\u00e9 \\ud83d\\ude00\",\"nul\\u0000key\":\"v\\u0000cut\",\"\":1}");
	same("nesting", "{\"l\":[1,\"two\",{\"three\":3},[]],\"o\":{},\"Input Dims\":[[8, 16], [], [1]]}");
	same("white space", "{ \"a\" : [ 1 , 2 ] ,\n\t\"b\" :\r\n {\"c\" : null } }");
	same("a key given twice", "{\"a\":1,\"a\":\"two\"}");
	/* a NUL byte itself inside strings (not JSON, read as cJSON would, to the NUL) */
	static const char raw[] = "{\"k\\u0041\0z\":\"v\0w\",\"b\":\"x\"}";
	ok(!same_bytes(raw, sizeof(raw) - 1, 4096) && !same_bytes(raw, sizeof(raw) - 1, 9),
	   "the parser's bytes: NUL bytes in a key and a string");
	char *big = malloc(200000);
	size_t n = 0;
	n += (size_t)sprintf(big, "{\"");
	memset(big + n, 'k', 70000);
	n += 70000;
	n += (size_t)sprintf(big + n, "\":1,\"s\":\"");
	memset(big + n, 's', 70000);
	n += 70000;
	sprintf(big + n, "\"}");
	same("a key longer than 65535 bytes", big);
	/* 40 deep, objects and arrays: past 31 as JSON text */
	n = 0;
	n += (size_t)sprintf(big, "{\"d\":");
	for (int i = 0; i < 40; i++)
		n += (size_t)sprintf(big + n, i % 2 ? "[" : "{\"k%d\":", i);
	n += (size_t)sprintf(big + n, "[1.50,\"x\\n\",true,null,-0.0,1e400]");
	for (int i = 39; i >= 0; i--)
		n += (size_t)sprintf(big + n, i % 2 ? "]" : "}");
	sprintf(big + n, ",\"after\":2}");
	same("nested 40 deep", big);
	/* random args */
	int bad = 0;
	for (int i = 0; i < 3000 && !bad; i++) {
		n = 0;
		big[n++] = '{';
		int k = (int)rnd(6);
		for (int j = 0; j < k; j++) {
			if (j)
				big[n++] = ',';
			n += (size_t)sprintf(big + n, "\"%s\":", pieces[rnd(14)]);
			rand_value(big, &n, 190000, 0);
		}
		big[n++] = '}';
		big[n] = '\0';
		size_t cap = rnd(4) ? 65536 : rnd(300);
		if (same_bytes(big, n, cap)) {
			printf("#   cap %zu: %.300s\n", cap, big);
			bad = 1;
		}
	}
	ok(!bad, "the parser's bytes: 3000 random args");
	/* bad JSON in args, and every cut of an event: refused where the tree's parse is */
	static const char *const refused[] = {
		"{\"args\":{\"a\":tru},\"ph\":\"X\"}", "{\"args\":{\"a\":[1,},\"ph\":\"X\"}",
		"{\"args\":{\"a\" 1}}", "{\"args\":{\"a\":\"x\\q\"}}", "{\"args\":{\"a\":-}}",
		"{\"args\":{\"a\":1.}}", "{\"args\":{\"a\":[}]}}", "{\"args\":{\"a\":\"\\ud800\"}}",
		"{\"args\":{1:2}}", "{\"args\":{\"a\":1,}}", "{\"args\":{\"a\":nul}}",
		"{\"args\":null,\"args\":{\"a\":[1,2}}",
	};
	bad = 0;
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		bad += !same_refusal(refused[i], strlen(refused[i]));
	static const char cut[] = "{\"ph\": \"X\", \"name\": \"k\", \"args\": {\"External id\": 12, "
				  "\"s\": \"a\\\"b\\u00e9\", \"d\": [[1, 2], []], \"f\": -1.5e3, \"t\": true,"
				  " \"n\": null}, \"ts\": 1.5}";
	for (size_t i = 0; i <= sizeof(cut) - 1; i++)
		bad += !same_refusal(cut, i);
	ok(!bad, "the parser with bytes refuses bad and cut text where it does with trees");
	free(big);
	chrome_arena_free(arena);
}

int main(void)
{
	one("no member", "{}", "");
	one("whole numbers", "{\"n\":1,\"neg\":-7,\"z\":-0.0,\"w\":3.0}", "n=I1 neg=I-7 z=I0 w=I3");
	one("integers up to 2^53, doubles past it",
	    "{\"big\":9007199254740991,\"edge\":9007199254740992,\"nbig\":-9007199254740991}",
	    "big=I9007199254740991 edge=D9007199254740992 nbig=I-9007199254740991");
	one("doubles", "{\"f\":2.5,\"e\":1e300,\"t\":-1e-300,\"h\":0.5}",
	    "f=D2.5 e=D1.0000000000000001e+300 t=D-1e-300 h=D0.5");
	one("literals and strings",
	    "{\"b\":true,\"c\":false,\"x\":null,\"s\":\"hi\",\"empty\":\"\"}",
	    "b=T c=F x=N s=S'hi' empty=S''");
	one("arrays and objects", "{\"l\":[1,\"two\",{\"three\":3},[]],\"o\":{}}",
	    "l=[ I1 S'two' { three=I3 } [ } } o={ }");

	/* deeper than 31: the rest as its JSON text */
	char deep[256] = "{\"d\":", want[2048] = "d=[";
	for (int i = 0; i < 40; i++)
		strcat(deep, "[");
	strcat(deep, "1");
	for (int i = 0; i < 40; i++)
		strcat(deep, "]");
	strcat(deep, "}");
	for (int i = 1; i < 31; i++)
		strcat(want, " [");
	strcat(want, " S'");
	for (int i = 31; i < 40; i++)
		strcat(want, "[");
	strcat(want, "1");
	for (int i = 31; i < 40; i++)
		strcat(want, "]");
	strcat(want, "'");
	for (int i = 0; i < 31; i++)
		strcat(want, " }");
	one("nested 40 deep", deep, want);

	/* too small: refused, the length where it was */
	cJSON *args = cJSON_Parse("{\"s\":\"a string longer than the room\"}");
	uint8_t buf[16];
	size_t len = 3;
	ok(argblob_encode(args, buf, &len, sizeof(buf), NULL) < 0 && len == 3,
	   "args larger than the room: refused, nothing appended");
	cJSON_Delete(args);

	/* damaged: an END at the top, a string longer than the bytes */
	uint8_t bad1[] = { TPROF_IMP_A_END };
	uint8_t bad2[] = { TPROF_IMP_A_STR, 1, 0, 'k', 200, 0, 0, 0, 'x' };
	char got[64];
	ok(dump(bad1, sizeof(bad1), got, sizeof(got)) < 0, "an END outside any nesting: damaged");
	ok(dump(bad2, sizeof(bad2), got, sizeof(got)) < 0, "a string past the end: damaged");
	reader_bytes();
	return tap_done();
}
