/* jsonw.h — a streaming JSON writer: buffered, to a file, stdout or a gzip file (outfile.h),
 * with string escaping that turns any bytes (quotes, control bytes, invalid UTF-8) into valid JSON. */
#ifndef TPROF_ANALYZE_JSONW_H
#define TPROF_ANALYZE_JSONW_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct outfile;
struct out_format;

struct json_writer {
	struct outfile *out;
	char *buf;
	size_t len;
	int err;
	uint64_t flushed;        /* bytes handed to the file before buf */
};

/* "-" is stdout; a name ending .gz is gzipped; fmt says what may be at path already (a file
 * is written whole or not at all: outname.h).  -1 when it cannot be (outname_error says why). */
int jw_open(struct json_writer *w, const char *path, const struct out_format *fmt);
/* A writer into memory: buf holds len bytes (the caller resets len); what would not fit in
 * JW_CAP bytes is dropped and sets err.  Closed with jw_close. */
void jw_open_mem(struct json_writer *w);
/* -1 if anything failed to be written (a file is then absent: outname_error says why). */
int jw_close(struct json_writer *w);
/* Closes a file given up on: it is removed, never put in place (-1). */
int jw_discard(struct json_writer *w);
void jw_flush(struct json_writer *w);
/* A file put aside, its buffer freed, to be taken up again where it was (outfile.h); nothing
 * is written in between. */
void jw_suspend(struct json_writer *w);
void jw_resume(struct json_writer *w);
/* The bytes written so far (before any compression). */
static inline uint64_t jw_bytes(const struct json_writer *w)
{
	return w->flushed + w->len;
}

#define JW_CAP (1u << 18)

void jw_raw_slow(struct json_writer *w, const char *s, size_t n);

static inline void jw_raw(struct json_writer *w, const char *s, size_t n)
{
	if (__builtin_expect(w->len + n > JW_CAP, 0)) {
		jw_raw_slow(w, s, n);
		return;
	}
	memcpy(w->buf + w->len, s, n);
	w->len += n;
}

/* Only for string literals (the "" refuses anything else at compile time). */
#define jw_lit(w, s) jw_raw((w), "" s, sizeof(s) - 1)

void jw_str(struct json_writer *w, const char *s, size_t n);   /* a quoted, escaped JSON string */
void jw_u64(struct json_writer *w, uint64_t v);
void jw_i64(struct json_writer *w, int64_t v);
void jw_us(struct json_writer *w, int64_t ns);                 /* ns as microseconds, 3 decimals */
void jw_double(struct json_writer *w, double v);               /* null for NaN and infinities */

/* v as JSON into out (at least 32 bytes): exact for whole numbers, as many digits as read back
 * the same double otherwise, null for NaN and infinities; returns the length. */
size_t json_double(double v, char *out);
/* Escapes into out (at least 6*n+1 bytes); returns the length.  For tests and labels. */
size_t json_escape(const char *s, size_t n, char *out);

#endif
