/* driver.h — what the fuzz targets share (driver.c): a scratch directory of this process, and
 * tprof-analyze itself (analyze/main.c, built with its main renamed) run on what a target
 * wrote there, as a user would run it. */
#ifndef TPROF_FUZZ_DRIVER_H
#define TPROF_FUZZ_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/* The scratch directory's path joined with name (a buffer of the caller's). */
char *fuzz_path(char *buf, size_t cap, const char *name);
/* Empties the scratch directory (made at the first call, removed at exit). */
void fuzz_clear(void);
/* Writes n bytes to the file name in the scratch directory (its directory made first). */
void fuzz_write(const char *name, const uint8_t *data, size_t n);
/* Runs tprof-analyze with the arguments (up to a NULL); its exit status. */
int fuzz_analyze(const char *arg, ...);

#endif
