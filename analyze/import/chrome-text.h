/* chrome-text.h — a number's decimal text read exactly, scaled by a power of ten (µs into ns):
 * a double would lose the nanosecond digits of an epoch time in µs. */
#ifndef TPROF_ANALYZE_CHROME_TEXT_H
#define TPROF_ANALYZE_CHROME_TEXT_H

#include <stddef.h>
#include <stdint.h>

/* The JSON number p[0..n) (sign, digits, fraction, exponent) times 10^scale, exactly, rounded
 * half away from zero to an integer: 0, or -1 when it is not such a number or does not fit. */
int chrome_text_decimal(const char *p, size_t n, int scale, int64_t *out);
/* The same for a number already read: (-1 if neg) * m * 10^e10, m of 19 digits at most. */
int chrome_text_scaled(uint64_t m, int e10, int neg, int64_t *out);

#endif
