/* test-fmt.c — the summary's number formats (analyze/util/fmt.h) that tests and people read
 * as plain numbers: fmt_sig never prints an exponent, keeps its significant digits across a
 * rounding carry, and bounds its decimals; nor does fmt_value (a counter's value), however
 * small or large. */
#include <stdio.h>
#include <string.h>

#include "../../analyze/util/fmt.h"
#include "tap.h"

static int is(double v, int sig, const char *want)
{
	char buf[64];
	fmt_sig(v, sig, buf, sizeof buf);
	if (strcmp(buf, want) == 0)
		return 1;
	printf("#   fmt_sig(%g, %d) = %s, want %s\n", v, sig, buf, want);
	return 0;
}

static int val(double v, const char *want)
{
	char buf[64];
	fmt_value(v, buf, sizeof buf);
	if (strcmp(buf, want) == 0)
		return 1;
	printf("#   fmt_value(%g) = %s, want %s\n", v, buf, want);
	return 0;
}

int main(void)
{
	ok(is(9.97e-05, 3, "0.0000997") && is(0.00123, 3, "0.00123") && is(0.5, 3, "0.500"),
	   "three significant digits, no exponent, under 1");
	ok(is(0.0009996, 3, "0.00100") && is(0.0999, 2, "0.10") && is(9.9996, 4, "10.00"),
	   "a rounding carry keeps the number of significant digits");
	ok(is(123.456, 3, "123") && is(98765.4, 3, "98765") && is(12.5, 4, "12.50"),
	   "no decimals once the digits are whole");
	ok(is(1e-20, 3, "0.000000000000") && is(2.6e-12, 3, "0.000000000003"),
	   "at most 12 decimals");
	ok(is(0.0, 3, "0") && is(-0.000123, 3, "-0.000123"), "zero; a negative number");
	ok(val(24605, "24,605") && val(504418304, "504,418,304") && val(-2500000.4, "-2,500,000"),
	   "fmt_value: whole numbers with thousands separators");
	ok(val(99.1195, "99.1195") && val(17412.42, "17412.4") && val(0.5, "0.5") && val(0, "0"),
	   "fmt_value: six significant digits");
	ok(val(1.23456789e-5, "0.0000123457") && val(5e-5, "0.00005") &&
	   val(-9.97e-7, "-0.000000997"), "fmt_value: no exponent under 1e-4");
	ok(val(2.5e18, "2500000000000000000"), "fmt_value: no exponent past 1e18");
	return tap_done();
}
