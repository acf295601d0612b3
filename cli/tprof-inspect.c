/* tprof-inspect.c — runs one command with the recorder preloaded: sets TPROF_* and LD_PRELOAD
 * for it (and has Open MPI's mpirun pass them to other hosts), passes on the signals it is
 * sent, samples the system beside it when asked (sampling.c), exits with its status and says
 * where the profiles went.  The command's own stdin, stdout and stderr are left alone. */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../common/capture.h"
#include "../common/format.h"
#include "../common/outdir.h"
#include "../common/spool-check.h"
#include "../common/writer-live.h"
#include "../common/xalloc.h"
#include "../sample/sampler.h"
#include "capture.h"
#include "job.h"
#include "sampling.h"

#define PROG "tprof-inspect"
#define PRELOAD_NAME "libtrace_preload.so"
#define EXIT_SETUP 2		/* usage errors and anything that stops the command starting */
#define MAX_VERBOSE 3
#define MAX_EVENTS_LIMIT ((unsigned long long)INT64_MAX / 2)	/* the recorder's own limit */
#define MIN_BUFFER_KB 16
#define MAX_BUFFER_KB 65536
#define MAX_DEPTH 16		/* how deep the profile count looks into the output directory */

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

enum { OPT_BUFFER_KB = 256, OPT_VERSION, OPT_SAMPLE, OPT_SAMPLE_HZ, OPT_APPEND, OPT_REPLACE,
       OPT_GROUP_READABLE, OPT_DELAY, OPT_DURATION, OPT_START_PAUSED, OPT_CAPTURE_SIGNAL,
       OPT_STEPS, OPT_CAPTURE_RANGE };

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
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

static const int forwarded[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2 };
#define NFORWARDED (sizeof(forwarded) / sizeof(forwarded[0]))

static struct sigaction saved_actions[NFORWARDED + 1];   /* and the capture signal's */
static int capture_sig;		/* --capture-signal: toggles the capture window, not passed on */
static volatile sig_atomic_t child;	/* the command while it can be signalled, else 0 */

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

