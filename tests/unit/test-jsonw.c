/* test-jsonw.c — the JSON writer against an independent parser (cJSON): every byte string,
 * however hostile, becomes a JSON string that parses, and reads back as the same text with
 * each byte that is not UTF-8 replaced by U+FFFD; numbers read back exactly.  A file put
 * aside and taken up again (jw_suspend, jw_resume) holds what was written, in order; gzipped,
 * as one gzip member that zlib reads to its end. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "../../analyze/util/jsonw.h"
#include "../../analyze/util/outname.h"
#include "tap.h"

static const struct out_format any_file = { "a JSON file", 0, 1, NULL };

struct sample {
	const char *what;
	const char *in;
	size_t len;
	const char *want;   /* the UTF-8 the parser must give back */
};

#define S(what, in, want) { what, in, sizeof(in) - 1, want }

static const struct sample samples[] = {
	S("plain", "forward", "forward"),
	S("quotes and backslashes", "a\"b\\c\\\"", "a\"b\\c\\\""),
	S("newline, tab, return", "x\ny\tz\r", "x\ny\tz\r"),
	S("control bytes", "\x01\x02\x1f\x7f", "\x01\x02\x1f\x7f"),
	S("valid multibyte", "caf\xc3\xa9 \xe6\xbc\xa2 \xf0\x9f\x98\x80", "caf\xc3\xa9 \xe6\xbc\xa2 \xf0\x9f\x98\x80"),
	S("a lone 0xff", "a\xff" "b", "a\xef\xbf\xbd" "b"),
	S("truncated multibyte", "x\xe6\xbc", "x\xef\xbf\xbd\xef\xbf\xbd"),
	S("overlong encoding", "\xc0\xaf", "\xef\xbf\xbd\xef\xbf\xbd"),
	S("UTF-16 surrogate", "\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"),
	S("beyond U+10FFFF", "\xf4\x90\x80\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"),
	S("an embedded NUL", "a\0b", NULL),
	S("empty", "", ""),
};

