/* options.c — tprof-inspect's command line: the --help text, the options read into struct
 * options (with the variables that stand in for some of them), and the usage errors and setup
 * failures that stop tprof-inspect before the command runs.  The other parts of tprof-inspect
 * say why they stop through inspect_fail, so that every such message reads alike. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../common/capture.h"
#include "../common/outdir.h"
#include "../sample/sampler.h"
#include "capture.h"
#include "job.h"
#include "options.h"
#include "preload-lib.h"
#include "fail.h"

#define MAX_VERBOSE 3
#define MAX_EVENTS_LIMIT ((unsigned long long)INT64_MAX / 2)	/* the recorder's own limit */
#define MIN_BUFFER_KB 16
#define MAX_BUFFER_KB 65536

enum { OPT_BUFFER_KB = 256, OPT_VERSION, OPT_SAMPLE, OPT_SAMPLE_HZ, OPT_APPEND, OPT_REPLACE,
       OPT_GROUP_READABLE, OPT_DELAY, OPT_DURATION, OPT_START_PAUSED, OPT_CAPTURE_SIGNAL,
       OPT_STEPS, OPT_CAPTURE_RANGE, OPT_HANG_REPORT, OPT_HANG_ACTION };

static const struct option long_opts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "append", no_argument, NULL, OPT_APPEND },
	{ "replace", no_argument, NULL, OPT_REPLACE },
	{ "max-events", required_argument, NULL, 'n' },
	{ "buffer-kb", required_argument, NULL, OPT_BUFFER_KB },
	{ "sample", required_argument, NULL, OPT_SAMPLE },
	{ "sample-hz", required_argument, NULL, OPT_SAMPLE_HZ },
	{ "group-readable", no_argument, NULL, OPT_GROUP_READABLE },
	{ "delay", required_argument, NULL, OPT_DELAY },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "start-paused", no_argument, NULL, OPT_START_PAUSED },
	{ "capture-signal", required_argument, NULL, OPT_CAPTURE_SIGNAL },
	{ "steps", required_argument, NULL, OPT_STEPS },
	{ "capture-range", required_argument, NULL, OPT_CAPTURE_RANGE },
	{ "hang-report", required_argument, NULL, OPT_HANG_REPORT },
	{ "hang-action", required_argument, NULL, OPT_HANG_ACTION },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