static void __attribute__((noreturn, format(printf, 1, 2))) fail(const char *fmt, ...)
{
	va_list ap;
	fputs(PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
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

static void parse_args(int argc, char **argv, struct options *o)
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
	if (o->existing && !o->dir)
		usage_error("%s is for a directory given with -o (the default one is always new)",
			    o->existing == JOB_APPEND ? "--append" : "--replace");
	o->cmd = argv + optind;
	sample_from_env(o);
	group_from_env(o);
}

/* ------------------------------------------------------------------ the recorder library */

static int is_file(const char *path)
{
	struct stat st;
	return !stat(path, &st) && S_ISREG(st.st_mode);
}

/* The directory of this executable, links resolved; NULL if /proc cannot say. */
static char *exe_dir(void)
{
	static char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	char *slash = strrchr(buf, '/');
	if (!slash)
		return NULL;
	*slash = '\0';
	return buf;
}

static char *absolute(const char *path)
{
	char *p = realpath(path, NULL);
	if (!p)
		fail("cannot resolve '%s': %s", path, strerror(errno));
	return p;
}

static char *preload_from_env(const char *path)
{
	struct stat st;
	if (stat(path, &st))
		fail("TPROF_PRELOAD_LIB=%s: %s", path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		fail("TPROF_PRELOAD_LIB=%s: not a regular file", path);
	return absolute(path);
}

static char *find_preload(void)
{
	const char *env = getenv("TPROF_PRELOAD_LIB");
	if (env && *env)
		return preload_from_env(env);

	char tried[3][PATH_MAX + 64];
	int n = 0;
	const char *dir = exe_dir();
	if (dir) {
		snprintf(tried[n++], sizeof(tried[0]), "%s/../preload/.libs/" PRELOAD_NAME, dir);
		snprintf(tried[n++], sizeof(tried[0]), "%s/../lib/" PRELOAD_NAME, dir);
	}
	snprintf(tried[n++], sizeof(tried[0]), "%s/" PRELOAD_NAME, TPROF_LIBDIR);
	for (int i = 0; i < n; i++)
		if (is_file(tried[i]))
			return absolute(tried[i]);

	fprintf(stderr, PROG ": cannot find " PRELOAD_NAME "; looked for:\n");
	for (int i = 0; i < n; i++)
		fprintf(stderr, "  %s\n", tried[i]);
	fail("set TPROF_PRELOAD_LIB to its path");
}

/* Whether an LD_PRELOAD entry is a recorder: this one, or another copy that must not be
 * loaded beside it. */
static int is_recorder(const char *entry, const char *lib)
{
	const char *base = strrchr(entry, '/');
	char *real = realpath(entry, NULL);
	int same = !strcmp(entry, lib) || (real && !strcmp(real, lib));

	free(real);
	base = base ? base + 1 : entry;
	if (!same && !strcmp(base, PRELOAD_NAME)) {
		fprintf(stderr, PROG ": leaving %s out of LD_PRELOAD in favour of %s\n", entry, lib);
		return 1;
	}
	return same;
}

/* LD_PRELOAD with lib first and every other entry of old after it, in order. */
static char *preload_list(const char *lib, const char *old)
{
	old = old ? old : "";
	char *out = xmalloc(strlen(lib) + strlen(old) + 2);
	char *copy = xstrdup(old);
	char *save = NULL;
	strcpy(out, lib);
	for (char *e = strtok_r(copy, ": ", &save); e; e = strtok_r(NULL, ": ", &save)) {
		if (is_recorder(e, lib))
			continue;
		strcat(out, ":");
		strcat(out, e);
	}
	free(copy);
	return out;
}

/* ------------------------------------------------------------------ environment and output */

/* The output directory's owner and mode are checked as the recorder checks them
 * (common/outdir.h): a directory of another user, or one others may write to, is refused. */
static void refuse_unsafe(const char *dir, const char *abs)
{
	char why[256];
	if (tprof_outdir_check(abs, why, sizeof(why)))
		fail("refusing output directory '%s': %s", dir, why);
}

/* Creates the output directory and gives its absolute path. */
static char *prepare_output(const char *dir)
{
	if (tprof_outdir_make(dir))
		fail("cannot create output directory '%s': %s", dir, strerror(errno));
	char *abs = absolute(dir);
	refuse_unsafe(dir, abs);
	if (access(abs, W_OK | X_OK))
		fail("cannot write to output directory '%s': %s", dir, strerror(errno));
	return abs;
}

static void set_var(const char *name, const char *value)
{
	if (setenv(name, value, 1))
		fail("cannot set %s: %s", name, strerror(errno));
}

/* Whether this is the build tree's tprof-inspect: the recorder is built beside it. */
static int in_build_tree(void)
{
	char path[PATH_MAX + 64];
	const char *dir = exe_dir();
	if (!dir)
		return 0;
	snprintf(path, sizeof(path), "%s/../preload/.libs/" PRELOAD_NAME, dir);
	return is_file(path);
}

/* The directory that holds the tprof Python package, links resolved, as the recorder is
 * found: the source tree's python/ for the build tree's tprof-inspect, else the installed one
 * beside this program or where configure put it.  That one holds the package alone (a link to
 * it under pythondir), so that no other package comes before the command's own.  NULL when
 * none is there. */
static char *find_python_dir(void)
{
	char tried[3][PATH_MAX + 64], path[PATH_MAX + 96];
	const char *dir = exe_dir();
	int n = 0;
	if (in_build_tree())
		snprintf(tried[n++], sizeof(tried[0]), "%s", TPROF_SRC_PYTHONDIR);
	if (dir)
		snprintf(tried[n++], sizeof(tried[0]), "%s/../lib/" PACKAGE "/python", dir);
	snprintf(tried[n++], sizeof(tried[0]), "%s", TPROF_PYTHONDIR);
	for (int i = 0; i < n; i++) {
		int len = snprintf(path, sizeof(path), "%s/tprof/__init__.py", tried[i]);
		if (len < (int)sizeof(path) && is_file(path))
			return realpath(tried[i], NULL);
	}
	return NULL;
}

static int python_path_set;	/* PYTHONPATH is the recorder's to pass on to other hosts */

/* PYTHONPATH with dir first and the user's entries after it, as they were. */
static void set_python_path(const char *dir)
{
	const char *old = getenv("PYTHONPATH");
	size_t n = strlen(dir);
	python_path_set = 1;
	if (old && !strncmp(old, dir, n) && (old[n] == ':' || !old[n]))
		return;
	if (!old || !*old) {
		set_var("PYTHONPATH", dir);
		return;
	}
	char *v = xmalloc(n + strlen(old) + 2);
	sprintf(v, "%s:%s", dir, old);
	set_var("PYTHONPATH", v);
	free(v);
}

static void set_environment(const struct options *o, const char *dir, const char *lib)
{
	char *py = find_python_dir();
	if (py)
		set_python_path(py);
	free(py);
	set_var("TPROF_ENABLE", "1");
	set_var("TPROF_OUTPUT_DIR", dir);
	if (o->group_readable)
		set_var("TPROF_GROUP_READABLE", "1");
	if (o->max_events[0])
		set_var("TPROF_MAX_EVENTS", o->max_events);
	if (o->buffer_kb[0])
		set_var("TPROF_BUFFER_KB", o->buffer_kb);
	if (o->verbose) {
		char v[2] = { (char)('0' + o->verbose), '\0' };
		set_var("TPROF_VERBOSE", v);
	}
	char *list = preload_list(lib, getenv("LD_PRELOAD"));
#ifdef TPROF_ASAN_RUNTIME
	/* A sanitizer build of the recorder needs the ASan runtime loaded before anything else;
	 * leak reports from the profiled program are not the recorder's to make. */
	char *with = xmalloc(strlen(TPROF_ASAN_RUNTIME) + strlen(list) + 2);
	sprintf(with, "%s:%s", TPROF_ASAN_RUNTIME, list);
	free(list);
	list = with;
	if (!getenv("ASAN_OPTIONS"))
		set_var("ASAN_OPTIONS", "detect_leaks=0");
#endif
	set_var("LD_PRELOAD", list);
	free(list);
}

/* ------------------------------------------------------------------ Open MPI launchers */

/* Open MPI's mpirun passes to ranks on other hosts only the variables named with -x or in
 * the MCA parameter mca_base_env_list, and refuses to run with both.  So when the user set
 * OMPI_MCA_mca_base_env_list, the recorder's variables are added to it; when COMMAND is
 * Open MPI's launcher itself (orterun, under whatever name), they are given to it as -x
 * options; anything else (a script, another launcher) is left as it is. */

/* Whether environment entry e is one of the recorder's variables: LD_PRELOAD, every TPROF_*,
 * PYTHONPATH when it leads to the Python module, and in a sanitizer build the ASAN_OPTIONS
 * set for it. */
static int recorder_var(const char *e)
{
#ifdef TPROF_ASAN_RUNTIME
	if (!strncmp(e, "ASAN_OPTIONS=", 13))
		return 1;
#endif
	if (python_path_set && !strncmp(e, "PYTHONPATH=", 11))
		return 1;
	return !strncmp(e, "TPROF_", 6) || !strncmp(e, "LD_PRELOAD=", 11);
}

/* The names of the recorder's variables set in this environment. */
static char **recorder_vars(size_t *n)
{
	extern char **environ;
	size_t cap = 1;
	for (char **e = environ; *e; e++)
		cap++;
	char **names = xmalloc(cap * sizeof(*names));
	*n = 0;
	for (char **e = environ; *e; e++) {
		if (!recorder_var(*e))
			continue;
		size_t len = strcspn(*e, "=");
		names[*n] = xmalloc(len + 1);
		memcpy(names[*n], *e, len);
		names[(*n)++][len] = '\0';
	}
	return names;
}

/* Whether a delim-separated list names var (as "VAR" or "VAR=value"). */
static int env_list_has(const char *list, char delim, const char *var)
{
	size_t n = strlen(var);
	for (const char *p = list; *p;) {
		size_t len = strcspn(p, (char[]){ delim, '\0' });
		if (len >= n && !strncmp(p, var, n) && (len == n || p[n] == '='))
			return 1;
		p += len;
		if (*p)
			p++;
	}
	return 0;
}

static void extend_env_list(const char *list, char **vars, size_t nvars)
{
	const char *d = getenv("OMPI_MCA_mca_base_env_list_delimiter");
	char delim = d && strlen(d) == 1 ? d[0] : ';';
	size_t len = strlen(list) + 1;
	for (size_t i = 0; i < nvars; i++)
		len += strlen(vars[i]) + 1;
	char *out = xmalloc(len);
	strcpy(out, list);
	for (size_t i = 0; i < nvars; i++) {
		if (env_list_has(out, delim, vars[i]))
			continue;
		size_t at = strlen(out);
		if (at && out[at - 1] != delim)
			out[at++] = delim;
		strcpy(out + at, vars[i]);
	}
	set_var("OMPI_MCA_mca_base_env_list", out);
	free(out);
}

/* The file COMMAND runs, found as execvp would, links resolved; NULL if none. */
static char *command_path(const char *cmd)
{
	if (strchr(cmd, '/'))
		return realpath(cmd, NULL);
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (const char *p = path; *p;) {
		size_t len = strcspn(p, ":");
		char buf[PATH_MAX];
		if (snprintf(buf, sizeof(buf), "%.*s/%s", (int)len, len ? p : ".", cmd) < (int)sizeof(buf) &&
		    is_file(buf) && !access(buf, X_OK))
			return realpath(buf, NULL);
		p += len;
		if (*p)
			p++;
	}
	return NULL;
}

static int is_orterun(const char *cmd)
{
	char *path = command_path(cmd);
	const char *base = path ? strrchr(path, '/') : NULL;
	int yes = base && !strcmp(base + 1, "orterun");
	free(path);
	return yes;
}

struct forwarding {
	char **cmd;             /* the command to run */
	char **added;           /* what was allocated for it, freed by forwarding_done */
	char **vars;
	size_t nvars;
};

/* COMMAND, with -x options for the recorder's variables when it is Open MPI's launcher. */
static void forward_to_ranks(char **cmd, struct forwarding *f)
{
	size_t argc = 0;
	f->vars = recorder_vars(&f->nvars);
	f->cmd = cmd;
	f->added = NULL;
	const char *list = getenv("OMPI_MCA_mca_base_env_list");
	if (list) {
		extend_env_list(list, f->vars, f->nvars);
	} else if (is_orterun(cmd[0])) {
		while (cmd[argc])
			argc++;
		char **out = xmalloc((argc + 2 * f->nvars + 1) * sizeof(*out));
		out[0] = cmd[0];
		for (size_t i = 0; i < f->nvars; i++) {
			out[1 + 2 * i] = "-x";
			out[2 + 2 * i] = f->vars[i];
		}
		memcpy(out + 1 + 2 * f->nvars, cmd + 1, argc * sizeof(*out));
		f->cmd = f->added = out;
	}
}

static void forwarding_done(struct forwarding *f)
{
	for (size_t i = 0; i < f->nvars; i++)
		free(f->vars[i]);
	free(f->vars);
	free(f->added);
}

/* ------------------------------------------------------------------ signals */

/* Passes a signal on, unless the kernel sent it to the whole foreground process group (^C,
 * ^\, a hangup), in which case the command has had it already. */
static void forward(int sig, siginfo_t *si, void *uc)
{
	int saved_errno = errno;
	pid_t pid = child;
	if (sig == capture_sig) {
		capture_toggle();
		errno = saved_errno;
		return;
	}
	if (pid > 0 && (!si || si->si_code != SI_KERNEL))
		kill(pid, sig);
	errno = saved_errno;
}

/* Blocks the forwarded signals (old mask in *old) and catches those not ignored; an ignored
 * one stays ignored, as it does for the command. */
static void catch_signals(sigset_t *old)
{
	struct sigaction sa = { .sa_sigaction = forward, .sa_flags = SA_SIGINFO | SA_RESTART };
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < NFORWARDED; i++)
		sigaddset(&set, forwarded[i]);
	if (capture_sig)
		sigaddset(&set, capture_sig);
	sigprocmask(SIG_BLOCK, &set, old);
	sa.sa_mask = set;
	for (size_t i = 0; i < NFORWARDED; i++) {
		sigaction(forwarded[i], NULL, &saved_actions[i]);
		if (saved_actions[i].sa_handler != SIG_IGN || forwarded[i] == capture_sig)
			sigaction(forwarded[i], &sa, NULL);
	}
	sigaction(capture_sig ? capture_sig : SIGUSR1, NULL, &saved_actions[NFORWARDED]);
	if (capture_sig)
		sigaction(capture_sig, &sa, NULL);
}

/* In the child: the dispositions and mask this program started with. */
static void restore_signals(const sigset_t *old)
{
	if (capture_sig)
		sigaction(capture_sig, &saved_actions[NFORWARDED], NULL);
	for (size_t i = 0; i < NFORWARDED; i++)
		sigaction(forwarded[i], &saved_actions[i], NULL);
	sigprocmask(SIG_SETMASK, old, NULL);
}

/* ------------------------------------------------------------------ running the command */

/* In the child, with a system profile: waits until the sampler follows it (the parent closes
 * the other end of the gate). */
static void wait_gate(int gate)
{
	char c;
	if (gate < 0)
		return;
	while (read(gate, &c, 1) < 0 && errno == EINTR)
		;
	close(gate);
}

static void __attribute__((noreturn)) exec_child(char **cmd, const sigset_t *old, int fd, int gate)
{
	wait_gate(gate);
	restore_signals(old);
	execvp(cmd[0], cmd);
	int err = errno;
	dprintf(STDERR_FILENO, PROG ": cannot run '%s': %s\n", cmd[0], strerror(err));
	ssize_t w = write(fd, &err, sizeof(err));
	(void)w;
	_exit(err == ENOENT ? 127 : 126);
}

/* 0 once the command is running, the errno of the exec if it never started.  The pipe is
 * close-on-exec, so a successful exec reads as end of file. */
static int exec_result(int fd)
{
	int err = 0;
	ssize_t n;
	do
		n = read(fd, &err, sizeof(err));
	while (n < 0 && errno == EINTR);
	close(fd);
	return n == (ssize_t)sizeof(err) ? err : 0;
}

/* Waits without reaping first, so that no signal is passed to a pid already reused. */
static int wait_child(pid_t pid)
{
	siginfo_t si;
	int status;

	while (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT) < 0)
		if (errno != EINTR)
			fail("cannot wait for the command: %s", strerror(errno));
	child = 0;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			fail("cannot wait for the command: %s", strerror(errno));
	return status;
}

