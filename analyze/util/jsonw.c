/* jsonw.c — the JSON writer behind jsonw.h. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/xalloc.h"
#include "jsonw.h"
#include "outfile.h"

int jw_open(struct json_writer *w, const char *path, const struct out_format *fmt)
{
	memset(w, 0, sizeof(*w));
	w->out = outfile_open(path, fmt, JW_CAP, &w->buf);
	return w->out ? 0 : -1;
}

void jw_open_mem(struct json_writer *w)
{
	memset(w, 0, sizeof(*w));
	w->buf = xmalloc(JW_CAP);
}

void jw_flush(struct json_writer *w)
{
	if (!w->out)
		return;
	if (w->len)
		w->buf = outfile_swap(w->out, w->buf, w->len);
	w->flushed += w->len;
	w->len = 0;
}

void jw_suspend(struct json_writer *w)
{
	outfile_suspend(w->out, w->buf, w->len);
	w->flushed += w->len;
	w->buf = NULL;
	w->len = 0;
}

void jw_resume(struct json_writer *w)
{
	w->buf = outfile_resume(w->out);
}

/* What does not fit goes out a buffer at a time. */
void jw_raw_slow(struct json_writer *w, const char *s, size_t n)
{
	if (!w->out) {
		w->err = 1;
		return;
	}
	while (n) {
		size_t k = JW_CAP - w->len < n ? JW_CAP - w->len : n;
		memcpy(w->buf + w->len, s, k);
		w->len += k;
		s += k;
		n -= k;
		if (w->len == JW_CAP)
			jw_flush(w);
	}
}

static int finish(struct json_writer *w, int keep)
{
	if (!w->out) {
		free(w->buf);
		w->buf = NULL;
		return w->err ? -1 : 0;
	}
	int rc = outfile_close(w->out, w->buf, w->len, keep && !w->err);
	w->out = NULL;
	w->buf = NULL;
	w->len = 0;
	return rc < 0 || w->err ? -1 : 0;
}

int jw_close(struct json_writer *w)
{
	return finish(w, 1);
}

int jw_discard(struct json_writer *w)
{
	finish(w, 0);
	return -1;
}

/* Length of the valid UTF-8 sequence at s (1..4), or 0 when it is not valid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned c = s[0];
	if (c < 0x80)
		return 1;
	size_t len;
	unsigned min, cp;
	if ((c & 0xe0) == 0xc0) {
		len = 2, min = 0x80, cp = c & 0x1f;
	} else if ((c & 0xf0) == 0xe0) {
		len = 3, min = 0x800, cp = c & 0x0f;
	} else if ((c & 0xf8) == 0xf0) {
		len = 4, min = 0x10000, cp = c & 0x07;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

size_t json_escape(const char *str, size_t n, char *out)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *s = (const unsigned char *)str;
	char *o = out;
	for (size_t i = 0; i < n;) {
		unsigned c = s[i];
		if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
			*o++ = (char)c;
			i++;
			continue;
		}
		if (c == '"' || c == '\\') {
			*o++ = '\\';
			*o++ = (char)c;
			i++;
			continue;
		}
		if (c < 0x20) {
			const char *esc = c == '\n' ? "\\n" : c == '\t' ? "\\t" : c == '\r' ? "\\r" : NULL;
			if (esc) {
				memcpy(o, esc, 2);
				o += 2;
			} else {
				memcpy(o, "\\u00", 4);
				o[4] = hex[c >> 4];
				o[5] = hex[c & 15];
				o += 6;
			}
			i++;
			continue;
		}
		size_t k = utf8_len(s + i, n - i);
		if (k) {
			memcpy(o, s + i, k);
			o += k;
			i += k;
		} else {
			memcpy(o, "\\ufffd", 6);  /* a byte that is not UTF-8 */
			o += 6;
			i++;
		}
	}
	*o = 0;
	return (size_t)(o - out);
}

void jw_str(struct json_writer *w, const char *s, size_t n)
{
	char small[1024];
	char *tmp = n * 6 + 3 <= sizeof(small) ? small : malloc(n * 6 + 3);
	if (!tmp) {
		w->err = 1;
		return;
	}
	tmp[0] = '"';
	size_t k = json_escape(s, n, tmp + 1);
	tmp[k + 1] = '"';
	jw_raw(w, tmp, k + 2);
	if (tmp != small)
		free(tmp);
}

/* Two digits at a time: numbers are most of what a trace holds. */
static const char digits2[] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

void jw_u64(struct json_writer *w, uint64_t v)
{
	char b[24];
	char *p = b + sizeof(b);
	while (v >= 100) {
		unsigned r = (unsigned)(v % 100);
		v /= 100;
		p -= 2;
		memcpy(p, digits2 + 2 * r, 2);
	}
	if (v >= 10) {
		p -= 2;
		memcpy(p, digits2 + 2 * v, 2);
	} else {
		*--p = (char)('0' + v);
	}
	jw_raw(w, p, (size_t)(b + sizeof(b) - p));
}

void jw_i64(struct json_writer *w, int64_t v)
{
	if (v < 0) {
		jw_lit(w, "-");
		jw_u64(w, (uint64_t)0 - (uint64_t)v);
	} else {
		jw_u64(w, (uint64_t)v);
	}
}

void jw_us(struct json_writer *w, int64_t ns)
{
	uint64_t a;
	if (ns < 0) {
		jw_lit(w, "-");
		a = (uint64_t)0 - (uint64_t)ns;
	} else {
		a = (uint64_t)ns;
	}
	jw_u64(w, a / 1000);
	char f[4] = { '.', (char)('0' + a % 1000 / 100), (char)('0' + a % 100 / 10), (char)('0' + a % 10) };
	jw_raw(w, f, 4);
}

size_t json_double(double v, char *out)
{
	if (!isfinite(v))
		return (size_t)snprintf(out, 32, "null");
	/* the range first: a double beyond int64_t's must not be cast */
	if (fabs(v) < 9e15 && v == (double)(int64_t)v)
		return (size_t)snprintf(out, 32, "%" PRId64, (int64_t)v);
	/* 15 significant digits read back exactly for most values; 17 always do. */
	int n = snprintf(out, 32, "%.15g", v);
	if (strtod(out, NULL) != v)
		n = snprintf(out, 32, "%.17g", v);
	return (size_t)n;
}

void jw_double(struct json_writer *w, double v)
{
	/* Whole numbers (counts, sizes) are the common case and need no formatting. */
	if (fabs(v) < 9e15 && v == (double)(int64_t)v) {   /* NaN fails the first test */
		jw_i64(w, (int64_t)v);
		return;
	}
	char b[32];
	jw_raw(w, b, json_double(v, b));
}
