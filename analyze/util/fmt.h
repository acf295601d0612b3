/* util/fmt.h — numbers, durations, byte counts and names as people read them (fmt.c). */
#ifndef TPROF_ANALYZE_FMT_H
#define TPROF_ANALYZE_FMT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A duration in a unit that keeps four significant digits. */
const char *fmt_dur(int64_t ns, char *buf, size_t len);
/* A count with thousands separators. */
const char *fmt_count(uint64_t n, char *buf, size_t len);
/* Prints a name and a newline, control bytes shown as '?', so one row stays one line. */
void put_name(FILE *f, const char *s);
/* A counter's value: a whole number with thousands separators (24,605; 504,418,304; from a
 * million on rounded to one), else six significant digits (99.1195, 17412.4, 0.0000123457,
 * trailing zeros dropped): never an exponent that a reader must decode. */
const char *fmt_value(double v, char *buf, size_t len);
/* A non-negative number with sig significant digits and never an exponent: 0.0000997 where
 * %.3g would print 9.97e-05, which a column reader (or a person) does not expect.  At most
 * 12 decimals; 0 prints as 0. */
const char *fmt_sig(double v, int sig, char *buf, size_t len);
/* Bytes in B, kB, MB, GB or TB (powers of 1000), three significant digits. */
const char *fmt_bytes(double b, char *buf, size_t len);
/* Ascending numbers v[0..n-1] as runs: "0-3,7,9-1023" (a repeated number once); cut with
 * ",..." where buf ends. */
const char *fmt_runs(const int64_t *v, size_t n, char *buf, size_t len);

#endif