static int exit_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return EXIT_SETUP;
}

/* Runs the command; the time it was started goes to *start.  With a system profile the
 * command waits, forked, until the sampler follows it, and then execs. */
static int run(char **cmd, const struct tprof_sample_request *sr, const char *dir,
	       struct timespec *start, int *exec_err, int *status)
{
	sigset_t old;
	int fds[2], gate[2] = { -1, -1 };

	signal(SIGCHLD, SIG_DFL);	/* an inherited SIG_IGN would reap it for us */
	if (pipe2(fds, O_CLOEXEC) || (sr->what && pipe2(gate, O_CLOEXEC)))
		fail("cannot create a pipe: %s", strerror(errno));
	clock_gettime(CLOCK_REALTIME, start);
	catch_signals(&old);
	pid_t pid = fork();
	if (pid < 0)
		fail("cannot fork: %s", strerror(errno));
	if (pid == 0) {
		close(fds[0]);
		if (gate[1] >= 0)
			close(gate[1]);
		exec_child(cmd, &old, fds[1], gate[0]);
	}
	child = pid;
	capture_started();
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(fds[1]);
	if (sr->what) {
		close(gate[0]);
		sampling_start(sr, dir, pid);
		close(gate[1]);
	}
	*exec_err = exec_result(fds[0]);
	*status = wait_child(pid);
	return exit_code(*status);
}

