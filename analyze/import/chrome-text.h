/* chrome-text.h — what cJSON does not keep: the text of an object's members (a number's own
 * digits), and decimal text read exactly, scaled by a power of ten (µs into ns). */
#ifndef TPROF_ANALYZE_CHROME_TEXT_H
#define TPROF_ANALYZE_CHROME_TEXT_H

#include <stddef.h>
#include <stdint.h>

struct chrome_text {
	const char *p;          /* NULL: not found */
	size_t n;
};

/* For the object text[0..len) (valid JSON, text[0] '{'), sets out[i] to the text of the value
 * of the first member at its top level named keys[i] (exactly: a key written with escapes is
 * not recognised).  Walks only until all are found; returns how many were.  At most 8 keys. */
unsigned chrome_text_members(const char *text, size_t len, const char *const *keys,
			     unsigned nkeys, struct chrome_text *out);

/* The JSON number p[0..n) (sign, digits, fraction, exponent) times 10^scale, exactly, rounded
 * half away from zero to an integer: 0, or -1 when it is not such a number or does not fit. */
int chrome_text_decimal(const char *p, size_t n, int scale, int64_t *out);

#endif
