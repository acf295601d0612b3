/* options.h — tprof-inspect's command line (options.c): the options as read; a usage error
 * stops it as any failure to set the command up does (fail.h). */
#ifndef TPROF_CLI_OPTIONS_H
#define TPROF_CLI_OPTIONS_H

#include "../sample/sampler.h"
#include "capture.h"
#include "fail.h"
#include "hang.h"
#include "job.h"

struct options {
	const char *dir;	/* as the user gave it; NULL: the numbered default */
	enum job_existing existing;	/* another job's profile in dir: --append, --replace */
	char max_events[24];	/* normalised; empty when not given */
	char buffer_kb[8];
	int verbose;
	struct tprof_sample_request sample;
	int sample_given, hz_given;
	int group_readable;	/* profiles readable by the group */
	struct capture_options capture;
	struct hang_options hang;	/* --hang-report, --hang-action */
	char **cmd;
};

/* Reads the command line into *o: the options, then COMMAND and its arguments (o->cmd);
 * TPROF_SAMPLE, TPROF_SAMPLE_HZ and TPROF_GROUP_READABLE stand in for options not given.
 * --help and --version print and exit 0; a usage error says so and exits EXIT_SETUP. */
void inspect_parse_args(int argc, char **argv, struct options *o);

#endif