/* ------------------------------------------------------------------ the report */

static int has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n > m && !strcmp(s + n - m, suffix);
}

/* Whether the process that wrote spool `name` ("<host>.<pid>.<id>.spool") may still run: on
 * this host while its pid exists (another tprof-inspect sharing the directory may be waiting
 * for it, or it runs alone); on another host always, as there is no telling. */
static int writer_may_live(const char *name)
{
	return tprof_spool_writer(name, 0) != TPROF_WRITER_GONE;
}

/* 1 when the spool stays because it holds records its chunk file lacks (a process that did
 * not finish). */
static int tidy_spool(int dirfd, const char *name)
{
	if (writer_may_live(name))
		return 0;
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d/", dirfd);
	size_t n = strlen(path) + strlen(name) + 1;
	char *full = xmalloc(n);
	snprintf(full, n, "%s%s", path, name);
	int settled = tprof_spool_settled(full);
	if (settled == 1)
		unlinkat(dirfd, name, 0);
	free(full);
	return settled == 0;
}

/* Whether chunk file `name` holds records: a chunk after its header, or a spool beside it
 * (the records of a process that did not finish).  A file with its header alone is no
 * profile. */
static int holds_records(int dirfd, const char *name, const struct stat *st)
{
	struct stat sp;
	if (st->st_size > (off_t)TPROF_FILE_HEADER_SIZE)
		return 1;
	size_t n = strlen(name) - strlen(TPROF_TRACE_SUFFIX);
	char *spool = xmalloc(n + strlen(TPROF_SPOOL_SUFFIX) + 1);
	sprintf(spool, "%.*s%s", (int)n, name, TPROF_SPOOL_SUFFIX);
	int r = !fstatat(dirfd, spool, &sp, AT_SYMLINK_NOFOLLOW) && S_ISREG(sp.st_mode) &&
		sp.st_size > 0;
	free(spool);
	return r;
}

