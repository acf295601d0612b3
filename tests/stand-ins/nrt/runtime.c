/* runtime.c — the stand-in runtime itself: configuration (STANDIN_NRT_*), the clock, the
 * trace file, nrt_init/nrt_close and the NeuronCores a process sees (NEURON_RT_VISIBLE_CORES),
 * versions, instance information, memory statistics and status names. */
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct sn_config sn_cfg;
struct sn_state sn;
pthread_mutex_t sn_lock = PTHREAD_MUTEX_INITIALIZER;

static pthread_once_t config_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t trace_lock = PTHREAD_MUTEX_INITIALIZER;
static int trace_fd = -1;
static pid_t trace_pid;

/* ---- configuration ---------------------------------------------------------------------- */

static double env_number(const char *name, double dflt, double max)
{
	const char *v = getenv(name);
	char *end;
	if (!v || !*v)
		return dflt;
	errno = 0;
	double d = strtod(v, &end);
	if (errno || *end || d < 0 || d > max) {
		fprintf(stderr, "standin-nrt: ignoring %s=%s (not a number from 0 to %g)\n", name, v, max);
		return dflt;
	}
	return d;
}

/* "20000" (every model), or "name:us,...,default:us" (the first key that is a substring of
 * the model's name). */
static void parse_exec(const char *spec)
{
	size_t n = 0;
	char *copy, *save = NULL, *tok;
	sn_cfg.exec_default_ns = -1;
	sn_cfg.exec_rules = calloc(SN_MAX_IO + 1, sizeof(*sn_cfg.exec_rules));
	if (!spec || !*spec || !sn_cfg.exec_rules || !(copy = strdup(spec)))
		return;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *colon = strrchr(tok, ':'), *end;
		const char *num = colon ? colon + 1 : tok;
		double us = strtod(num, &end);
		if (*end || end == num || us < 0 || (colon && colon == tok)) {
			fprintf(stderr, "standin-nrt: STANDIN_NRT_EXEC_US: ignoring '%s'\n", tok);
			continue;
		}
		if (colon)
			*colon = '\0';
		if (!colon || !strcmp(tok, "default")) {
			sn_cfg.exec_default_ns = (int64_t)(us * 1e3 + 0.5);
		} else if (n < SN_MAX_IO && (sn_cfg.exec_rules[n].key = strdup(tok))) {
			sn_cfg.exec_rules[n].ns = (int64_t)(us * 1e3 + 0.5);
			n++;
		}
	}
	free(copy);
}

/* "family,size,arch,revision", any suffix left out. */
static void parse_instance(const char *spec)
{
	nrt_instance_info_t *in = &sn_cfg.instance;
	char buf[128];
	in->family = NRT_INSTANCE_TRN1;
	in->size = 0;
	snprintf(in->arch_name, sizeof(in->arch_name), "NCv2");
	snprintf(in->device_revision, sizeof(in->device_revision), "1.0");
	if (!spec || !*spec)
		return;
	snprintf(buf, sizeof(buf), "%s", spec);
	char *save = NULL, *f = strtok_r(buf, ",", &save);
	for (int i = 0; f; i++, f = strtok_r(NULL, ",", &save)) {
		if (i == 0)
			in->family = (uint32_t)strtoul(f, NULL, 10);
		else if (i == 1)
			in->size = (uint32_t)strtoul(f, NULL, 10);
		else if (i == 2)
			snprintf(in->arch_name, sizeof(in->arch_name), "%s", f);
		else if (i == 3)
			snprintf(in->device_revision, sizeof(in->device_revision), "%s", f);
	}
}

/* "%p" in the trace path is the pid. */
static char *expand_path(const char *v)
{
	size_t cap = strlen(v) + 64, o = 0;
	char *p = malloc(cap);
	if (!p)
		return NULL;
	for (const char *s = v; *s && o + 24 < cap; s++) {
		if (s[0] == '%' && s[1] == 'p') {
			o += (size_t)snprintf(p + o, cap - o, "%d", (int)getpid());
			s++;
		} else {
			p[o++] = *s;
		}
	}
	p[o] = '\0';
	return p;
}