static void usage(void)
{
	fputs("Usage: " PROG " [OPTION]... [--] COMMAND [ARG]...\n"
	      "Run COMMAND with the tprof recorder (" PRELOAD_NAME ") preloaded.  Every\n"
	      "process it starts that records writes one <host>.<pid>.<id>.tpf file into the\n"
	      "output directory.\n"
	      "\n"
	      "Options:\n"
	      "  -o, --output DIR       write profiles into DIR, created if missing; sets\n"
	      "                         TPROF_OUTPUT_DIR to its absolute path.  Default: the\n"
	      "                         first ./" JOB_DEFAULT_BASE "-N (N = 1, 2, ...) that does not\n"
	      "                         exist; the ranks of one MPI job running " PROG "\n"
	      "                         share one.  Refused unless DIR (or what a link leads\n"
	      "                         to) is yours or root's and neither its group nor\n"
	      "                         others may write to it, unless it is sticky\n"
	      "      --append           when DIR holds the profile of another job, add this\n"
	      "                         run beside it as a job of its own (tprof-analyze\n"
	      "                         --job picks one); without --append or --replace such\n"
	      "                         a DIR is refused (exit 2) before COMMAND runs\n"
	      "      --replace          when DIR holds the profile of another job, remove that\n"
	      "                         profile first: tprof's files of the other jobs (*.tpf,\n"
	      "                         *.spool, their symbol maps and PyTorch traces), nothing\n"
	      "                         else\n"
	      "  -n, --max-events N     record at most N events per process, 0 for no limit;\n"
	      "                         sets TPROF_MAX_EVENTS\n"
	      "      --buffer-kb N      per-thread buffer size in KiB, 16 to 65536 and a\n"
	      "                         multiple of 4; sets TPROF_BUFFER_KB\n"
	      "      --sample LIST      also profile the system: LIST is a comma list of cpu\n"
	      "                         (CPU samples with stacks, core utilisation, thread CPU\n"
	      "                         time), sched (thread states) and mem (host memory,\n"
	      "                         RSS, page faults), or all; written as one more\n"
	      "                         <host>.<pid>.<id>.tpf (the system image)\n"
	      "      --sample-hz N      samples per second, 1 to 10000 (default 99; the /proc\n"
	      "                         sampler reads at most 1000 a second)\n"
	      "      --group-readable   let DIR's group read the profiles: files 0640 and\n"
	      "                         directories 0750 instead of 0600 and 0700; sets\n"
	      "                         TPROF_GROUP_READABLE=1\n"
	      "\n"
	      "When to record (the whole run by default; a process records while every\n"
	      "window given is open; calls outside cost what they cost without the\n"
	      "profiler; device work launched and ranges opened inside are kept whole):\n"
	      "      --delay S          start recording S seconds (a decimal number) after\n"
	      "                         COMMAND starts\n"
	      "      --duration S       stop recording S seconds after it started (after\n"
	      "                         --delay); COMMAND runs on, unrecorded\n"
	      "      --capture-signal SIG\n"
	      "                         the signal SIG (USR1, SIGUSR2, 12...) sent to " PROG "\n"
	      "                         pauses or resumes recording in every process of the\n"
	      "                         job instead of being passed on\n"
	      "      --start-paused     start paused (with --capture-signal: the first one\n"
	      "                         starts recording)\n"
	      "      --steps A:B        record training steps A to B (tprof_step numbers; also\n"
	      "                         A:, :B or N) and nothing before or after; sets\n"
	      "                         TPROF_STEPS\n"
	      "      --capture-range api\n"
	      "                         start paused; the program's hipProfilerStart and\n"
	      "                         roctxProfilerResume resume, hipProfilerStop and\n"
	      "                         roctxProfilerPause pause (tprof_start/tprof_stop\n"
	      "                         always do); sets TPROF_CAPTURE_RANGE\n"
	      "\n"
	      "When the job hangs:\n"
	      "      --hang-report S    when no process of the job has got on for S seconds\n"
	      "                         (a call returned or began, a record written) while\n"
	      "                         some still run, write the hang report (what\n"
	      "                         'tprof-analyze DIR --live --once' says: who never\n"
	      "                         entered the collective the others wait in, deadlocks,\n"
	      "                         mismatched collectives, device work that does not\n"
	      "                         end) to DIR/hang-report.txt and to stderr, once\n"
	      "      --hang-action kill, --hang-action signal:SIG\n"
	      "                         then end the job (its processes here stopped\n"
	      "                         together, so the profile keeps the hang, then\n"
	      "                         SIGKILL, or SIGTERM where handled; COMMAND SIGTERM,\n"
	      "                         and SIGKILL 10 s later)\n"
	      "                         or send COMMAND SIG (QUIT for core dumps, USR1...);\n"
	      "                         without it COMMAND runs on\n"
	      "\n"
	      "  -v, --verbose          more messages from the recorder, repeat for more\n"
	      "                         (-vv, -vvv); sets TPROF_VERBOSE to the count; with\n"
	      "                         --sample, what the sampler did and its own CPU time\n"
	      "  -h, --help             print this help and exit\n"
	      "  -V, --version          print the version and exit\n"
	      "\n"
	      "Options are read up to '--' or the first argument that is not an option; all\n"
	      "that follows is COMMAND and its arguments.\n"
	      "\n"
	      "COMMAND runs with the current environment plus TPROF_ENABLE=1, the variables\n"
	      "above that were asked for, and LD_PRELOAD with the recorder put first.  Other\n"
	      "TPROF_* variables already set are passed on unchanged.  Each run is a job whose\n"
	      "identity every file of it carries: TPROF_JOB when set, the launcher's job when\n"
	      PROG " is itself a rank of mpirun, srun or mpiexec (so that the ranks\n"
	      "agree), else a new one; it is passed to COMMAND as TPROF_JOB.  The recorder is\n"
	      "the first of these that exists:\n"
	      "  $TPROF_PRELOAD_LIB (an error if it is set but missing)\n"
	      "  <directory of " PROG ">/../preload/.libs/" PRELOAD_NAME " (build tree)\n"
	      "  <directory of " PROG ">/../lib/" PRELOAD_NAME "\n"
	      "  " TPROF_LIBDIR "/" PRELOAD_NAME "\n"
	      "\n"
	      "A Python COMMAND can `import tprof` (tprof's Python module): PYTHONPATH gets\n"
	      "first the directory that holds the module, the user's entries after it.  It is\n"
	      "the first of these that holds the module (each holds that module alone):\n"
	      "  the source tree's python/ (build tree)\n"
	      "  <directory of " PROG ">/../lib/" PACKAGE "/python\n"
	      "  " TPROF_PYTHONDIR "\n"
	      "\n"
	      "Without --sample and --sample-hz, TPROF_SAMPLE and TPROF_SAMPLE_HZ give them\n"
	      "(and are then not passed on to COMMAND).  The system profile comes from the\n"
	      "kernel (BPF) where this tprof was built with it and the privileges allow\n"
	      "(root, or CAP_BPF and CAP_PERFMON); otherwise, or with TPROF_SAMPLE_BPF=0,\n"
	      "from /proc, without CPU stacks, and a line on stderr says so.  It follows\n"
	      "COMMAND and every process it starts.\n"
	      "\n"
	      "When COMMAND is Open MPI's mpirun, -x options for LD_PRELOAD, PYTHONPATH and\n"
	      "the TPROF_* variables are added to it (or, when OMPI_MCA_mca_base_env_list is\n"
	      "set, their names to that), so that ranks on other hosts are recorded too.\n"
	      "\n"
	      "SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1 and SIGUSR2 sent to " PROG " are\n"
	      "passed on to COMMAND, but for the --capture-signal.\n"
	      "\n"
	      "Exit status: that of COMMAND; 128+N if it was killed by signal N; 126 if it\n"
	      "could not be run, 127 if it was not found; 2 for a usage or setup error.\n"
	      "\n"
	      "Report bugs to <" PACKAGE_BUGREPORT ">.\n",
	      stdout);
}

