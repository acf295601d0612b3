/* options.h — tprof-inspect's command line (options.c): the options as read, and the way
 * every part of tprof-inspect stops before the command runs (a usage error or a failure to
 * set it up: one line on stderr and exit status EXIT_SETUP). */
#ifndef TPROF_CLI_OPTIONS_H
#define TPROF_CLI_OPTIONS_H

#include "../sample/sampler.h"
#include "capture.h"
#include "job.h"

#define EXIT_SETUP 2		/* usage errors and anything that stops the command starting */

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
	char **cmd;
};

/* Reads the command line into *o: the options, then COMMAND and its arguments (o->cmd);
 * TPROF_SAMPLE, TPROF_SAMPLE_HZ and TPROF_GROUP_READABLE stand in for options not given.
 * --help and --version print and exit 0; a usage error says so and exits EXIT_SETUP. */
void inspect_parse_args(int argc, char **argv, struct options *o);

/* "tprof-inspect: <message>" on stderr, and exit EXIT_SETUP. */
void __attribute__((noreturn, format(printf, 1, 2))) inspect_fail(const char *fmt, ...);

#endif
