/* request.c — what to sample and how often, as the user says it: the words of --sample and
 * TPROF_SAMPLE (cpu, sched, mem, all) and the rate of --sample-hz and TPROF_SAMPLE_HZ, one
 * reading for tprof-inspect and for a recorder that samples on its own. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sampler.h"

static const struct {
	const char *word;
	unsigned bits;
} words[] = {
	{ "cpu", TPROF_SAMPLE_CPU }, { "sched", TPROF_SAMPLE_SCHED },
	{ "mem", TPROF_SAMPLE_MEM }, { "all", TPROF_SAMPLE_ALL },
};

int tprof_sample_parse_list(const char *list, unsigned *what, char *bad, size_t badlen)
{
	*what = 0;
	for (const char *p = list;; p++) {
		size_t n = strcspn(p, ",");
		size_t i = 0;
		while (i < sizeof(words) / sizeof(words[0]) &&
		       (strlen(words[i].word) != n || strncmp(words[i].word, p, n)))
			i++;
		if (i == sizeof(words) / sizeof(words[0])) {
			snprintf(bad, badlen, "%.*s", (int)n, p);
			return -1;
		}
		*what |= words[i].bits;
		p += n;
		if (!*p)
			return 0;
	}
}

int tprof_sample_parse_hz(const char *v, unsigned *hz)
{
	char *end;
	if (*v < '0' || *v > '9')
		return -1;
	unsigned long x = strtoul(v, &end, 10);
	if (*end || x < 1 || x > TPROF_SAMPLE_HZ_MAX)
		return -1;
	*hz = (unsigned)x;
	return 0;
}

int tprof_sample_from_env(const char *list, const char *hz, struct tprof_sample_request *r,
			  char *why, size_t whylen)
{
	char bad[64];
	r->what = 0;
	r->hz = TPROF_SAMPLE_HZ_DEFAULT;
	if (!list || !*list)
		return 0;
	if (tprof_sample_parse_list(list, &r->what, bad, sizeof(bad))) {
		snprintf(why, whylen, "TPROF_SAMPLE=\"%s\": unknown word '%s' (expected a comma "
			 "list of cpu, sched and mem, or all)", list, bad);
		r->what = 0;
		return -1;
	}
	if (hz && *hz && tprof_sample_parse_hz(hz, &r->hz)) {
		snprintf(why, whylen, "TPROF_SAMPLE_HZ=\"%s\" is not an integer from 1 to %u", hz,
			 TPROF_SAMPLE_HZ_MAX);
		r->what = 0;
		r->hz = TPROF_SAMPLE_HZ_DEFAULT;
		return -1;
	}
	return 1;
}

void tprof_sampler_what_str(unsigned what, char *buf, size_t len)
{
	unsigned rest = what & ~TPROF_SAMPLE_CPU & TPROF_SAMPLE_ALL;
	snprintf(buf, len, "%s%s%s%s%s", what & TPROF_SAMPLE_CPU ? "cpu" : "",
		 (what & TPROF_SAMPLE_CPU) && rest ? "," : "",
		 what & TPROF_SAMPLE_SCHED ? "sched" : "",
		 (what & TPROF_SAMPLE_SCHED) && (what & TPROF_SAMPLE_MEM) ? "," : "",
		 what & TPROF_SAMPLE_MEM ? "mem" : "");
}
