/* summary/write.c — the summary's cells written as text (the tables, column by column) or as
 * JSON (a document of objects and arrays, indented, with each row on one line). */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/xalloc.h"
#include "../util/jsonw.h"
#include "write.h"
#include "../util/fmt.h"

#define BIT(d) (1u << (d))

void sw_init(struct sumw *w, FILE *f, enum summary_format format)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
	w->json = format == SUMMARY_JSON;
}

static int text(const struct sumw *w, const char *fmt)
{
	return !w->json && !w->hidden && fmt;
}

/* ---- JSON --------------------------------------------------------------------------------- */

static void indent(struct sumw *w)
{
	fputc('\n', w->f);
	for (int i = 0; i < w->depth; i++)
		fputs("  ", w->f);
}

/* The separator and key before a value in the container open now. */
static void member(struct sumw *w, const char *key)
{
	if (w->depth) {
		uint32_t b = BIT(w->depth - 1);
		if (w->used & b)
			fputc(',', w->f);
		if (!(w->one_line & b))
			indent(w);
		else if (w->used & b)
			fputc(' ', w->f);
		w->used |= b;
	}
	if (key)
		fprintf(w->f, "\"%s\": ", key);
}

static void open_container(struct sumw *w, const char *key, int arr)
{
	if (!w->json)
		return;
	if (w->depth >= 32)
		abort();
	int one_line = w->depth && (!key || (w->one_line & BIT(w->depth - 1)));
	member(w, key);
	fputc(arr ? '[' : '{', w->f);
	uint32_t b = BIT(w->depth++);
	w->used &= ~b;
	w->is_arr = arr ? w->is_arr | b : w->is_arr & ~b;
	w->one_line = one_line ? w->one_line | b : w->one_line & ~b;
}

void sw_obj(struct sumw *w, const char *key)
{
	open_container(w, key, 0);
}

void sw_arr(struct sumw *w, const char *key)
{
	open_container(w, key, 1);
}

void sw_close(struct sumw *w)
{
	if (!w->json)
		return;
	uint32_t b = BIT(--w->depth);
	if ((w->used & b) && !(w->one_line & b))
		indent(w);
	fputc(w->is_arr & b ? ']' : '}', w->f);
}

void sw_finish(struct sumw *w)
{
	if (w->json)
		fputc('\n', w->f);
}

static void json_str(struct sumw *w, const char *s)
{
	size_t n = strlen(s);
	char small[1024];
	char *buf = n * 6 + 1 <= sizeof(small) ? small : xmalloc(n * 6 + 1);
	json_escape(s, n, buf);
	fprintf(w->f, "\"%s\"", buf);
	if (buf != small)
		free(buf);
}

static void json_real(struct sumw *w, double v)
{
	char b[32];
	json_double(v, b);
	fputs(b, w->f);
}

/* ---- text --------------------------------------------------------------------------------- */

void sw_text(struct sumw *w, const char *fmt, ...)
{
	if (!text(w, fmt))
		return;
	va_list ap;
	va_start(ap, fmt);
	vfprintf(w->f, fmt, ap);
	va_end(ap);
}

void sw_if(struct sumw *w, int show)
{
	if (w->nifs >= 64)
		abort();
	if (!show)
		w->hidden |= 1ull << w->nifs;
	w->nifs++;
}

void sw_endif(struct sumw *w)
{
	w->nifs--;
	w->hidden &= ~(1ull << w->nifs);
}

/* ---- cells -------------------------------------------------------------------------------- */

void sw_dur(struct sumw *w, const char *fmt, const char *key, int64_t ns)
{
	char b[32];
	if (text(w, fmt))
		fprintf(w->f, fmt, fmt_dur(ns, b, sizeof(b)));
	if (w->json && key) {
		member(w, key);
		fprintf(w->f, "%" PRId64, ns);
	}
}

void sw_count(struct sumw *w, const char *fmt, const char *key, uint64_t n)
{
	char b[32];
	if (text(w, fmt))
		fprintf(w->f, fmt, fmt_count(n, b, sizeof(b)));
	if (w->json && key) {
		member(w, key);
		fprintf(w->f, "%" PRIu64, n);
	}
}

void sw_bytes(struct sumw *w, const char *fmt, const char *key, double v)
{
	char b[32];
	sw_num(w, fmt, key, v, text(w, fmt) ? fmt_bytes(v, b, sizeof(b)) : NULL);
}

void sw_i64(struct sumw *w, const char *fmt, const char *key, int64_t v)
{
	if (text(w, fmt))
		fprintf(w->f, fmt, v);
	if (w->json && key) {
		member(w, key);
		fprintf(w->f, "%" PRId64, v);
	}
}

void sw_elem(struct sumw *w, int64_t v)
{
	if (w->json) {
		member(w, NULL);
		fprintf(w->f, "%" PRId64, v);
	}
}

void sw_u64(struct sumw *w, const char *fmt, const char *key, uint64_t v)
{
	if (text(w, fmt))
		fprintf(w->f, fmt, v);
	if (w->json && key) {
		member(w, key);
		fprintf(w->f, "%" PRIu64, v);
	}
}

void sw_value(struct sumw *w, const char *fmt, const char *key, double v)
{
	char b[40];
	sw_num(w, fmt, key, v, text(w, fmt) ? fmt_value(v, b, sizeof(b)) : NULL);
}

void sw_real(struct sumw *w, const char *fmt, const char *key, double v)
{
	if (text(w, fmt))
		fprintf(w->f, fmt, v);
	if (w->json && key) {
		member(w, key);
		json_real(w, v);
	}
}

void sw_str(struct sumw *w, const char *fmt, const char *key, const char *s)
{
	if (text(w, fmt))
		fprintf(w->f, fmt, s);
	if (w->json && key) {
		member(w, key);
		json_str(w, s);
	}
}

void sw_num(struct sumw *w, const char *fmt, const char *key, double v, const char *s)
{
	if (text(w, fmt))
		fprintf(w->f, fmt, s);
	if (w->json && key) {
		member(w, key);
		json_real(w, v);
	}
}

void sw_null(struct sumw *w, const char *fmt, const char *key, const char *s)
{
	if (text(w, fmt))
		fprintf(w->f, fmt, s);
	if (w->json && key) {
		member(w, key);
		fputs("null", w->f);
	}
}

void sw_bool(struct sumw *w, const char *key, int v)
{
	if (w->json && key) {
		member(w, key);
		fputs(v ? "true" : "false", w->f);
	}
}

void sw_name(struct sumw *w, const char *key, const char *s)
{
	if (text(w, ""))
		put_name(w->f, s);
	if (w->json && key) {
		member(w, key);
		json_str(w, s);
	}
}