static char *read_all_n(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *buf = malloc((size_t)n + 1);
	if (fread(buf, 1, (size_t)n, f) != (size_t)n)
		n = 0;
	buf[n] = 0;
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static char *read_all(const char *path)
{
	size_t n;
	return read_all_n(path, &n);
}

/* The content of a .gz file that is one gzip member ending where the file ends; NULL when
 * it is not. */
static char *gunzip_one(const char *path, size_t *n)
{
	char *gz = read_all_n(path, n);
	size_t cap = 1 << 20, len = 0;
	char *out = malloc(cap);
	z_stream z = { 0 };
	int rc = Z_DATA_ERROR;
	if (gz && inflateInit2(&z, 31) == Z_OK) {
		z.next_in = (Bytef *)gz;
		z.avail_in = (uInt)*n;
		do {
			if (len == cap)
				out = realloc(out, cap *= 2);
			z.next_out = (Bytef *)out + len;
			z.avail_out = (uInt)(cap - len);
			rc = inflate(&z, Z_NO_FLUSH);
			len = cap - z.avail_out;
		} while (rc == Z_OK);
		inflateEnd(&z);
	}
	free(gz);
	if (rc != Z_STREAM_END || z.avail_in) {
		free(out);
		return NULL;
	}
	*n = len;
	return out;
}

/* Written in three pieces, put aside twice between them; each piece more than a buffer. */
static void suspended(const char *path, int gzip)
{
	struct json_writer w;
	static char piece[JW_CAP + 777];
	size_t want = 0;
	char *expect = malloc(3 * sizeof(piece));
	int opened = jw_open(&w, path, &any_file) == 0;
	ok(opened, "%s: the writer opens it", gzip ? "gzip" : "plain");
	if (!opened) {
		free(expect);
		return;
	}
	for (int k = 0; k < 3; k++) {
		for (size_t i = 0; i < sizeof(piece); i++)
			piece[i] = (char)('a' + (i * 7 + (size_t)k * 13) % 26);
		jw_raw(&w, piece, sizeof(piece));
		memcpy(expect + want, piece, sizeof(piece));
		want += sizeof(piece);
		if (k < 2) {
			jw_suspend(&w);
			jw_resume(&w);
		}
	}
	is_u64(jw_bytes(&w), want, "%s: jw_bytes counts what came before it was put aside",
	       gzip ? "gzip" : "plain");
	ok(jw_close(&w) == 0, "%s: and closes after being put aside twice", gzip ? "gzip" : "plain");
	size_t n = 0;
	char *got = gzip ? gunzip_one(path, &n) : read_all_n(path, &n);
	ok(got && n == want && !memcmp(got, expect, want),
	   "%s: the file holds every piece in order%s", gzip ? "gzip" : "plain",
	   gzip ? ", one gzip member read to the end" : "");
	free(got);
	free(expect);
	unlink(path);
}

/* An earlier output of this format begins with '['. */
static const char *not_ours(const char *path)
{
	char *text = read_all(path);
	const char *why = text && text[0] == '[' ? NULL : "is not a list";
	free(text);
	return why;
}

static const struct out_format lists = { "a list", 0, 0, not_ours };

static int write_list(const char *path, const char *v)
{
	struct json_writer w;
	if (jw_open(&w, path, &lists) < 0)
		return -1;
	jw_lit(&w, "[");
	jw_str(&w, v, strlen(v));
	jw_lit(&w, "]");
	return jw_close(&w);
}

/* Outputs waiting for a release put at other names: two swapped; one aimed at a file of
 * another kind is refused, and nothing moves. */
static void retargeted(const char *base)
{
	char a[300], b[300], c[300];
	snprintf(a, sizeof(a), "%s.a", base);
	snprintf(b, sizeof(b), "%s.b", base);
	snprintf(c, sizeof(c), "%s.c", base);
	outname_hold();
	int written = write_list(a, "A") == 0 && write_list(b, "B") == 0;
	char *from[] = { a, b }, *to[] = { b, a };
	int moved = outname_retarget(from, to, 2) == 0;
	ok(written && moved && outname_release(1) == 0, "two outputs waiting swap their names");
	char *ta = read_all(a), *tb = read_all(b);
	ok(ta && tb && !strcmp(ta, "[\"B\"]") && !strcmp(tb, "[\"A\"]"), "each is at the other's name");
	free(ta);
	free(tb);
	FILE *f = fopen(c, "w");
	if (f) {
		fputs("something else", f);
		fclose(f);
	}
	outname_hold();
	written = write_list(a, "A2") == 0 && write_list(b, "B2") == 0;
	char *from2[] = { a, b }, *to2[] = { b, c };
	int refused = outname_retarget(from2, to2, 2) < 0 && strstr(outname_error(), c);
	ok(written && refused && outname_release(1) == 0, "one aimed at a file of another kind: "
	   "refused (%s), nothing moved", outname_error());
	ta = read_all(a);
	tb = read_all(b);
	char *tc = read_all(c);
	ok(ta && tb && tc && !strcmp(ta, "[\"A2\"]") && !strcmp(tb, "[\"B2\"]") &&
	   !strcmp(tc, "something else"), "each at its own name, the other file as it was");
	free(ta);
	free(tb);
	free(tc);
	unlink(a);
	unlink(b);
	unlink(c);
}

int main(void)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/tprof-jsonw.%d.json", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
		 (int)getpid());
	/* whole numbers beyond int64_t's range too: never cast before their range is checked */
	static const double numbers[] = { 0, 1, -7, 3.5, 0.1, 1.0 / 3, 1e-300, 6.02214076e23, 123456789012345.0,
					  1e300, -1e300, 9.3e18, -9.3e18, 18446744073709551616.0 };
	const size_t nsamples = sizeof(samples) / sizeof(samples[0]);
	const size_t nnumbers = sizeof(numbers) / sizeof(numbers[0]);

	struct json_writer w;
	ok(jw_open(&w, path, &any_file) == 0, "the writer opens a file");
	jw_lit(&w, "{\"strings\":[");
	for (size_t i = 0; i < nsamples; i++) {
		if (i)
			jw_lit(&w, ",");
		jw_str(&w, samples[i].in, samples[i].len);
	}
	jw_lit(&w, "],\"numbers\":[");
	for (size_t i = 0; i < nnumbers; i++) {
		if (i)
			jw_lit(&w, ",");
		jw_double(&w, numbers[i]);
	}
	jw_lit(&w, ",");
	jw_double(&w, NAN);
	jw_lit(&w, "],\"us\":[");
	jw_us(&w, 1234567);
	jw_lit(&w, ",");
	jw_us(&w, -5);
	/* More than a buffer: jw_bytes counts what was flushed and what is still held. */
	jw_lit(&w, "],\"pad\":\"");
	static char pad[JW_CAP + 1000];
	memset(pad, 'p', sizeof(pad));
	jw_raw(&w, pad, sizeof(pad));
	jw_lit(&w, "\"}");
	uint64_t counted = jw_bytes(&w);
	ok(jw_close(&w) == 0, "and closes it without an error");

	char *text = read_all(path);
	is_u64(text ? strlen(text) : 0, counted, "jw_bytes counted every byte of the file");
	cJSON *doc = text ? cJSON_Parse(text) : NULL;
	ok(doc != NULL, "cJSON parses the whole document");
	const cJSON *strings = cJSON_GetObjectItemCaseSensitive(doc, "strings");
	for (size_t i = 0; doc && i < nsamples; i++) {
		const cJSON *s = cJSON_GetArrayItem(strings, (int)i);
		if (!samples[i].want) {
			/* cJSON stops at a NUL it decodes; the escape itself is checked here. */
			ok(text && strstr(text, "\"a\\u0000b\""), "%s is escaped as \\u0000", samples[i].what);
			continue;
		}
		ok(cJSON_IsString(s) && !strcmp(s->valuestring, samples[i].want), "%s reads back as expected",
		   samples[i].what);
	}
	const cJSON *nums = cJSON_GetObjectItemCaseSensitive(doc, "numbers");
	int exact = 1;
	for (size_t i = 0; doc && i < nnumbers; i++) {
		const cJSON *v = cJSON_GetArrayItem(nums, (int)i);
		if (!cJSON_IsNumber(v) || v->valuedouble != numbers[i]) {
			exact = 0;
			printf("#   number %zu: %.17g\n", i, v ? v->valuedouble : NAN);
		}
	}
	ok(exact, "every number reads back exactly");
	ok(doc && cJSON_IsNull(cJSON_GetArrayItem(nums, (int)nnumbers)), "NaN is written as null");
	const cJSON *us = cJSON_GetObjectItemCaseSensitive(doc, "us");
	ok(doc && cJSON_GetArrayItem(us, 0)->valuedouble == 1234.567 &&
	   cJSON_GetArrayItem(us, 1)->valuedouble == -0.005, "nanoseconds are written as microseconds");
	ok(text && strstr(text, "1234.567") && strstr(text, "-0.005"), "with exactly three decimals");
	cJSON_Delete(doc);
	free(text);
	unlink(path);

	suspended(path, 0);
	retargeted(path);
	strcat(path, ".gz");
	suspended(path, 1);
	return tap_done();
}
