/* summary/write.h — how the summary writes its tables: each figure once, as a cell that
 * carries both its text rendering and its JSON key, so that one pass over a table gives either
 * the text tables or one JSON document (--summary-format) from the same code. */
#ifndef TPROF_ANALYZE_SUMMARY_WRITE_H
#define TPROF_ANALYZE_SUMMARY_WRITE_H

#include <stdint.h>
#include <stdio.h>

enum summary_format { SUMMARY_TEXT, SUMMARY_JSON };

/* The JSON document's "version": raised when a key changes meaning or goes away (keys may be
 * added without it). */
#define SUMMARY_JSON_VERSION 1

struct sumw {
	FILE *f;
	int json;
	uint64_t hidden;             /* a bit per sw_if block open: set when its text is hidden */
	int nifs;
	int depth;                   /* JSON containers open */
	uint32_t used, is_arr, one_line;   /* per container, a bit each */
	size_t rank_rows;            /* --ranks: a per-rank table's rows shown in text before
				      * it is shown as its spread (spread.h); 0: all */
};

void sw_init(struct sumw *w, FILE *f, enum summary_format format);
/* The JSON document's end (nothing in text). */
void sw_finish(struct sumw *w);

/* JSON structure, nothing in text.  key is NULL for an element of an array.  An object or
 * array inside an array (a row) is written on one line. */
void sw_obj(struct sumw *w, const char *key);
void sw_arr(struct sumw *w, const char *key);
void sw_close(struct sumw *w);

/* Text only (nothing in JSON). */
void sw_text(struct sumw *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Until the matching sw_endif the text is written only when show (and every enclosing block
 * shows); JSON is always written.  A table without rows still has its key in JSON. */
void sw_if(struct sumw *w, int show);
void sw_endif(struct sumw *w);

/* Cells: the value goes into the text through fmt (a printf format whose one conversion
 * takes what the comment says) and into JSON under key.  A NULL fmt: JSON only; a NULL key:
 * text only. */
void sw_dur(struct sumw *w, const char *fmt, const char *key, int64_t ns);    /* %s: 1.234 ms */
void sw_count(struct sumw *w, const char *fmt, const char *key, uint64_t n);  /* %s: 1,234 */
void sw_bytes(struct sumw *w, const char *fmt, const char *key, double b);    /* %s: 1.23 MB */
void sw_i64(struct sumw *w, const char *fmt, const char *key, int64_t v);     /* PRId64 */
void sw_u64(struct sumw *w, const char *fmt, const char *key, uint64_t v);    /* PRIu64 */
void sw_real(struct sumw *w, const char *fmt, const char *key, double v);     /* %f, %g */
void sw_value(struct sumw *w, const char *fmt, const char *key, double v);    /* %s: fmt_value */
void sw_str(struct sumw *w, const char *fmt, const char *key, const char *s); /* %s */
/* A number whose text the caller rendered (%s: text); JSON null when v is not finite. */
void sw_num(struct sumw *w, const char *fmt, const char *key, double v, const char *text);
/* No value: the text placeholder (%s: text, such as "-") and JSON null. */
void sw_null(struct sumw *w, const char *fmt, const char *key, const char *text);
/* JSON only. */
void sw_bool(struct sumw *w, const char *key, int v);
/* A number as an element of the JSON array open (nothing in text). */
void sw_elem(struct sumw *w, int64_t v);
/* A name ending a row: in text with control bytes shown as '?' and a newline, so one row
 * stays one line; in JSON the exact bytes as a string. */
void sw_name(struct sumw *w, const char *key, const char *s);

#endif