static void read_config(void)
{
	sn_cfg.cores = (int)env_number("STANDIN_NRT_CORES", 4, SN_MAX_CORES);
	if (sn_cfg.cores < 1)
		sn_cfg.cores = 1;
	parse_exec(getenv("STANDIN_NRT_EXEC_US"));
	sn_cfg.hbm_bytes = (uint64_t)(env_number("STANDIN_NRT_HBM_MB", 16384, 1 << 30) * 1048576.0);
	parse_instance(getenv("STANDIN_NRT_INSTANCE"));
	sn_cfg.verbose = (int)env_number("STANDIN_NRT_VERBOSE", 0, 9);
	const char *v = getenv("STANDIN_NRT_TRACE_FILE");
	if (v && *v)
		sn_cfg.trace_path = strdup(v);
}

void sn_config_once(void)
{
	pthread_once(&config_once, read_config);
}

int64_t sn_exec_ns(const char *name, int64_t neff_ns)
{
	for (const struct sn_rule *r = sn_cfg.exec_rules; r && r->key; r++)
		if (strstr(name, r->key))
			return r->ns;
	return sn_cfg.exec_default_ns >= 0 ? sn_cfg.exec_default_ns : neff_ns;
}

/* ---- clock, messages, trace ------------------------------------------------------------- */

uint64_t sn_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void sn_wait_until(uint64_t deadline)
{
	const uint64_t spin = 50000;
	uint64_t now = sn_now_ns();
	if (now + spin < deadline) {
		struct timespec ts = { (time_t)((deadline - spin) / 1000000000u),
				       (long)((deadline - spin) % 1000000000u) };
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
	}
	while (sn_now_ns() < deadline)
		;
}

NRT_STATUS sn_fail(NRT_STATUS status, const char *fmt, ...)
{
	if (!sn_cfg.verbose)
		return status;
	char line[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	fprintf(stderr, "standin-nrt[%d]: %s: %s\n", (int)getpid(), line,
		nrt_get_status_as_str(status));
	return status;
}

const char *sn_json_str(const char *s, char *buf, size_t len)
{
	size_t o = 0;
	if (len < 8)
		return "\"\"";
	buf[o++] = '"';
	for (; *s && o + 8 < len; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			o += (size_t)snprintf(buf + o, len - o, "\\%c", c);
		else if (c < 0x20)
			o += (size_t)snprintf(buf + o, len - o, "\\u%04x", c);
		else
			buf[o++] = (char)c;
	}
	buf[o++] = '"';
	buf[o] = '\0';
	return buf;
}

void sn_trace(const char *fmt, ...)
{
	char line[1024];
	if (!sn_cfg.trace_path)
		return;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n > sizeof(line) - 2)
		n = (int)sizeof(line) - 2;
	line[n++] = '\n';
	pthread_mutex_lock(&trace_lock);
	/* A forked child writes to a file of its own (%p) when the path says so. */
	if (trace_fd < 0 || trace_pid != getpid()) {
		if (trace_fd >= 0)
			close(trace_fd);
		char *path = expand_path(sn_cfg.trace_path);
		trace_fd = path ? open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644) : -1;
		if (trace_fd < 0)
			fprintf(stderr, "standin-nrt: cannot open the trace file %s: %s\n",
				path ? path : sn_cfg.trace_path, strerror(errno));
		trace_pid = getpid();
		free(path);
	}
	if (trace_fd >= 0 && write(trace_fd, line, (size_t)n) != n)
		fprintf(stderr, "standin-nrt: cannot write the trace file: %s\n", strerror(errno));
	pthread_mutex_unlock(&trace_lock);
}

/* ---- NeuronCores ------------------------------------------------------------------------ */

