/* test-imgw-thread.c — writes the same image twice under DIR, once with its chunks made on a
 * thread of its own (opts.thread) and once without: six streams of records with extensions
 * of every length, strings, properties, and flushes while the streams fill.  func/t-imgw-
 * thread.sh compares the two with tools/dump-records, and runs this under ThreadSanitizer.
 *   test-imgw-thread DIR */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/events.h"
#include "../../common/imgwrite.h"

static uint64_t rng = 0x853c49e6748fea9bull;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static int write_one(const char *dir, int thread, uint32_t pid)
{
	char why[256];
	struct tprof_imgw_opts o = { .dir = dir, .host = "imgw", .pid = pid, .real_ns = 1,
				     .prog = "test-imgw-thread", .what = "the test image",
				     .raw = thread, .thread = thread };
	struct tprof_imgw *w = tprof_imgw_open(&o, why, sizeof(why));
	if (!w) {
		fprintf(stderr, "test-imgw-thread: %s\n", why);
		return -1;
	}
	uint8_t ext[TPROF_MAX_EXT * TPROF_UNIT];
	rng = 0x853c49e6748fea9bull;   /* the same records both times */
	tprof_imgw_prop_str(w, "role", "test", 1);
	for (uint32_t s = 1; s <= 6; s++)
		tprof_imgw_write(w, 0, &(struct tprof_rec){ .kind = TPROF_K_THREAD, .arg = s,
				 .t0 = 1, .t1 = 1000 + s,
				 .name = tprof_imgw_string(w, "worker", 1) }, NULL, 0);
	for (uint64_t i = 0; i < 300000; i++) {
		uint32_t s = 1 + (uint32_t)(rnd() % 6);
		size_t n = rnd() % 5 == 0 ? rnd() % 200 : 0;
		for (size_t k = 0; k < n; k++)
			ext[k] = (uint8_t)(i + k);
		char name[32];
		snprintf(name, sizeof(name), "mark %u", (unsigned)(i % 50));
		tprof_imgw_write(w, s, &(struct tprof_rec){ .kind = TPROF_K_MARK, .t0 = 10 + i,
				 .arg = i, .name = tprof_imgw_string(w, name, 10 + i) }, ext, n);
		if (i % 70001 == 0)
			tprof_imgw_flush(w);
	}
	tprof_imgw_write(w, 0, &(struct tprof_rec){ .kind = TPROF_K_END, .t0 = 400000 }, NULL, 0);
	tprof_imgw_flush(w);
	int ok = tprof_imgw_ok(w);
	uint64_t records = tprof_imgw_records(w);
	tprof_imgw_close(w);
	printf("thread=%d records=%llu\n", thread, (unsigned long long)records);
	return ok ? 0 : -1;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: test-imgw-thread DIR\n");
		return 2;
	}
	char a[4096], b[4096];
	snprintf(a, sizeof(a), "%s/thread", argv[1]);
	snprintf(b, sizeof(b), "%s/plain", argv[1]);
	return write_one(a, 1, 7) < 0 || write_one(b, 0, 7) < 0;
}
