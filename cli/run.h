/* run.h — the command run (run.c): forked and exec'd, the signals tprof-inspect is sent
 * passed on to it, its end waited for. */
#ifndef TPROF_CLI_RUN_H
#define TPROF_CLI_RUN_H

#include <time.h>

#include "../sample/sampler.h"

/* The --capture-signal (0: none), which toggles the capture window instead of being passed
 * on; set before inspect_run. */
void inspect_set_capture_signal(int sig);
/* Runs cmd and waits for it to end; with a system profile (sr->what), the sampler writing
 * into dir follows it from before it execs.  *start: when it was started; *exec_err: 0, or
 * the errno of an exec that failed; *status: its wait status.  Returns the exit status
 * tprof-inspect exits with: the command's, 128+N when it was killed by signal N (126 or 127
 * when it could not be run). */
int inspect_run(char **cmd, const struct tprof_sample_request *sr, const char *dir,
		struct timespec *start, int *exec_err, int *status);

#endif
