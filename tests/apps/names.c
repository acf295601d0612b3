/* names.c — records ranges, marks and counters under hostile names: quotes, backslashes,
 * control bytes, invalid and valid UTF-8, an empty name, a very long name, and names in a
 * reused stack buffer, each a known number of times.
 *
 * Usage: names
 * Name number i of the table below is used i+1 times as a range, i+1 times as a mark and
 * i+1 times as a counter (value i).  Then:
 *   - a 10000-byte name "0123456789..." (10000 bytes, then NUL) once as a range
 *   - a stack buffer rewritten before each call: "buf 0" .. "buf 9" as ranges, ten rounds,
 *     so each "buf N" range 10 times; and marks "bufmark 0".."bufmark 4", 3 rounds, with the
 *     buffer rewritten between the calls
 * The test holds the same table; the two must be kept in step. */
#include <stdio.h>
#include <string.h>

#include <tprof/tprof.h>

static const char *const names[] = {
	"plain",
	"double \"quoted\" name",
	"back\\slash and \\\\ two",
	"newline\nand\ttab\rcr",
	"\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13\x14\x15"
	"\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f",
	"del \x7f here",
	"lone \xff byte",
	"truncated \xe6\xbc",
	"truncated at end \xf0\x9f\x98",
	"overlong \xc0\xaf slash",
	"surrogate \xed\xa0\x80 half",
	"caf\xc3\xa9 \xe6\xbc\xa2 \xf0\x9f\x98\x80",
	"",
	"</script><b>&amp;'",
};
#define NNAMES (sizeof(names) / sizeof(names[0]))

int main(void)
{
	for (size_t i = 0; i < NNAMES; i++)
		for (size_t j = 0; j <= i; j++) {
			tprof_range_push(names[i]);
			tprof_mark(names[i]);
			tprof_counter(names[i], (double)i);
			tprof_range_pop();
		}

	static char longname[10001];
	for (int i = 0; i < 10000; i++)
		longname[i] = (char)('0' + i % 10);
	longname[10000] = 0;
	tprof_range_push(longname);
	tprof_range_pop();

	char buf[32];
	for (int round = 0; round < 10; round++)
		for (int n = 0; n < 10; n++) {
			snprintf(buf, sizeof(buf), "buf %d", n);
			tprof_range_push(buf);
			tprof_range_pop();
		}
	for (int round = 0; round < 3; round++)
		for (int n = 0; n < 5; n++) {
			snprintf(buf, sizeof(buf), "bufmark %d", n);
			tprof_mark(buf);
			memset(buf, 'x', sizeof(buf) - 1);  /* clobbered right after the call */
			buf[sizeof(buf) - 1] = 0;
		}
	printf("names=%zu\n", NNAMES);
	return 0;
}
