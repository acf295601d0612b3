/* capture.h — tprof-inspect's capture window (capture.c): when the job's processes record.
 * --delay, --duration, --start-paused and the capture signal act through the job's gate, a
 * word in a file of the output directory that every process maps (common/capture.h);
 * --steps and --capture-range are passed on as TPROF_STEPS and TPROF_CAPTURE_RANGE. */
#ifndef TPROF_CLI_CAPTURE_H
#define TPROF_CLI_CAPTURE_H

struct capture_options {
	double delay, duration;     /* seconds; duration 0: until the end */
	int paused;                 /* --start-paused */
	int signal;                 /* --capture-signal, 0: none */
	const char *steps;          /* --steps as given, NULL: none */
	const char *range;          /* --capture-range: "api" or "none", NULL: not given */
};

/* Option parsers: 0, or -1 with a message for the usage error in why. */
int capture_parse_seconds(const char *v, double *out);
int capture_parse_signal(const char *v, int *out);

/* Whether the job's gate is needed (--delay, --duration, --start-paused, a signal). */
int capture_uses_gate(const struct capture_options *o);
/* Before the command starts: the gate file in dir (absolute) and the variables. */
void capture_setup(const struct capture_options *o, const char *dir);
/* The command started: --delay and --duration count from now. */
void capture_started(void);
/* In the signal handler: the capture signal toggles the window. */
void capture_toggle(void);
/* The command ended: the gate file goes.  Returns 1 when the window never opened (the
 * command ended during --delay, or paused), for the report to say. */
int capture_done(void);

#endif
