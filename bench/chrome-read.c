/* chrome-read.c — the speed of the import reader (chrome_read): a Chrome JSON file read RUNS
 * times with a callback that only counts; events/s of each run, their median, the peak RSS.
 * `make -C bench bench-import-read` runs it on files from tests/tools/mk-chrome-trace. */

/* Usage: chrome-read FILE [RUNS] */
#include <inttypes.h>
#include <sys/resource.h>

#include "../analyze/import/chrome-read.h"
#include "bench.h"

struct tally {
	uint64_t events, ph[256], ts_sum;
};

static int count(void *ctx, const struct chrome_event *ev)
{
	struct tally *t = ctx;
	t->events++;
	t->ph[(unsigned char)ev->ph]++;
	t->ts_sum += (uint64_t)ev->ts_ns;
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: chrome-read FILE [RUNS]\n");
		return 2;
	}
	int runs = argc == 3 ? (int)bench_count(argv[2], "runs") : 3;
	double rate[64];
	struct chrome_read_opts o = { .prefix = "chrome-read: " };
	struct chrome_meta m;
	struct tally t;

	if (runs < 1 || runs > 64)
		runs = 3;
	for (int i = 0; i < runs; i++) {
		memset(&t, 0, sizeof(t));
		uint64_t t0 = bench_now_ns();
		int rc = chrome_read(argv[1], &o, count, &t, &m);
		double s = (double)(bench_now_ns() - t0) / 1e9;
		if (rc) {
			chrome_meta_free(&m);
			return 1;
		}
		rate[i] = (double)t.events / s;
		double mb = (double)m.bytes / 1e6;
		printf("chrome-read: %s: run %d: %" PRIu64 " events, %.1f MB (%s) in %.3f s: "
		       "%.2f M events/s, %.0f MB/s\n", argv[1], i + 1, t.events, mb,
		       m.form == CHROME_FORM_ARRAY ? "array" : "object", s, rate[i] / 1e6, mb / s);
		chrome_meta_free(&m);
	}
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	printf("chrome-read: %s: median of %d: %.2f M events/s; peak RSS %.1f MiB\n", argv[1], runs,
	       bench_median(rate, (size_t)runs) / 1e6, (double)ru.ru_maxrss / 1024);
	return 0;
}
