/* output.c — the output directory, made if missing and checked (common/outdir.h) once per
 * process, by the first that needs it: the recorder's first record or the program's own
 * system profile.  A directory that cannot be used is one warning, and neither writes. */
#include <stdio.h>

#include "../../common/outdir.h"
#include "core.h"

static pthread_mutex_t lock TPROF_START_DATA = PTHREAD_MUTEX_INITIALIZER;   /* reset at fork */
/* 0: not looked at yet, 1: usable, -1: refused (and said so) */
static int verdict TPROF_START_DATA;

int tprof_output_ready(void)
{
	TPROF_KEEP_ERRNO;
	char why[256];
	pthread_mutex_lock(&lock);
	if (!verdict) {
		const char *dir = tprof_g.cfg.output_dir;
		verdict = tprof_outdir_prepare(dir, why, sizeof(why)) ? -1 : 1;
		if (verdict < 0)
			tprof_log_warn("output directory %s: %s; not recording", dir, why);
	}
	int ok = verdict > 0;
	pthread_mutex_unlock(&lock);
	return ok ? 0 : -1;
}

/* The fork child's only thread: the lock may have been held by another thread of the parent. */
TPROF_START_CODE void tprof_output_child(void)
{
	tprof_mutex_reset(&lock);
}