/* Walks the open directory fd (closed here) and below it, without following links: counts
 * the *.tpf files of this job that hold records, and removes the spools modified at or after
 * since of those runs that have ended and hold nothing their chunk file lacks (a killed
 * process's spool stays: it has the records, and *kept counts it; so does the spool of a
 * process still running, perhaps under another tprof-inspect writing to the same directory,
 * as every rank's does under mpirun). */
static int scan_outputs(int fd, uint64_t job, time_t since, int depth, int *kept)
{
	DIR *d = fdopendir(fd);
	struct dirent *e;
	int n = 0;

	if (!d) {
		close(fd);
		return 0;
	}
	while ((e = readdir(d))) {
		struct stat st;
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW))
			continue;
		if (S_ISDIR(st.st_mode) && depth < MAX_DEPTH) {
			int sub = openat(dirfd(d), e->d_name,
					 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (sub >= 0)
				n += scan_outputs(sub, job, since, depth + 1, kept);
		} else if (S_ISREG(st.st_mode)) {
			if (has_suffix(e->d_name, TPROF_TRACE_SUFFIX))
				n += job_file_is(dirfd(d), e->d_name, job) &&
				     holds_records(dirfd(d), e->d_name, &st);
			else if (st.st_mtime >= since && has_suffix(e->d_name, TPROF_SPOOL_SUFFIX))
				*kept += tidy_spool(dirfd(d), e->d_name);
		}
	}
	closedir(d);
	return n;
}

