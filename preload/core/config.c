/* config.c — reads the TPROF_* environment once, at load time.  A bad value is one warning
 * naming the variable, and the default, once a job: the warnings wait until the job is known
 * (tprof_config_warnings), and a process whose job has said them (TPROF_CONFIG_WARNED, put in
 * the environment that its descendants inherit) says them no more. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "../../common/capture.h"
#include "../../common/job.h"
#include "../../sample/sampler.h"
#include "core.h"

#define WARNED_VAR "TPROF_CONFIG_WARNED"   /* JOB-HASH: the job whose processes said these */
#define MAX_HELD 8

static char held[MAX_HELD][320];   /* the warnings, until the job is known */
static int nheld TPROF_START_DATA;
static uint64_t held_hash = 1469598103934665603ull;   /* FNV-1a of them */

static void config_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
TPROF_START_CODE static void config_warn(const char *fmt, ...)
{
	char line[320];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	for (const char *c = line; *c; c++)
		held_hash = (held_hash ^ (unsigned char)*c) * 1099511628211ull;
	if (nheld < MAX_HELD)
		memcpy(held[nheld++], line, sizeof(line));
	else
		tprof_log_warn("%s", line);
}

TPROF_START_CODE int tprof_config_warnings(void)
{
	char hex[TPROF_JOB_HEX + 1], mark[TPROF_JOB_HEX + 18];
	int set = 0;
	if (!nheld)
		return 0;
	tprof_job_format(tprof_job_current(), hex);
	snprintf(mark, sizeof(mark), "%s-%016llx", hex, (unsigned long long)held_hash);
	const char *said = getenv(WARNED_VAR);
	if (!said || strcmp(said, mark)) {
		for (int i = 0; i < nheld; i++)
			tprof_log_warn("%s", held[i]);
		set = !setenv(WARNED_VAR, mark, 1);
	}
	nheld = 0;
	return set;
}

#define DEFAULT_BUFFER_KB 256
#define DEFAULT_SPOOL_MB 1024
#define DEFAULT_COMPRESS 1
#define DEFAULT_SYNC_ROUNDS 20
#define DEFAULT_SAMPLE_LAZY_MS 20

TPROF_START_CODE static int parse_bool(const char *name, const char *v, int dflt)
{
	if (!v || !*v)
		return dflt;
	if (!strcmp(v, "1"))
		return 1;
	if (!strcmp(v, "0"))   /* before the words: strcasecmp would touch two more pages of libc */
		return 0;
	if (!strcasecmp(v, "yes") || !strcasecmp(v, "true") || !strcasecmp(v, "on"))
		return 1;
	if (!strcasecmp(v, "no") || !strcasecmp(v, "false") || !strcasecmp(v, "off"))
		return 0;
	config_warn("%s=\"%s\" is not a boolean (use 1 or 0); using %d", name, v, dflt);
	return dflt;
}

/* Unsigned integer in [lo, hi]; anything else warns and gives dflt. */
TPROF_START_CODE static uint64_t parse_uint(const char *name, const char *v, uint64_t lo,
					     uint64_t hi, uint64_t dflt)
{
	if (!v || !*v)
		return dflt;
	char *end;
	errno = 0;
	unsigned long long x = strtoull(v, &end, 10);
	if (errno || *end || v[0] == '-' || x < lo || x > hi) {
		config_warn("%s=\"%s\" is not a whole number in [%" PRIu64 ", %" PRIu64 "]; using %" PRIu64,
			       name, v, lo, hi, dflt);
		return dflt;
	}
	return x;
}

/* Signed integer in [lo, hi]; anything else warns and gives dflt. */
TPROF_START_CODE static int64_t parse_int(const char *name, const char *v, int64_t lo,
					   int64_t hi, int64_t dflt)
{
	if (!v || !*v)
		return dflt;
	char *end;
	errno = 0;
	long long x = strtoll(v, &end, 10);
	if (errno || *end || x < lo || x > hi) {
		config_warn("%s=\"%s\" is not a whole number in [%" PRId64 ", %" PRId64 "]; using %" PRId64,
			       name, v, lo, hi, dflt);
		return dflt;
	}
	return x;
}

TPROF_START_CODE static char *absolute_dir(const char *dir)
{
	if (dir[0] == '/')
		return strdup(dir);
	char cwd[PATH_MAX];
	if (!getcwd(cwd, sizeof(cwd)))
		return strdup(dir);
	size_t n = strlen(cwd) + strlen(dir) + 2;
	char *p = malloc(n);
	if (p)
		snprintf(p, n, "%s/%s", cwd, dir);
	return p;
}

TPROF_START_CODE static int parse_clock(const char *v)
{
	if (!v || !*v || !strcmp(v, "auto"))
		return 0;
	if (!strcmp(v, "tsc"))
		return TPROF_CLOCKSRC_TSC;
	if (!strcmp(v, "monotonic"))
		return TPROF_CLOCKSRC_MONOTONIC;
	config_warn("TPROF_CLOCK=\"%s\" is not one of auto, tsc, monotonic; using auto", v);
	return 0;
}

