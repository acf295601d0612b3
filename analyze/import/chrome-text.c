/* chrome-text.c — chrome-text.h: decimal numbers read without floating point, digit by digit
 * into 64 bits, then scaled and rounded once. */
#include "chrome-text.h"

/* 10^k for k <= 19 (the largest that fits in 64 bits). */
static uint64_t pow10u(int k)
{
	uint64_t r = 1;
	while (k-- > 0)
		r *= 10;
	return r;
}

/* m * 10^e10 rounded half away from zero, where digits beyond m's 19 were dropped (the first
 * of them `dropped`, -1 for none); -1 past 2^63 (2^63 itself only when negative). */
static int scale_digits(uint64_t m, int e10, int dropped, int neg, int64_t *out)
{
	uint64_t limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX, q;

	if (m == 0) {
		q = 0;
	} else if (e10 > 0) {
		if (e10 > 19)
			return -1;
		q = m;
		while (e10-- > 0) {
			if (q > limit / 10)
				return -1;
			q *= 10;
		}
	} else if (e10 == 0) {
		q = m + (dropped >= 5);
	} else if (e10 < -19) {
		q = 0;
	} else {
		uint64_t d = pow10u(-e10);
		q = m / d;
		/* m % d against d / 2 without overflow: half away from zero. */
		q += m % d >= d - d / 2;
	}
	if (q > limit)
		return -1;
	*out = neg ? (int64_t)(0 - q) : (int64_t)q;
	return 0;
}

int chrome_text_scaled(uint64_t m, int e10, int neg, int64_t *out)
{
	return scale_digits(m, e10, -1, neg, out);
}

int chrome_text_decimal(const char *p, size_t n, int scale, int64_t *out)
{
	const char *end = p + n;
	uint64_t m = 0;
	int ndig = 0, e10 = scale, dropped = -1, any = 0, neg = 0;

	if (p < end && (*p == '-' || *p == '+'))
		neg = *p++ == '-';
	for (; p < end && *p >= '0' && *p <= '9'; p++, any = 1) {
		if (m == 0 && *p == '0')
			continue;
		if (ndig < 19) {
			m = m * 10 + (uint64_t)(*p - '0');
			ndig++;
			continue;
		}
		e10++;
		if (dropped < 0)
			dropped = *p - '0';
	}
	if (p < end && *p == '.') {
		p++;
		if (p == end || *p < '0' || *p > '9')
			return -1;
		for (; p < end && *p >= '0' && *p <= '9'; p++, any = 1) {
			if (ndig < 19) {
				if (m || *p != '0') {
					m = m * 10 + (uint64_t)(*p - '0');
					ndig++;
				}
				e10--;
			} else if (dropped < 0) {
				dropped = *p - '0';
			}
		}
	}
	if (!any)
		return -1;
	if (p < end && (*p == 'e' || *p == 'E')) {
		int eneg = 0, e = 0;
		p++;
		if (p < end && (*p == '-' || *p == '+'))
			eneg = *p++ == '-';
		if (p == end || *p < '0' || *p > '9')
			return -1;
		for (; p < end && *p >= '0' && *p <= '9'; p++)
			if (e < 100000)
				e = e * 10 + (*p - '0');
		e10 += eneg ? -e : e;
	}
	if (p != end)
		return -1;
	return scale_digits(m, e10, dropped, neg, out);
}
