/* util/fmt.c — numbers, durations, byte counts and names as people read them (util/fmt.h):
 * the summary's cells and the analyzer's notes. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fmt.h"

/* A duration in a unit that keeps four significant digits. */
const char *fmt_dur(int64_t ns, char *buf, size_t len)
{
	double v = (double)ns;
	double a = fabs(v);
	if (a < 1e3)
		snprintf(buf, len, "%" PRId64 " ns", ns);
	else if (a < 1e6)
		snprintf(buf, len, "%.3f us", v / 1e3);
	else if (a < 1e9)
		snprintf(buf, len, "%.3f ms", v / 1e6);
	else
		snprintf(buf, len, "%.3f s", v / 1e9);
	return buf;
}

const char *fmt_count(uint64_t n, char *buf, size_t len)
{
	char tmp[32];
	int k = snprintf(tmp, sizeof(tmp), "%" PRIu64, n);
	size_t o = 0;
	for (int i = 0; i < k && o + 2 < len; i++) {
		if (i && (k - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = tmp[i];
	}
	buf[o] = 0;
	return buf;
}

const char *fmt_value(double v, char *buf, size_t len)
{
	double a = fabs(v);
	if (a >= 1e18 && isfinite(a)) {
		snprintf(buf, len, "%.0f", v);
		return buf;
	}
	if (a > 0 && a < 1e-4) {        /* where %g would switch to an exponent */
		fmt_sig(v, 6, buf, len);
		size_t n = strlen(buf);
		while (n > 1 && buf[n - 1] == '0')
			buf[--n] = 0;
		if (n && buf[n - 1] == '.')
			buf[--n] = 0;
		return buf;
	}
	if (!(a >= 1e6 || (a >= 1000 && a == floor(a))) || len < 4) {
		snprintf(buf, len, "%.6g", v);
		return buf;
	}
	buf[0] = '-';
	fmt_count((uint64_t)llround(a), buf + (v < 0), len - (v < 0));
	return buf;
}

const char *fmt_sig(double v, int sig, char *buf, size_t len)
{
	int dec = 0;
	if (v != 0.0 && isfinite(v)) {
		int mag = (int)floor(log10(fabs(v)));
		dec = sig - 1 - mag;
		dec = dec < 0 ? 0 : dec > 12 ? 12 : dec;
		/* 0.000999 rounding up to 0.00100 keeps sig digits only with one decimal fewer */
		if (dec > 0 && fabs(v) * pow(10, dec) >= pow(10, sig) - 0.5)
			dec--;
	}
	snprintf(buf, len, "%.*f", dec, v);
	return buf;
}

/* Prints a name with control bytes shown as '?', so one row stays one line. */
void put_name(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, f);
	fputc('\n', f);
}

/* A byte count in a unit that keeps four significant digits (B, kB, MB, GB, TB: powers of
 * 1000). */
const char *fmt_bytes(double b, char *buf, size_t len)
{
	static const char *const unit[] = { "B", "kB", "MB", "GB", "TB" };
	int u = 0;
	while (b >= 1000 && u < 4) {
		b /= 1000;
		u++;
	}
	if (u == 0)
		snprintf(buf, len, "%.0f B", b);
	else
		snprintf(buf, len, "%.3g %s", b, unit[u]);
	return buf;
}

const char *fmt_runs(const int64_t *v, size_t n, char *buf, size_t len)
{
	size_t o = 0;
	if (len)
		buf[0] = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j + 1 < n && (v[j + 1] == v[j] || v[j + 1] == v[j] + 1))
			j++;
		char run[48];
		int k = v[j] == v[i] ? snprintf(run, sizeof(run), "%s%" PRId64, o ? "," : "", v[i])
				     : snprintf(run, sizeof(run), "%s%" PRId64 "-%" PRId64,
						o ? "," : "", v[i], v[j]);
		if (o + (size_t)k + 5 > len) {   /* room for ",..." and the end */
			if (o + 5 <= len)
				memcpy(buf + o, ",...", 5);
			return buf;
		}
		memcpy(buf + o, run, (size_t)k + 1);
		o += (size_t)k;
		i = j + 1;
	}
	return buf;
}
