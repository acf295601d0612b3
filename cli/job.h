/* job.h — tprof-inspect's part in a job's identity (common/job.h): the job of this run, the
 * numbered default output directory, and what to do with another job's profile found in the
 * output directory. */
#ifndef TPROF_CLI_JOB_H
#define TPROF_CLI_JOB_H

#include <stdint.h>

#define JOB_DEFAULT_BASE "tprof-out"   /* the default directory is JOB_DEFAULT_BASE-N */

/* What to do with the profile of another job found in the output directory. */
enum job_existing {
	JOB_REFUSE = 0,         /* say so and exit 2 before running anything */
	JOB_APPEND,             /* --append: write beside it, a job of its own */
	JOB_REPLACE,            /* --replace: remove its files first */
};

/* The job of this run: TPROF_JOB when given, the launcher's when this tprof-inspect is one of
 * its ranks (so that every rank's agrees), else a new one.  Put in the environment
 * (TPROF_JOB, TPROF_JOB_FROM) for the command, and into the headers this process writes. */
uint64_t job_start(void);

/* The first JOB_DEFAULT_BASE-N (N = 1, 2, ...) in the working directory that does not exist,
 * created with a marker of the job inside (.tprof-job-ID), or that holds the marker of this
 * job (another rank of the job claimed it); malloc'd.  Exits 2 when none can be made. */
char *job_default_dir(uint64_t job);

/* Looks for the profiles of other jobs under the output directory abs (shown as the user
 * named it) and refuses (exit 2), keeps or removes them as `how` says. */
void job_check_dir(const char *abs, const char *shown, uint64_t job, enum job_existing how);

/* Whether the other jobs' profiles stay beside this one (--append found some). */
int job_others_kept(void);

/* Whether file `name` under dirfd is a chunk file or spool of this job. */
int job_file_is(int dirfd, const char *name, uint64_t job);

#endif
