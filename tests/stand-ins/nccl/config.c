/* config.c — the bottom of the stand-in NCCL: configuration from STANDIN_NCCL_*, the clock
 * and the timing model, the last-error text and the error strings, warnings, the trace file
 * (one line per operation as the stream ran it) and ncclGetVersion. */
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SPIN_NS 50000u

struct sn_config sn_cfg;
atomic_int sn_exiting;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_mutex_t err_mu = PTHREAD_MUTEX_INITIALIZER;
static char last_error[1024];
static pthread_mutex_t trace_mu = PTHREAD_MUTEX_INITIALIZER;
static int trace_fd = -1;
static int trace_failed;

static double env_double(const char *name, double dflt, double min)
{
	const char *v = getenv(name);
	char *end;
	double d;
	if (!v || !*v)
		return dflt;
	errno = 0;
	d = strtod(v, &end);
	if (errno || *end || d < min) {
		sn_warn("ignoring %s=%s (not a number >= %g)", name, v, min);
		return dflt;
	}
	return d;
}

/* Fork: this file's locks are held across it, so a child never inherits one taken by a
 * thread it does not have; the child writes its own trace file (%p is its pid). */
static void fork_prepare(void)
{
	pthread_mutex_lock(&err_mu);
	pthread_mutex_lock(&trace_mu);
}

static void fork_parent(void)
{
	pthread_mutex_unlock(&trace_mu);
	pthread_mutex_unlock(&err_mu);
}

static void fork_child(void)
{
	if (trace_fd >= 0)
		close(trace_fd);
	trace_fd = -1;
	trace_failed = 0;
	fork_parent();
}

static void read_config(void)
{
	const char *t;
	sn_cfg.gbps = env_double("STANDIN_NCCL_GBPS", 10.0, 1e-6);
	sn_cfg.latency_ns = (uint64_t)(env_double("STANDIN_NCCL_LATENCY_US", 20.0, 0) * 1e3);
	sn_cfg.timeout_ns = (uint64_t)(env_double("STANDIN_NCCL_TIMEOUT_S", 60.0, 0.001) * 1e9);
	sn_cfg.chunk_bytes = (size_t)env_double("STANDIN_NCCL_CHUNK_BYTES", 1 << 20, 256);
	t = getenv("STANDIN_NCCL_MISMATCH");
	if (t && *t && strcmp(t, "error") && strcmp(t, "wait"))
		sn_warn("ignoring STANDIN_NCCL_MISMATCH=%s (not error or wait)", t);
	sn_cfg.mismatch_wait = t && !strcmp(t, "wait");
	t = getenv("STANDIN_NCCL_TRACE_FILE");
	sn_cfg.trace_path = t && *t ? t : NULL;
	pthread_atfork(fork_prepare, fork_parent, fork_child);
}

void sn_init(void)
{
	pthread_once(&once, read_config);
}

/* At exit queued operations still exchange their data but no longer wait out their modelled
 * durations (as the stand-in HIP runtime does with its queued work). */
__attribute__((destructor)) static void sn_teardown(void)
{
	atomic_store(&sn_exiting, 1);
}

uint64_t sn_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void sn_sleep_until(uint64_t t)
{
	for (;;) {
		uint64_t now = sn_now_ns();
		if (now >= t || atomic_load(&sn_exiting))
			return;
		if (t - now > SPIN_NS) {
			uint64_t wake = t - SPIN_NS;
			struct timespec ts = {(time_t)(wake / 1000000000u), (long)(wake % 1000000000u)};
			clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		}
	}
}

uint64_t sn_model_ns(uint64_t bytes)
{
	/* 1 GB/s is one byte per nanosecond */
	return sn_cfg.latency_ns + (uint64_t)((double)bytes / sn_cfg.gbps);
}

uint64_t sn_hash(const void *p, size_t n)
{
	const unsigned char *b = p;
	uint64_t h = 0xcbf29ce484222325ull;
	size_t i;
	for (i = 0; i < n; i++) {
		h ^= b[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

/* ------------------------------------------------------------------ errors */
ncclResult_t sn_fail(ncclResult_t r, const char *fmt, ...)
{
	va_list ap;
	pthread_mutex_lock(&err_mu);
	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
	pthread_mutex_unlock(&err_mu);
	return r;
}

void sn_warn(const char *fmt, ...)
{
	char line[1200];
	int n;
	va_list ap;
	n = snprintf(line, sizeof(line), "standin-nccl[%d]: ", (int)getpid());
	va_start(ap, fmt);
	n += vsnprintf(line + n, sizeof(line) - (size_t)n - 1, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(line) - 2)
		n = (int)sizeof(line) - 2;
	line[n++] = '\n';
	if (write(2, line, (size_t)n) < 0) {
		/* nowhere left to say it */
	}
}

const char *sn_error_string(ncclResult_t result)
{
	switch (result) {
	case ncclSuccess: return "no error";
#ifdef STANDIN_RCCL
	case ncclUnhandledCudaError: return "unhandled hip error (run with NCCL_DEBUG=INFO for details)";
#else
	case ncclUnhandledCudaError: return "unhandled cuda error (run with NCCL_DEBUG=INFO for details)";
#endif
	case ncclSystemError: return "unhandled system error (run with NCCL_DEBUG=INFO for details)";
	case ncclInternalError: return "internal error - please report this issue to the NCCL developers";
	case ncclInvalidArgument: return "invalid argument (run with NCCL_DEBUG=WARN for details)";
	case ncclInvalidUsage: return "invalid usage (run with NCCL_DEBUG=WARN for details)";
	case ncclRemoteError: return "remote process exited or there was a network error";
	case ncclInProgress: return "NCCL operation in progress";
	default: return "unknown result code";
	}
}

SN_API(const char *, ncclGetErrorString, ncclResult_t result)
{
	return sn_error_string(result);
}

/* As in NCCL, the last error of the process, whatever the communicator. */
SN_API(const char *, ncclGetLastError, ncclComm_t comm)
{
	static _Thread_local char copy[sizeof(last_error)];
	pthread_mutex_lock(&err_mu);
	memcpy(copy, last_error, sizeof(copy));
	pthread_mutex_unlock(&err_mu);
	return copy;
}

SN_API(ncclResult_t, ncclGetVersion, int *version)
{
	if (!version)
		return sn_fail(ncclInvalidArgument, "ncclGetVersion: version argument is NULL");
	*version = SN_VERSION;
	return ncclSuccess;
}

/* ------------------------------------------------------------------ trace */
static int trace_open(void)
{
	char path[4096];
	size_t n = 0;
	const char *p;
	for (p = sn_cfg.trace_path; *p && n < sizeof(path) - 24; p++) {
		if (p[0] == '%' && p[1] == 'p') {
			n += (size_t)snprintf(path + n, sizeof(path) - n, "%d", (int)getpid());
			p++;
		} else {
			path[n++] = *p;
		}
	}
	path[n] = '\0';
	trace_fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (trace_fd < 0) {
		sn_warn("cannot open STANDIN_NCCL_TRACE_FILE %s: %s", path, strerror(errno));
		trace_failed = 1;
	}
	return trace_fd;
}

void sn_trace_line(const char *line, size_t len)
{
	if (!sn_cfg.trace_path)
		return;
	pthread_mutex_lock(&trace_mu);
	if (trace_fd >= 0 || (!trace_failed && trace_open() >= 0)) {
		/* one write per line: lines of several processes sharing a file stay whole */
		if (write(trace_fd, line, len) != (ssize_t)len)
			sn_warn("short write to STANDIN_NCCL_TRACE_FILE");
	}
	pthread_mutex_unlock(&trace_mu);
}
