/* chrome-scan.h — splits a Chrome trace-event JSON file (plain, or gzip by its magic) into one
 * event object at a time, reading it in blocks: memory is the largest event plus a block,
 * whatever the length of the file. */

/* An event in the buffer is parsed where it lies by the caller's parse function, which finds
 * its end in the same pass; only one that the buffer cuts (once a block) or that is not valid
 * JSON is delimited by following brackets and strings. */
#ifndef TPROF_ANALYZE_CHROME_SCAN_H
#define TPROF_ANALYZE_CHROME_SCAN_H

#include <stddef.h>
#include <stdint.h>

struct chrome_scan;

enum chrome_form { CHROME_FORM_NONE, CHROME_FORM_OBJECT, CHROME_FORM_ARRAY };

enum chrome_item {
	CHROME_ITEM_END,        /* the input is read (chrome_scan_note: anything odd at its end) */
	CHROME_ITEM_EVENT,      /* an element of the event array, parsed: text..len */
	CHROME_ITEM_DAMAGED,    /* an element that the parse function found bad: text..len */
	CHROME_ITEM_MEMBER,     /* a top-level member the caller keeps: key, text..len its value */
	CHROME_ITEM_TOO_BIG,    /* an event (key NULL) or kept member past the bound: skipped */
	CHROME_ITEM_EVENTS_AGAIN, /* a second (third...) traceEvents array begins at sp.offset:
				 * its events follow, read like the first one's */
	CHROME_ITEM_ERROR,      /* the input cannot be read on: chrome_scan_error says why */
};

struct chrome_span {
	const char *text;       /* not NUL-terminated; valid until the next call */
	size_t len;
	uint64_t offset;        /* of text[0] in the (decompressed) input */
	const char *key;        /* CHROME_ITEM_MEMBER and a member's CHROME_ITEM_TOO_BIG */
};

/* Parses the JSON value at the start of text[0..len): 1 when it did, with *used its length; 0
 * when the text ends before the value does; -1 when it is not valid JSON. */
typedef int chrome_scan_parse_fn(void *ctx, const char *text, size_t len, size_t *used);

struct chrome_scan_opts {
	size_t block;           /* the read size */
	size_t max_item;        /* the largest event or member held */
	/* Which top-level members of the object form, besides traceEvents, are handed over (NULL:
	 * none); the others are skipped without being held. */
	int (*keep)(const char *key);
	chrome_scan_parse_fn *parse;    /* for the events */
	void *parse_ctx;
};

/* NULL on failure, with the reason (no prefix, no path) in err. */
struct chrome_scan *chrome_scan_open(const char *path, const struct chrome_scan_opts *o,
				     char *err, size_t errlen);
/* The next item; sp is set for EVENT, DAMAGED, MEMBER and TOO_BIG.  For EVENT, the last call
 * of the parse function was on its text. */
enum chrome_item chrome_scan_next(struct chrome_scan *s, struct chrome_span *sp);
/* After CHROME_ITEM_ERROR: what went wrong, and at which offset. */
const char *chrome_scan_error(const struct chrome_scan *s, uint64_t *offset);
/* After CHROME_ITEM_END: a warning about the end of the input, or NULL — an object-form file
 * that ends before its closing brackets (every complete event was handed over), or data after
 * the JSON value; *offset is where. */
const char *chrome_scan_note(const struct chrome_scan *s, uint64_t *offset);
/* Whether that note says the input was cut short (else: data after the value). */
int chrome_scan_cut(const struct chrome_scan *s);
enum chrome_form chrome_scan_form(const struct chrome_scan *s);
/* The bytes of (decompressed) input read so far. */
uint64_t chrome_scan_bytes(const struct chrome_scan *s);
void chrome_scan_close(struct chrome_scan *s);

#endif
