/* fuzz-tpf.c — the chunk reader: the input is a process image's chunk file (.tpf), alone in
 * a profile directory, read and summarised by tprof-analyze. */
#include "driver.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char p[512];
	fuzz_clear();
	fuzz_write("p/fz.1.00000001.tpf", data, size);
	fuzz_analyze(fuzz_path(p, sizeof(p), "p"), "--summary", "--no-progress", NULL);
	return 0;
}
