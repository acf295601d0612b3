/* job.c — the job this process records for (common/job.h): TPROF_JOB as tprof-inspect or the
 * user gave it, else the launcher's own job identity when this is a launched rank, else the one
 * an ancestor made, else a new one.  It is put in the environment at load, before the
 * variables to keep across exec are taken (env-carry.c), so that every descendant, exec'ed or
 * forked, by this program or by a shell it runs, belongs to the same job. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/job.h"
#include "core.h"

/* Relocated at load, so with the start's data (common/startup.h): no other page written. */
static const char *source TPROF_START_DATA = TPROF_JOB_FROM_PROCESS;

/* Sets var to value unless it holds that already (old: its value at load, from env); 1 when
 * it was set. */
TPROF_START_CODE static int put(const struct tprof_env *env, const char *var, const char *value)
{
	const char *old = tprof_env_get(env, var);
	if (old && !strcmp(old, value))
		return 0;
	if (setenv(var, value, 1)) {
		tprof_log_warn("cannot set %s: %s", var, strerror(errno));
		return 0;
	}
	return 1;
}

TPROF_START_CODE int tprof_job_begin(const struct tprof_env *env)
{
	TPROF_KEEP_ERRNO;
	const char *from = NULL;
	uint64_t id = tprof_job_from(tprof_env_get(env, TPROF_JOB_VAR),
				     tprof_env_get(env, TPROF_JOB_FROM_VAR), 1, &from);
	char hex[TPROF_JOB_HEX + 1];
	if (!id) {
		id = tprof_job_random();
		from = TPROF_JOB_FROM_PROCESS;
	}
	source = from;
	tprof_job_set(id);
	tprof_job_format(id, hex);
	int set = put(env, TPROF_JOB_VAR, hex);
	return put(env, TPROF_JOB_FROM_VAR, from) | set;
}

const char *tprof_job_source(void)
{
	return source;
}
