/* report.h — what tprof-inspect says once the command has ended (report.c). */
#ifndef TPROF_CLI_REPORT_H
#define TPROF_CLI_REPORT_H

#include <stdint.h>
#include <time.h>

/* Counts the profiles of job under the output directory abs (named dir to the user), removes
 * the spools modified at or after since that hold nothing their chunk file lacks, and says on
 * stderr where the profile is and how to read it; or, when nothing was recorded, or the
 * command cmd did not end well (status: its wait status), what happened and what to do.
 * sampled: --sample was given; never_open: the capture window never opened. */
void inspect_report(const char *dir, const char *abs, uint64_t job, time_t since, char **cmd,
		    int status, int sampled, int never_open);

#endif
