/* capture.c — the names of the capture window's reasons and the step window's parser, the
 * same for tprof-inspect's options, the recorder's variables and the reader. */
#include <errno.h>
#include <stdlib.h>

#include "capture.h"

const char *tprof_capture_why_name(uint64_t why)
{
	switch (why) {
#define TPROF_CAPTURE_WHY_NAME(sym, num, str) \
	case num:                              \
		return str;
	TPROF_CAPTURE_WHYS(TPROF_CAPTURE_WHY_NAME)
#undef TPROF_CAPTURE_WHY_NAME
	}
	return "?";
}

/* A step number: decimal digits only, no sign; 0 on success. */
static int number(const char *s, const char *end, uint64_t *out)
{
	if (s == end)
		return -1;
	uint64_t v = 0;
	for (const char *c = s; c < end; c++) {
		if (*c < '0' || *c > '9' || v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*c - '0');
	}
	*out = v;
	return 0;
}

int tprof_steps_parse(const char *s, uint64_t *first, uint64_t *last)
{
	if (!s || !*s)
		return -1;
	const char *colon = s;
	while (*colon && *colon != ':')
		colon++;
	const char *end = colon;
	while (*end)
		end++;
	uint64_t a = 0, b = UINT64_MAX;
	if (!*colon) {
		if (number(s, end, &a))
			return -1;
		b = a;
	} else {
		if (colon == s && colon + 1 == end)
			return -1;   /* ":" alone */
		if (colon > s && number(s, colon, &a))
			return -1;
		if (colon + 1 < end && number(colon + 1, end, &b))
			return -1;
	}
	if (b < a)
		return -1;
	*first = a;
	*last = b;
	return 0;
}
