/* sampling.h — tprof-inspect's system profile (sampling.c): the sampler started and stopped
 * around the command (what to sample: --sample and --sample-hz, or TPROF_SAMPLE and
 * TPROF_SAMPLE_HZ, read with sample/request.c). */
#ifndef TPROF_CLI_SAMPLING_H
#define TPROF_CLI_SAMPLING_H

#include <stddef.h>
#include <sys/types.h>

#include "../sample/sampler.h"

/* Starts the sampler writing into dir and following pid; on failure says why on stderr and
 * returns 0 (the command runs all the same).  Says so when the /proc sampler stands in for
 * the kernel probes. */
int sampling_start(const struct tprof_sample_request *r, const char *dir, pid_t pid);
/* Stops it (the command has exited); `keep` 0 removes the image (the command never ran);
 * `verbose`: says what it did (records, losses, its own CPU time). */
void sampling_stop(int keep, int verbose);
/* The name of the system image under the output directory, NULL when none is written. */
const char *sampling_image(void);

#endif
