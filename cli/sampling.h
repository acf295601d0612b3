/* sampling.h — tprof-inspect's system profile (sampling.c): the --sample and --sample-hz
 * values (or TPROF_SAMPLE, TPROF_SAMPLE_HZ), and the sampler started and stopped around the
 * command. */
#ifndef TPROF_CLI_SAMPLING_H
#define TPROF_CLI_SAMPLING_H

#include <stddef.h>
#include <sys/types.h>

struct sample_request {
	unsigned what;            /* TPROF_SAMPLE_* (sample/sampler.h), 0: no system profile */
	unsigned hz;
};

/* "cpu,sched,mem" or "all" into a TPROF_SAMPLE_* set: 0, or -1 with the offending word (cut
 * to badlen) in bad. */
int sampling_parse_list(const char *list, unsigned *what, char *bad, size_t badlen);
/* A rate from 1 to TPROF_SAMPLE_HZ_MAX: 0, or -1. */
int sampling_parse_hz(const char *v, unsigned *hz);

/* Starts the sampler writing into dir and following pid; on failure says why on stderr and
 * returns 0 (the command runs all the same).  Says so when the /proc sampler stands in for
 * the kernel probes. */
int sampling_start(const struct sample_request *r, const char *dir, pid_t pid);
/* Stops it (the command has exited); `keep` 0 removes the image (the command never ran);
 * `verbose`: says what it did (records, losses, its own CPU time). */
void sampling_stop(int keep, int verbose);
/* The name of the system image under the output directory, NULL when none is written. */
const char *sampling_image(void);

#endif