static void __attribute__((noreturn, format(printf, 1, 2))) usage_error(const char *fmt, ...)
{
	va_list ap;
	fputs(PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry '" PROG " --help'.\n", stderr);
	exit(EXIT_SETUP);
}

/* ------------------------------------------------------------------ command line */

static const struct option *long_opt_by_val(int val)
{
	for (const struct option *o = long_opts; o->name; o++)
		if (o->val == val)
			return o;
	return NULL;
}

/* How the user spelled the option just parsed: "--max-events" or "-n". */
static const char *spelling(int c, int longindex, char *buf, size_t len)
{
	if (longindex >= 0)
		snprintf(buf, len, "--%s", long_opts[longindex].name);
	else
		snprintf(buf, len, "-%c", c);
	return buf;
}

/* Long options that "--word" (or "--word=value") abbreviates. */
static int long_matches(const char *arg)
{
	size_t n = strcspn(arg + 2, "=");
	int count = 0;
	for (const struct option *o = long_opts; o->name; o++) {
		if (strlen(o->name) == n && !strncmp(o->name, arg + 2, n))
			return 1;
		count += !strncmp(o->name, arg + 2, n);
	}
	return count;
}

/* getopt returned '?': an unknown or ambiguous option, or a value given to one that takes
 * none.  glibc leaves optopt 0 for a long option it does not know, the option's value for a
 * long option given "=value", and the character for an unknown short option. */
static void __attribute__((noreturn)) bad_option(char **argv)
{
	const char *arg = argv[optind - 1];
	int n = (int)strcspn(arg, "=");
	if (optopt && long_opt_by_val(optopt) && !strncmp(arg, "--", 2))
		usage_error("option '%.*s' does not take a value", n, arg);
	if (optopt)
		usage_error("unknown option '-%c'", optopt);
	if (long_matches(arg) > 1)
		usage_error("ambiguous option '%.*s'", n, arg);
	usage_error("unknown option '%.*s'", n, arg);
}

/* getopt returned ':'.  A value can only be missing after the last argument, so that
 * argument is the option itself, "--output" or "-o" (maybe "-vo"). */
static void __attribute__((noreturn)) missing_value(char **argv)
{
	const struct option *o = long_opt_by_val(optopt);
	if (!strncmp(argv[optind - 1], "--", 2) && o)
		usage_error("option '--%s' needs a value", o->name);
	usage_error("option '-%c' needs a value", optopt);
}

/* A plain decimal number: no sign, no spaces, nothing after it. */
static int parse_number(const char *v, unsigned long long *out)
{
	char *end;
	if (*v < '0' || *v > '9')
		return -1;
	errno = 0;
	unsigned long long x = strtoull(v, &end, 10);
	if (errno || *end)
		return -1;
	*out = x;
	return 0;
}

static void set_max_events(struct options *o, const char *opt, const char *v)
{
	unsigned long long x;
	if (parse_number(v, &x))
		usage_error("invalid value '%s' for %s: expected a non-negative integer", v, opt);
	if (x > MAX_EVENTS_LIMIT)
		usage_error("invalid value '%s' for %s: expected a non-negative integer up to %llu",
			    v, opt, MAX_EVENTS_LIMIT);
	snprintf(o->max_events, sizeof(o->max_events), "%llu", x);
}

static void set_buffer_kb(struct options *o, const char *opt, const char *v)
{
	unsigned long long x;
	if (parse_number(v, &x) || x < MIN_BUFFER_KB || x > MAX_BUFFER_KB || x % 4)
		usage_error("invalid value '%s' for %s: expected an integer from %d to %d "
			    "that is a multiple of 4", v, opt, MIN_BUFFER_KB, MAX_BUFFER_KB);
	snprintf(o->buffer_kb, sizeof(o->buffer_kb), "%llu", x);
}

static void set_sample(struct options *o, const char *opt, const char *v)
{
	char bad[64];
	if (tprof_sample_parse_list(v, &o->sample.what, bad, sizeof(bad)))
		usage_error("invalid value '%s' for %s: unknown word '%s' (expected a comma list "
			    "of cpu, sched and mem, or all)", v, opt, bad);
	o->sample_given = 1;
}

static void set_sample_hz(struct options *o, const char *opt, const char *v)
{
	if (tprof_sample_parse_hz(v, &o->sample.hz))
		usage_error("invalid value '%s' for %s: expected an integer from 1 to %u", v, opt,
			    TPROF_SAMPLE_HZ_MAX);
	o->hz_given = 1;
}

/* TPROF_SAMPLE and TPROF_SAMPLE_HZ stand in for options not given; tprof-inspect samples,
 * so they are not left for the command's recorder to act on as well. */
static void sample_from_env(struct options *o)
{
	const char *list = getenv("TPROF_SAMPLE"), *hz = getenv("TPROF_SAMPLE_HZ");
	if (!o->sample_given && list && *list)
		set_sample(o, "TPROF_SAMPLE", list);
	if (!o->hz_given && hz && *hz)
		set_sample_hz(o, "TPROF_SAMPLE_HZ", hz);
	if (!o->sample.hz)
		o->sample.hz = TPROF_SAMPLE_HZ_DEFAULT;
	if (o->sample.what) {
		unsetenv("TPROF_SAMPLE");
		unsetenv("TPROF_SAMPLE_HZ");
	}
}

/* TPROF_GROUP_READABLE stands in for --group-readable; either way, tprof-inspect's own files
 * (the directory, the system profile) are made so too. */
static void group_from_env(struct options *o)
{
	const char *v = getenv("TPROF_GROUP_READABLE");
	if (v && (!strcmp(v, "1") || !strcasecmp(v, "yes") || !strcasecmp(v, "true") ||
		  !strcasecmp(v, "on")))
		o->group_readable = 1;
	tprof_private_group(o->group_readable);
}

static void set_dir(struct options *o, const char *opt, const char *v)
{
	if (!*v)
		usage_error("invalid value '' for %s: expected a directory", opt);
	o->dir = v;
}

void inspect_parse_args(int argc, char **argv, struct options *o)
{
	char opt[32];

	memset(o, 0, sizeof(*o));
	opterr = 0;
	for (;;) {
		int longindex = -1;
		int c = getopt_long(argc, argv, "+:o:n:vhV", long_opts, &longindex);
		if (c == -1)
			break;
		switch (c) {
		case 'o':
			set_dir(o, spelling(c, longindex, opt, sizeof(opt)), optarg);
			break;
		case 'n':
			set_max_events(o, spelling(c, longindex, opt, sizeof(opt)), optarg);
			break;
		case OPT_APPEND:
		case OPT_REPLACE:
			if (o->existing && o->existing != (c == OPT_APPEND ? JOB_APPEND : JOB_REPLACE))
				usage_error("--append and --replace cannot be given together");
			o->existing = c == OPT_APPEND ? JOB_APPEND : JOB_REPLACE;
			break;
		case OPT_BUFFER_KB:
			set_buffer_kb(o, spelling(c, longindex, opt, sizeof(opt)), optarg);
			break;
		case OPT_SAMPLE:
			set_sample(o, spelling(c, longindex, opt, sizeof(opt)), optarg);
			break;
		case OPT_SAMPLE_HZ:
			set_sample_hz(o, spelling(c, longindex, opt, sizeof(opt)), optarg);
			break;
		case OPT_GROUP_READABLE:
			o->group_readable = 1;
			break;
		case OPT_DELAY:
		case OPT_DURATION:
			if (capture_parse_seconds(optarg, c == OPT_DELAY ? &o->capture.delay
									 : &o->capture.duration))
				usage_error("invalid value '%s' for %s: expected seconds, a number from 0 "
					    "to 10000000 (2, 0.5)", optarg,
					    spelling(c, longindex, opt, sizeof(opt)));
			break;
		case OPT_START_PAUSED:
			o->capture.paused = 1;
			break;
		case OPT_CAPTURE_SIGNAL:
			if (capture_parse_signal(optarg, &o->capture.signal))
				usage_error("invalid value '%s' for %s: expected a signal that can be "
					    "caught, by name (USR1, SIGUSR2) or number", optarg,
					    spelling(c, longindex, opt, sizeof(opt)));
			break;
		case OPT_STEPS: {
			uint64_t a, b;
			if (tprof_steps_parse(optarg, &a, &b))
				usage_error("invalid value '%s' for %s: expected A:B (steps A to B), A:, "
					    ":B or N, step numbers with A <= B", optarg,
					    spelling(c, longindex, opt, sizeof(opt)));
			o->capture.steps = optarg;
			break;
		}
		case OPT_CAPTURE_RANGE:
			if (strcmp(optarg, "api") && strcmp(optarg, "none"))
				usage_error("invalid value '%s' for %s: expected api or none", optarg,
					    spelling(c, longindex, opt, sizeof(opt)));
			o->capture.range = optarg;
			break;
		case OPT_HANG_REPORT:
			if (hang_parse_seconds(optarg, &o->hang.seconds))
				usage_error("invalid value '%s' for %s: expected a number of seconds "
					    "above 0", optarg, spelling(c, longindex, opt, sizeof(opt)));
			break;
		case OPT_HANG_ACTION:
			if (hang_parse_action(optarg, &o->hang))
				usage_error("invalid value '%s' for %s: expected kill or signal:SIG "
					    "(signal:QUIT, signal:USR1, signal:9...)", optarg,
					    spelling(c, longindex, opt, sizeof(opt)));
			break;
		case 'v':
			if (o->verbose < MAX_VERBOSE)
				o->verbose++;
			break;
		case 'h':
			usage();
			exit(0);
		case 'V':
		case OPT_VERSION:
			puts(PROG " (" PACKAGE_NAME ") " PACKAGE_VERSION);
			exit(0);
		case ':':
			missing_value(argv);
		default:
			bad_option(argv);
		}
	}
	if (optind >= argc)
		usage_error("no command given");
	if (o->capture.paused && !o->capture.signal)
		usage_error("--start-paused needs --capture-signal (else nothing would start "
			    "recording)");
	if (o->capture.paused && o->capture.delay > 0)
		usage_error("--start-paused and --delay cannot be given together");
	if (o->hang.action && !o->hang.seconds)
		usage_error("--hang-action is what to do once --hang-report found a hang: give "
			    "--hang-report S too");
	if (o->existing && !o->dir)
		usage_error("%s is for a directory given with -o (the default one is always new)",
			    o->existing == JOB_APPEND ? "--append" : "--replace");
	o->cmd = argv + optind;
	sample_from_env(o);
	group_from_env(o);
}