/* "3,4", "0-3", "1,4-5"; every core must exist. */
int sn_visible_cores(int visible[SN_MAX_CORES])
{
	const char *v = getenv("NEURON_RT_VISIBLE_CORES");
	int n = 0;
	if (!v || !*v) {
		for (n = 0; n < sn_cfg.cores; n++)
			visible[n] = n;
		return n;
	}
	while (*v) {
		char *end;
		long a = strtol(v, &end, 10), b;
		if (end == v)
			return -1;
		b = a;
		if (*end == '-') {
			const char *s = end + 1;
			b = strtol(s, &end, 10);
			if (end == s)
				return -1;
		}
		if (a < 0 || b < a || b >= sn_cfg.cores)
			return -1;
		for (long c = a; c <= b; c++) {
			if (n >= SN_MAX_CORES)
				return -1;
			for (int i = 0; i < n; i++)
				if (visible[i] == c)
					return -1;
			visible[n++] = (int)c;
		}
		if (*end == ',')
			end++;
		else if (*end)
			return -1;
		v = end;
	}
	return n;
}

NRT_STATUS sn_ready(void)
{
	if (sn.initialized)
		return NRT_SUCCESS;
	return sn.closed ? NRT_CLOSED : NRT_UNINITIALIZED;
}

SN_EXPORT NRT_STATUS nrt_init(nrt_framework_type_t framework, const char *fw_version,
			      const char *fal_version)
{
	(void)fw_version;
	(void)fal_version;
	sn_config_once();
	if (framework <= NRT_FRAMEWORK_TYPE_INVALID || framework > NRT_FRAMEWORK_TYPE_PRECHECK)
		return sn_fail(NRT_INVALID, "nrt_init: framework type %d", (int)framework);
	pthread_mutex_lock(&sn_lock);
	NRT_STATUS rc = NRT_SUCCESS;
	int visible[SN_MAX_CORES];
	int n = sn_visible_cores(visible);
	if (sn.initialized)
		rc = sn_fail(NRT_INVALID, "nrt_init: already initialised");
	else if (n <= 0)
		rc = sn_fail(NRT_RESOURCE, "nrt_init: NEURON_RT_VISIBLE_CORES=%s names no usable "
			     "NeuronCore of the %d", getenv("NEURON_RT_VISIBLE_CORES"), sn_cfg.cores);
	if (rc == NRT_SUCCESS) {
		memset(&sn, 0, sizeof(sn));
		sn.nvisible = n;
		memcpy(sn.visible, visible, sizeof(visible));
		sn.initialized = 1;
	}
	pthread_mutex_unlock(&sn_lock);
	return rc;
}

SN_EXPORT void nrt_close(void)
{
	sn_config_once();
	pthread_mutex_lock(&sn_lock);
	if (sn.initialized) {
		sn_models_close();
		sn.initialized = 0;
		sn.closed = 1;
	}
	pthread_mutex_unlock(&sn_lock);
}

static NRT_STATUS count_out(uint32_t *out, int visible_only)
{
	int v[SN_MAX_CORES];
	sn_config_once();
	if (!out)
		return NRT_INVALID;
	if (!visible_only) {
		*out = (uint32_t)sn_cfg.cores;
		return NRT_SUCCESS;
	}
	pthread_mutex_lock(&sn_lock);
	int n = sn.initialized ? sn.nvisible : sn_visible_cores(v);
	pthread_mutex_unlock(&sn_lock);
	if (n < 0)
		return NRT_INVALID;
	*out = (uint32_t)n;
	return NRT_SUCCESS;
}

SN_EXPORT NRT_STATUS nrt_get_total_nc_count(uint32_t *vnc_count)
{
	return count_out(vnc_count, 0);
}

SN_EXPORT NRT_STATUS nrt_get_total_vnc_count(uint32_t *vnc_count)
{
	return count_out(vnc_count, 0);
}

SN_EXPORT NRT_STATUS nrt_get_visible_nc_count(uint32_t *vnc_count)
{
	return count_out(vnc_count, 1);
}

SN_EXPORT NRT_STATUS nrt_get_visible_vnc_count(uint32_t *vnc_count)
{
	return count_out(vnc_count, 1);
}

SN_EXPORT NRT_STATUS nrt_get_version(nrt_version_t *ver, size_t size)
{
	if (!ver || size < sizeof(*ver))
		return NRT_INVALID;
	memset(ver, 0, sizeof(*ver));
	ver->rt_major = 2;
	ver->rt_minor = 28;
	ver->rt_patch = 0;
	ver->rt_maintenance = 0;
	snprintf(ver->rt_detail, sizeof(ver->rt_detail), "tprof stand-in");
	snprintf(ver->git_hash, sizeof(ver->git_hash), "0000000");
	return NRT_SUCCESS;
}

