/* chrome-scan.h — splits a Chrome trace-event JSON file (plain, or gzip by its magic) into the
 * text of one event object at a time, reading it in blocks: memory is the largest event plus
 * a block, whatever the length of the file.  Parsing the text is the caller's (chrome-read.c). */
#ifndef TPROF_ANALYZE_CHROME_SCAN_H
#define TPROF_ANALYZE_CHROME_SCAN_H

#include <stddef.h>
#include <stdint.h>

struct chrome_scan;

enum chrome_form { CHROME_FORM_NONE, CHROME_FORM_OBJECT, CHROME_FORM_ARRAY };

enum chrome_item {
	CHROME_ITEM_END,        /* the input is read (chrome_scan_note: anything odd at its end) */
	CHROME_ITEM_EVENT,      /* an element of the event array, an object: text..len */
	CHROME_ITEM_MEMBER,     /* a top-level member the caller keeps: key, text..len its value */
	CHROME_ITEM_TOO_BIG,    /* an event (key NULL) or kept member larger than the bound: skipped */
	CHROME_ITEM_ERROR,      /* the input cannot be read on: chrome_scan_error says why */
};

struct chrome_span {
	const char *text;       /* not NUL-terminated; valid until the next call */
	size_t len;
	uint64_t offset;        /* of text[0] in the (decompressed) input */
	const char *key;        /* CHROME_ITEM_MEMBER and a member's CHROME_ITEM_TOO_BIG */
};

/* Opens path.  keep(key) says which top-level members of the object form, besides
 * traceEvents, are handed over (NULL: none); the others are skipped without being held.
 * block: the read size; max_item: the largest event or member held.  NULL on failure, with
 * the reason (no prefix, no path) in err. */
struct chrome_scan *chrome_scan_open(const char *path, size_t block, size_t max_item,
				     int (*keep)(const char *key), char *err, size_t errlen);
/* The next item; sp is set for EVENT, MEMBER and TOO_BIG. */
enum chrome_item chrome_scan_next(struct chrome_scan *s, struct chrome_span *sp);
/* After CHROME_ITEM_ERROR: what went wrong, and at which offset. */
const char *chrome_scan_error(const struct chrome_scan *s, uint64_t *offset);
/* After CHROME_ITEM_END: a warning about the end of the input, or NULL — an object-form file
 * that ends before its closing brackets (every complete event was handed over), or data after
 * the JSON value; *offset is where. */
const char *chrome_scan_note(const struct chrome_scan *s, uint64_t *offset);
enum chrome_form chrome_scan_form(const struct chrome_scan *s);
/* The bytes of (decompressed) input read so far. */
uint64_t chrome_scan_bytes(const struct chrome_scan *s);
void chrome_scan_close(struct chrome_scan *s);

#endif