TPROF_START_CODE int tprof_config_read(struct tprof_config *cfg, const struct tprof_env *env)
{
	int verbose = (int)parse_uint("TPROF_VERBOSE", tprof_env_get(env, "TPROF_VERBOSE"), 0, 3, 0);
	if (!parse_bool("TPROF_ENABLE", tprof_env_get(env, "TPROF_ENABLE"), 0)) {
		/* off: nothing else is read, and cfg (as it was made: all 0) is written only for
		 * TPROF_VERBOSE, so that the start costs no more; no job to say a warning once */
		if (verbose)
			cfg->verbose = verbose;
		for (int i = 0; i < nheld; i++)
			tprof_log_warn("%s", held[i]);
		nheld = 0;
		return 0;
	}
	memset(cfg, 0, sizeof(*cfg));
	cfg->verbose = verbose;
	cfg->enable = 1;
	cfg->group_readable = parse_bool("TPROF_GROUP_READABLE",
					 tprof_env_get(env, "TPROF_GROUP_READABLE"), 0);
	const char *dir = tprof_env_get(env, "TPROF_OUTPUT_DIR");
	cfg->output_dir = absolute_dir(dir && *dir ? dir : "tprof-out");
	uint64_t kb = parse_uint("TPROF_BUFFER_KB", tprof_env_get(env, "TPROF_BUFFER_KB"), 16, 65536,
				 DEFAULT_BUFFER_KB);
	if (kb % 4) {
		config_warn("TPROF_BUFFER_KB=%" PRIu64 " is not a multiple of 4; using %" PRIu64,
			       kb, (kb + 3) / 4 * 4);
		kb = (kb + 3) / 4 * 4;
	}
	cfg->buffer_units = (uint32_t)((kb * 1024 - TPROF_SLOT_HEADER_SIZE) / TPROF_UNIT);
	cfg->max_events = parse_uint("TPROF_MAX_EVENTS", tprof_env_get(env, "TPROF_MAX_EVENTS"), 0,
				     (uint64_t)INT64_MAX / 2, 0);
	uint64_t mb = parse_uint("TPROF_SPOOL_MB", tprof_env_get(env, "TPROF_SPOOL_MB"), 1, 1u << 20,
				 DEFAULT_SPOOL_MB);
	cfg->spool_max = mb << 20;
	/* Room for at least 16 buffers, or the first few threads would find none. */
	if (cfg->spool_max < 16 * kb * 1024) {
		uint64_t need = (16 * kb * 1024 + (1u << 20) - 1) >> 20;
		config_warn("TPROF_SPOOL_MB=%" PRIu64 " cannot hold 16 buffers of %" PRIu64
			       " KB; using %" PRIu64, mb, kb, need);
		cfg->spool_max = need << 20;
	}
	cfg->compress_level = (int)parse_uint("TPROF_COMPRESS_LEVEL",
					      tprof_env_get(env, "TPROF_COMPRESS_LEVEL"), 1, 9,
					      DEFAULT_COMPRESS);
	cfg->clock = parse_clock(tprof_env_get(env, "TPROF_CLOCK"));
	cfg->callstack = parse_bool("TPROF_CALLSTACK", tprof_env_get(env, "TPROF_CALLSTACK"), 0);
	cfg->mpi_sync_rounds = (uint32_t)parse_uint("TPROF_MPI_SYNC_ROUNDS",
						    tprof_env_get(env, "TPROF_MPI_SYNC_ROUNDS"), 0,
						    10000, DEFAULT_SYNC_ROUNDS);
	const char *polls = tprof_env_get(env, "TPROF_POLLS");
	if (polls && *polls && strcmp(polls, "runs") && strcmp(polls, "each"))
		config_warn("TPROF_POLLS=\"%s\" is not one of runs, each; using runs", polls);
	cfg->poll_each = polls && !strcmp(polls, "each");
	struct tprof_sample_request sr = { .what = 0, .hz = TPROF_SAMPLE_HZ_DEFAULT };
	char why[256];
	const char *sample = tprof_env_get(env, "TPROF_SAMPLE");
	if (sample && *sample &&   /* else no call: its code would be one more page to fault in */
	    tprof_sample_from_env(sample, tprof_env_get(env, "TPROF_SAMPLE_HZ"), &sr, why,
				  sizeof(why)) < 0)
		config_warn("%s; no system profile", why);
	cfg->sample_what = sr.what;
	cfg->sample_hz = sr.hz;
	cfg->sample_lazy_ms = (uint32_t)parse_uint("TPROF_TEST_SAMPLE_LAZY_MS",
						   tprof_env_get(env, "TPROF_TEST_SAMPLE_LAZY_MS"), 0,
						   60000,
						   DEFAULT_SAMPLE_LAZY_MS);
	const char *range = tprof_env_get(env, TPROF_CAPTURE_RANGE_VAR);
	if (range && *range && strcmp(range, "api") && strcmp(range, "none"))
		config_warn("%s=\"%s\" is not one of api, none; using none", TPROF_CAPTURE_RANGE_VAR,
			    range);
	cfg->capture_api = range && !strcmp(range, "api");
	const char *steps = tprof_env_get(env, TPROF_STEPS_VAR);
	cfg->steps = steps && *steps &&
		     tprof_steps_parse(steps, &cfg->steps_first, &cfg->steps_last) == 0;
	if (steps && *steps && !cfg->steps)
		config_warn("%s=\"%s\" is not A:B, A:, :B or N (step numbers); recording every step",
			    TPROF_STEPS_VAR, steps);
	const char *gate = tprof_env_get(env, TPROF_CAPTURE_GATE_VAR);
	cfg->capture_gate = gate && *gate ? strdup(gate) : NULL;
	cfg->slot_pause_us = (uint32_t)parse_uint("TPROF_TEST_SLOT_PAUSE_US",
						  tprof_env_get(env, "TPROF_TEST_SLOT_PAUSE_US"), 0,
						  999999, 0);
	cfg->clock_skew_ns = parse_int("TPROF_TEST_CLOCK_SKEW_NS",
				       tprof_env_get(env, "TPROF_TEST_CLOCK_SKEW_NS"), INT64_MIN / 4,
				       INT64_MAX / 4, 0);
	return 1;
}