SN_EXPORT NRT_STATUS nrt_get_instance_info(nrt_instance_info_t *info, size_t instance_info_len)
{
	sn_config_once();
	if (!info || instance_info_len < sizeof(*info))
		return NRT_INVALID;
	*info = sn_cfg.instance;
	return NRT_SUCCESS;
}

SN_EXPORT NRT_STATUS nrt_get_vnc_memory_stats(uint32_t vnc, nrt_vnc_memory_stats_t *stats,
					      size_t stats_size_in, size_t *stats_size_out)
{
	nrt_vnc_memory_stats_t s;
	if (!stats)
		return NRT_INVALID;
	pthread_mutex_lock(&sn_lock);
	NRT_STATUS rc = sn_ready();
	if (rc == NRT_SUCCESS && vnc >= (uint32_t)sn.nvisible)
		rc = sn_fail(NRT_INVALID, "nrt_get_vnc_memory_stats: no NeuronCore %u", vnc);
	if (rc == NRT_SUCCESS) {
		s.bytes_used = sn.hbm_used[vnc];
		s.bytes_limit = sn_cfg.hbm_bytes;
		memcpy(stats, &s, stats_size_in < sizeof(s) ? stats_size_in : sizeof(s));
		if (stats_size_out)
			*stats_size_out = sizeof(s);
	}
	pthread_mutex_unlock(&sn_lock);
	return rc;
}

SN_EXPORT const char *nrt_get_status_as_str(NRT_STATUS status)
{
	switch (status) {
#define NAME(s) case s: return #s;
	NAME(NRT_SUCCESS) NAME(NRT_FAILURE) NAME(NRT_INVALID) NAME(NRT_INVALID_HANDLE)
	NAME(NRT_RESOURCE) NAME(NRT_TIMEOUT) NAME(NRT_HW_ERROR) NAME(NRT_QUEUE_FULL)
	NAME(NRT_LOAD_NOT_ENOUGH_NC) NAME(NRT_UNSUPPORTED_NEFF_VERSION)
	NAME(NRT_FAIL_HOST_MEM_ALLOC) NAME(NRT_UNINITIALIZED) NAME(NRT_CLOSED)
	NAME(NRT_QUEUE_EMPTY) NAME(NRT_EXEC_UNIT_UNRECOVERABLE) NAME(NRT_EXEC_BAD_INPUT)
	NAME(NRT_EXEC_COMPLETED_WITH_NUM_ERR) NAME(NRT_EXEC_COMPLETED_WITH_ERR)
	NAME(NRT_EXEC_NC_BUSY) NAME(NRT_EXEC_OOB) NAME(NRT_COLL_PENDING)
	NAME(NRT_EXEC_HW_ERR_COLLECTIVES) NAME(NRT_EXEC_HW_ERR_HBM_UE)
	NAME(NRT_EXEC_HW_ERR_NC_UE) NAME(NRT_EXEC_HW_ERR_DMA_ABORT)
	NAME(NRT_EXEC_SW_NQ_OVERFLOW) NAME(NRT_EXEC_HW_ERR_REPAIRABLE_HBM_UE)
	NAME(NRT_NETWORK_PROXY_FAILURE)
#undef NAME
	}
	return "NRT_UNKNOWN_STATUS";
}

/* ---- fork: the stand-in's own locks are taken around it, so the child finds them free
 * and the state consistent (an execution in flight finishes first). ------------------------ */

static void fork_prepare(void)
{
	sn_exec_fork_prepare();
	pthread_mutex_lock(&sn_lock);
	pthread_mutex_lock(&trace_lock);
}

static void fork_parent(void)
{
	pthread_mutex_unlock(&trace_lock);
	pthread_mutex_unlock(&sn_lock);
	sn_exec_fork_parent();
}

static void fork_child(void)
{
	pthread_mutex_init(&trace_lock, NULL);
	pthread_mutex_init(&sn_lock, NULL);
	sn_exec_fork_child();
}

__attribute__((constructor)) static void standin_nrt_load(void)
{
	pthread_atfork(fork_prepare, fork_parent, fork_child);
}
