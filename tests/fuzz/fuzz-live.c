/* fuzz-live.c — what reads a running job's spools: the input is the spools of one to three
 * processes, as processes killed or still running leave them (its first byte, modulo 3, is
 * the number less one; then the length of each spool but the last, four bytes little-endian,
 * cut to what is left; then the spools), each watched for progress
 * as tprof-inspect --hang-report does (common/spool-progress.c), then all read together by
 * tprof-analyze --live --once (the hang analysis across processes). */
#include <stdio.h>

#include "../../common/spool-progress.h"
#include "driver.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char p[512], name[64], spool[512];
	fuzz_clear();
	if (size < 1)
		return 0;
	size_t n = 1 + data[0] % 3, at = 1 + 4 * (n - 1);
	if (size < at)
		return 0;
	for (size_t i = 0; i < n; i++) {
		size_t len = size - at;
		if (i + 1 < n) {
			const uint8_t *l = data + 1 + 4 * i;
			size_t want = l[0] | (size_t)l[1] << 8 | (size_t)l[2] << 16 | (size_t)l[3] << 24;
			len = want < len ? want : len;
		}
		snprintf(name, sizeof(name), "p/fz.%zu.0000000%zu.spool", i + 1, i + 1);
		fuzz_write(name, data + at, len);
		at += len;
		struct spool_progress sp;
		if (spool_progress_open(&sp, fuzz_path(spool, sizeof(spool), name)) == 0) {
			spool_progress_poll(&sp);
			spool_progress_poll(&sp);
			spool_progress_close(&sp);
		}
	}
	fuzz_analyze(fuzz_path(p, sizeof(p), "p"), "--live", "--once", "--no-progress", NULL);
	return 0;
}
