/* render/split/spec.c — what --split asks for: "steps:N" or "size:MB" parsed, and for
 * steps:N the parts made from the steps' start times (window_step_starts). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../common/xalloc.h"
#include "split.h"

static int parse_steps(const char *v, struct split_spec *sp)
{
	char *end;
	errno = 0;
	if (*v < '0' || *v > '9')
		return -1;
	unsigned long long n = strtoull(v, &end, 10);
	if (errno || *end || n < 1 || n > 1000000000ull)
		return -1;
	sp->mode = SPLIT_STEPS;
	sp->steps = n;
	return 0;
}

static int parse_size(const char *v, struct split_spec *sp)
{
	char *end;
	errno = 0;
	if ((*v < '0' || *v > '9') && *v != '.')
		return -1;
	double mb = strtod(v, &end);
	if (errno || *end || !(mb >= 0.01) || mb > 1e6)
		return -1;
	sp->mode = SPLIT_SIZE;
	sp->bytes = (uint64_t)llround(mb * 1e6);
	return 0;
}

int split_parse(const char *s, struct split_spec *sp)
{
	memset(sp, 0, sizeof(*sp));
	int rc = -1;
	if (!strncmp(s, "steps:", 6))
		rc = parse_steps(s + 6, sp);
	else if (!strncmp(s, "size:", 5))
		rc = parse_size(s + 5, sp);
	if (rc == 0)
		snprintf(sp->text, sizeof(sp->text), "%s", s);
	return rc;
}

size_t split_group_steps(const struct step_start *v, size_t n, uint64_t per, int64_t win_start,
			 int64_t win_end, struct split_group **out)
{
	struct split_group *g = xmallocarray(n ? n : 1, sizeof(*g));
	size_t ng = 0;
	uint64_t in_group = 0;
	for (size_t i = 0; i < n; i++) {
		if (v[i].ns < win_start || v[i].ns >= win_end)
			continue;
		if (ng && in_group < per) {
			g[ng - 1].last = v[i].step;
			in_group++;
			continue;
		}
		/* A new part, unless its first step does not start after the part before does
		 * (step numbers that do not grow with time): then the step joins that part. */
		if (ng && v[i].ns <= g[ng - 1].start) {
			g[ng - 1].last = v[i].step;
			continue;
		}
		int64_t start = ng ? v[i].ns : win_start;
		g[ng++] = (struct split_group){ v[i].step, v[i].step, start };
		in_group = 1;
	}
	*out = g;
	return ng;
}
