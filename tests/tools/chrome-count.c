/* chrome-count.c — what the import reader (chrome_read) reads in a Chrome JSON file: counts
 * per phase, sums of the exact times, metadata, and with -e a line per event, as
 * tests/tools/chrome-check.py prints them from python3's json module, to be compared. */

/*   chrome-count [-e] [-r] [-b BLOCK] [-m MAX_EVENT] [-w MAX_WARNINGS] [-s STOP_AFTER] FILE
 *     -r  also the peak RSS (getrusage)
 * Exit status: 0 read to the end (or stopped by -s), 1 on an error (reported on stderr). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "../../analyze/import/chrome-read.h"

#define PHASES "XBEiIRCbenstfMONDP"

struct counts {
	int lines;
	uint64_t stop_after;
	uint64_t n, ph[256], ts_sum, dur_sum, ids;
};

/* FNV-1a, 64 bits: strings shown as a hash, so that any byte in them is fine on a line. */
static uint64_t fnv(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

static void put_str(const char *s)
{
	if (s)
		printf(" %016" PRIx64, fnv(s));
	else
		printf(" -");
}

static void put_ref(const struct chrome_ref *r)
{
	if (!r->present)
		printf(" -");
	else if (r->is_str)
		printf(" s%016" PRIx64, fnv(r->str));
	else
		printf(" n%" PRId64, r->num);
}

static void put_time(int has, int64_t ns)
{
	if (has)
		printf(" %" PRId64, ns);
	else
		printf(" -");
}

static void line(const struct chrome_event *ev)
{
	static const char kinds[] = "-plg";
	printf("ev %c", ev->ph ? ev->ph : '-');
	put_ref(&ev->pid);
	put_ref(&ev->tid);
	put_time(ev->has_ts, ev->ts_ns);
	put_time(ev->has_dur, ev->dur_ns);
	printf(" %c", kinds[ev->id_kind]);
	put_str(ev->id);
	put_str(ev->name);
	put_str(ev->cat);
	printf(" %c %c", ev->scope ? ev->scope : '-', ev->bp ? ev->bp : '-');
	if (ev->args)
		printf(" %d\n", cJSON_GetArraySize(ev->args));
	else
		printf(" -\n");
}

static int each(void *ctx, const struct chrome_event *ev)
{
	struct counts *c = ctx;
	c->n++;
	c->ph[(unsigned char)ev->ph]++;
	if (ev->has_ts)
		c->ts_sum += (uint64_t)ev->ts_ns;
	if (ev->has_dur)
		c->dur_sum += (uint64_t)ev->dur_ns;
	c->ids += ev->id != NULL;
	if (c->lines)
		line(ev);
	return c->stop_after && c->n == c->stop_after;
}

static void meta_lines(const struct chrome_meta *m)
{
	if (m->has_base_time)
		printf("base_time_ns %" PRId64 "\n", m->base_time_ns);
	if (m->has_dist)
		printf("rank %" PRId64 "\nworld_size %" PRId64 "\nbackend %s\n", m->rank,
		       m->world_size, m->backend ? m->backend : "-");
	if (m->device_properties)
		printf("device_count %d\n", m->device_count);
	if (m->display_time_unit)
		printf("display_time_unit %s\n", m->display_time_unit);
	if (m->trace_name)
		printf("trace_name %s\n", m->trace_name);
	if (m->schema_version)
		printf("schema_version %s\n", m->schema_version);
	if (m->tprof) {
		const char *host = cJSON_GetStringValue(cJSON_GetObjectItem(m->tprof, "host"));
		printf("tprof_host %s\n", host ? host : "-");
	}
}

int main(int argc, char **argv)
{
	struct chrome_read_opts o = { .prefix = "chrome-count: " };
	struct counts c = { 0 };
	struct chrome_meta m;
	int rss = 0, opt;

	while ((opt = getopt(argc, argv, "erb:m:w:s:")) != -1) {
		switch (opt) {
		case 'e': c.lines = 1; break;
		case 'r': rss = 1; break;
		case 'b': o.block = strtoull(optarg, NULL, 0); break;
		case 'm': o.max_event = strtoull(optarg, NULL, 0); break;
		case 'w': o.max_warnings = (unsigned)strtoul(optarg, NULL, 0); break;
		case 's': c.stop_after = strtoull(optarg, NULL, 0); break;
		default:
			fprintf(stderr, "usage: chrome-count [-e] [-r] [-b BLOCK] [-m MAX_EVENT] "
				"[-w MAX_WARNINGS] [-s STOP_AFTER] FILE\n");
			return 2;
		}
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "chrome-count: one FILE is needed\n");
		return 2;
	}
	int rc = chrome_read(argv[optind], &o, each, &c, &m);
	static const char *const forms[] = { "none", "object", "array" };
	printf("form %s\nevents %" PRIu64 "\n", forms[m.form], m.events);
	for (const char *p = PHASES; *p; p++)
		if (c.ph[(unsigned char)*p])
			printf("ph %c %" PRIu64 "\n", *p, c.ph[(unsigned char)*p]);
	uint64_t other = c.n;
	for (const char *p = PHASES; *p; p++)
		other -= c.ph[(unsigned char)*p];
	if (other)
		printf("ph ? %" PRIu64 "\n", other);
	printf("ts_sum %" PRIu64 "\ndur_sum %" PRIu64 "\nids %" PRIu64 "\n", c.ts_sum, c.dur_sum,
	       c.ids);
	printf("skipped %" PRIu64 "\nbytes %" PRIu64 "\n", m.skipped, m.bytes);
	meta_lines(&m);
	if (rss) {
		struct rusage ru;
		getrusage(RUSAGE_SELF, &ru);
		printf("maxrss_kb %ld\n", ru.ru_maxrss);
	}
	chrome_meta_free(&m);
	return rc < 0 ? 1 : 0;
}
