/* fuzz-json.c — the importer: the input is a Chrome trace-event or Kineto JSON file, plain or
 * gzipped (the importer tells them by content), converted alone and summarised as JSON.  The
 * importer's sorted runs are cut at 64 KiB (its tests' variable), so that larger inputs also
 * go through the runs spilled to its scratch directory and merged back. */
#include <stdlib.h>

#include "driver.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	setenv("TPROF_TEST_IMPORT_RUN_KB", "64", 1);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char p[512];
	fuzz_clear();
	fuzz_write("in.json", data, size);
	fuzz_analyze("--import", fuzz_path(p, sizeof(p), "in.json"), "--summary=json",
		     "--no-progress", NULL);
	return 0;
}