static int plain_word(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("_./,:@%+=-", *s))
			return 0;
	return 1;
}

/* s as a shell word: unchanged when that is safe, else in single quotes. */
static char *shell_quote(const char *s)
{
	char *out = xmalloc(4 * strlen(s) + 3), *p = out;
	if (plain_word(s))
		return strcpy(out, s);
	*p++ = '\'';
	for (; *s; s++) {
		if (*s == '\'') {
			memcpy(p, "'\\''", 4);
			p += 4;
		} else {
			*p++ = *s;
		}
	}
	*p++ = '\'';
	*p = '\0';
	return out;
}

/* How the command ended, when not with status 0, as "exited with status 3" or "was killed by
 * SIGSEGV". */
static void ending(int status, char *buf, size_t len)
{
	const char *sig = WIFSIGNALED(status) ? sigabbrev_np(WTERMSIG(status)) : NULL;
	if (WIFEXITED(status))
		snprintf(buf, len, "exited with status %d", WEXITSTATUS(status));
	else if (sig)
		snprintf(buf, len, "was killed by SIG%s", sig);
	else
		snprintf(buf, len, "was killed by signal %d", WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

static int is_mpi_launcher(const char *cmd)
{
	const char *base = strrchr(cmd, '/');
	base = base ? base + 1 : cmd;
	return !strncmp(base, "mpirun", 6) || !strncmp(base, "mpiexec", 7) || !strcmp(base, "srun");
}

/* The profile count: the processes of this job that recorded, and the system image if there
 * is one (found by the scan too, so counted once less); and when nothing was recorded, or the
 * command did not end well, what happened and what to do. */
static void report(const char *dir, const char *abs, uint64_t job, time_t since, char **cmd,
		   int status, int sampled, int never_open)
{
	int fd = open(abs, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int kept = 0;
	int n = fd < 0 ? 0 : scan_outputs(fd, job, since, 0, &kept);
	int sys = sampling_image() && n > 0;
	char *q = shell_quote(dir), *c = shell_quote(cmd[0]);
	char what[96], how[64];

	ending(status, how, sizeof(how));
	n -= sys;
	if (!sys)
		snprintf(what, sizeof(what), "%d process%s", n, n == 1 ? "" : "es");
	else if (n)
		snprintf(what, sizeof(what), "%d process%s and the system profile", n,
			 n == 1 ? "" : "es");
	else
		snprintf(what, sizeof(what), "the system profile");
	char pick[48] = "";
	if (job_others_kept())
		snprintf(pick, sizeof(pick), " --job %016llx", (unsigned long long)job);
	if ((n || sys) && WIFSIGNALED(status))
		fprintf(stderr, PROG ": %s %s; %s\n", c, how,
			kept ? "what it recorded until then is in its spool, which tprof-analyze reads"
			     : "what it recorded until then is in the profile");
	if (n || sys) {
		fprintf(stderr, PROG ": profile written to %s (%s)\n"
			PROG ": next: tprof-analyze %s%s --summary\n", q, what, q, pick);
	} else if (never_open) {
		fprintf(stderr, PROG ": no profile data was written to %s: %s ended before recording "
			"started (--delay, --start-paused)\n", q, c);
	} else if (status) {
		fprintf(stderr, PROG ": %s %s before any process was recorded; no profile data was "
			"written to %s\n", c, how, q);
		if (is_mpi_launcher(cmd[0]) && WIFEXITED(status))
			fprintf(stderr, PROG ": (Open MPI's mpirun needs --allow-run-as-root to run as "
				"root, and --oversubscribe for more ranks than cores; its own message "
				"above says why it stopped)\n");
	} else {
		fprintf(stderr, PROG ": no profile data was written to %s: %s made no call that tprof "
			"records (HIP, the Neuron runtime, MPI, NCCL/RCCL, roctx, tprof's own "
			"annotations), or did not load the recorder (a static or set-user-ID program)\n",
			q, c);
		if (!sampled)
			fprintf(stderr, PROG ": --sample all records any program: CPU samples, thread "
				"states and memory\n");
	}
	free(q);
	free(c);
}

int main(int argc, char **argv)
{
	struct options o;
	struct timespec start;
	int exec_err;

	parse_args(argc, argv, &o);
	char *lib = find_preload();
	uint64_t job = job_start();
	char *numbered = o.dir ? NULL : job_default_dir(job);
	const char *dir = o.dir ? o.dir : numbered;
	char *abs = prepare_output(dir);
	job_check_dir(abs, dir, job, o.existing);
	set_environment(&o, abs, lib);
	capture_sig = o.capture.signal;
	capture_setup(&o.capture, abs);
	struct forwarding fwd;
	forward_to_ranks(o.cmd, &fwd);
	int status;
	int code = run(fwd.cmd, &o.sample, abs, &start, &exec_err, &status);
	sampling_stop(!exec_err, o.verbose);
	int never_open = capture_done();
	forwarding_done(&fwd);
	if (!exec_err)
		report(dir, abs, job, start.tv_sec - 1, o.cmd, status, !!o.sample.what, never_open);
	free(abs);
	free(numbered);
	free(lib);
	return code;
}
