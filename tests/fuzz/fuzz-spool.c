/* fuzz-spool.c — the spool reader: the input is a process image's spool (.spool) with no
 * chunk file beside it, as a killed process leaves it, read and summarised by tprof-analyze. */
#include "driver.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char p[512];
	fuzz_clear();
	fuzz_write("p/fz.1.00000001.spool", data, size);
	fuzz_analyze(fuzz_path(p, sizeof(p), "p"), "--summary", "--no-progress", NULL);
	return 0;
}
