/* hang.h — tprof-inspect --hang-report S (hang.c): while the command runs, a thread watches
 * the output directory; when no process of the job has got on for S seconds it writes the
 * hang report (tprof-analyze DIR --live --once) to DIR/hang-report.txt and to stderr, once,
 * and then does the --hang-action. */
#ifndef TPROF_CLI_HANG_H
#define TPROF_CLI_HANG_H

#include <sys/types.h>

enum hang_action {
	HANG_REPORT_ONLY = 0,
	HANG_KILL,                       /* SIGTERM to the command, SIGKILL 10 s later */
	HANG_SIGNAL,                     /* signal `signal` to the command */
};

struct hang_options {
	double seconds;                  /* 0: no watching */
	int action;                      /* enum hang_action */
	int signal;
};

/* --hang-report S and --hang-action A: 0, or -1 when the value is not one. */
int hang_parse_seconds(const char *v, double *out);
int hang_parse_action(const char *v, struct hang_options *o);

/* Set before inspect_run: what the run's watcher does (seconds 0: no watcher). */
void inspect_set_hang_watch(const struct hang_options *o);
/* run.c: the watcher started once the command runs (it writes into dir and signals pid),
 * and stopped before the command is reaped, so that it never signals a pid reused. */
void hang_watch_start(pid_t pid, const char *dir);
void hang_watch_stop(void);

#endif
