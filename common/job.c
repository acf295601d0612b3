/* job.c — a job's identity (job.h): written as 16 hex digits, taken from TPROF_JOB or from the
 * launcher's own job identity, or made at random; carried by the headers this process writes
 * (chunk.c reads it back from a file's header).  The /proc files read for a launcher's identity are opened
 * through ownfd.h: in a recorded program they are the recorder's, not numbers of the
 * program's. */
#include "job.h"
#include "startup.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "format.h"
#include "hash.h"
#include "ownfd.h"

static uint64_t current TPROF_START_DATA;

TPROF_START_CODE void tprof_job_set(uint64_t id)
{
	current = id;
}

uint64_t tprof_job_current(void)
{
	return current;
}

TPROF_START_CODE void tprof_job_format(uint64_t id, char out[TPROF_JOB_HEX + 1])
{
	/* by hand: printf's code is pages more that a process start would fault in */
	for (int i = TPROF_JOB_HEX - 1; i >= 0; i--, id >>= 4)
		out[i] = "0123456789abcdef"[id & 15];
	out[TPROF_JOB_HEX] = 0;
}

TPROF_START_CODE uint64_t tprof_job_parse(const char *s)
{
	if (!s || !*s)
		return 0;
	/* Up to 16 hex digits, by hand: strspn and strtoull are pages of libc more that every
	 * process start of the job would fault in. */
	uint64_t id = 0;
	size_t n = 0;
	for (;; n++) {
		unsigned c = (unsigned char)s[n], d;
		if (c - '0' < 10)
			d = c - '0';
		else if ((c | 0x20) - 'a' < 6)
			d = (c | 0x20) - 'a' + 10;
		else
			break;
		id = id << 4 | d;
	}
	if (!s[n] && n <= TPROF_JOB_HEX && id)
		return id;
	uint64_t h = tprof_hash_bytes(s, strlen(s));
	return h ? h : 1;
}

uint64_t tprof_job_random(void)
{
	uint64_t x = 0;
	if (getrandom(&x, sizeof(x), GRND_NONBLOCK) != sizeof(x)) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		x = ((uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec) ^
		    ((uint64_t)getpid() << 40);
		x *= 0x9e3779b97f4a7c15ull;
	}
	return x ? x : 1;
}

TPROF_START_CODE static int set(const char *var)
{
	const char *v = getenv(var);
	return v && *v;
}

/* Hashes "NAME=value\n" of each variable of vars that is set; 0 when none of the first
 * `needed` is. */
TPROF_START_CODE static uint64_t hash_vars(const char *const *vars, int needed)
{
	uint64_t h = TPROF_HASH_SEED;
	int have = 0;
	for (int i = 0; vars[i]; i++) {
		const char *v = getenv(vars[i]);
		if (!v || !*v)
			continue;
		have |= i < needed;
		h = tprof_hash_more(h, vars[i], strlen(vars[i]));
		h = tprof_hash_more(h, "=", 1);
		h = tprof_hash_more(h, v, strlen(v));
		h = tprof_hash_more(h, "\n", 1);
	}
	return have ? (h ? h : 1) : 0;
}

/* Open MPI (orterun, prterun) and any PMIx launcher: the namespace names the job; Open MPI
 * 4's ranks also share the launcher's URI and a random key it made for the job, which keep
 * two launches apart when a namespace number comes back. */
TPROF_START_CODE static uint64_t pmix_job(const char **from)
{
	static const char *const vars[] = { "PMIX_NAMESPACE", "OMPI_MCA_ess_base_jobid",
					    "OMPI_MCA_orte_hnp_uri",
					    "OMPI_MCA_orte_precondition_transports", NULL };
	if (!set("PMIX_RANK") && !set("OMPI_COMM_WORLD_RANK"))
		return 0;
	*from = set("OMPI_COMM_WORLD_RANK") ? "openmpi" : "pmix";
	return hash_vars(vars, 2);
}

/* Slurm: the job and step of a task srun started.  Not the batch script's or the
 * allocation's own shell (no task id, or a step id beyond the numbered steps), where every
 * run would be the same job. */
TPROF_START_CODE static uint64_t slurm_job(const char **from)
{
	static const char *const vars[] = { "SLURM_JOB_ID", "SLURM_STEP_ID", "SLURM_CLUSTER_NAME",
					    NULL };
	const char *step = getenv("SLURM_STEP_ID");
	char *end;
	if (!set("SLURM_PROCID") || !set("SLURM_JOB_ID") || !step || !*step)
		return 0;
	unsigned long long n = strtoull(step, &end, 10);
	if (*end || n >= 0xfffffff0ull)
		return 0;
	*from = "slurm";
	return hash_vars(vars, 1);
}

/* The parent of pid, from /proc/PID/stat ("pid (comm) state ppid ..."), or -1. */
static long parent_of(long pid)
{
	char path[64], buf[512];
	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	int fd = tprof_fd_open(path, O_RDONLY, 0);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	tprof_fd_close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	char *p = strrchr(buf, ')');
	long ppid;
	return p && sscanf(p + 1, " %*c %ld", &ppid) == 1 ? ppid : -1;
}

/* The value after `opt` in a NUL-separated command line, or NULL. */
static const char *option_value(const char *args, size_t len, const char *opt)
{
	for (size_t i = 0; i < len; i += strlen(args + i) + 1)
		if (!strcmp(args + i, opt) && i + strlen(opt) + 1 < len)
			return args + i + strlen(opt) + 1;
	return NULL;
}

/* MPICH's Hydra puts no job identity in its ranks' environment; each host's proxy, a parent
 * of the ranks there, is given mpiexec's control port (host:port) and the process group on
 * its command line, alike on every host. */
static uint64_t hydra_job(const char **from)
{
	char path[64], args[4096];
	if (!set("PMI_RANK") || (!set("PMI_FD") && !set("PMI_PORT")))
		return 0;
	long pid = getppid();
	for (int depth = 0; pid > 1 && depth < 8; depth++, pid = parent_of(pid)) {
		snprintf(path, sizeof(path), "/proc/%ld/cmdline", pid);
		int fd = tprof_fd_open(path, O_RDONLY, 0);
		if (fd < 0)
			return 0;
		ssize_t n = read(fd, args, sizeof(args) - 1);
		tprof_fd_close(fd);
		if (n <= 0)
			continue;
		args[n] = '\0';
		const char *base = strrchr(args, '/');
		if (strcmp(base ? base + 1 : args, "hydra_pmi_proxy"))
			continue;
		const char *port = option_value(args, (size_t)n, "--control-port");
		const char *pgid = option_value(args, (size_t)n, "--pgid");
		if (!port)
			return 0;
		uint64_t h = tprof_hash_more(TPROF_HASH_SEED, "hydra ", 6);
		h = tprof_hash_more(h, port, strlen(port));
		h = tprof_hash_more(h, " ", 1);
		h = tprof_hash_more(h, pgid ? pgid : "", pgid ? strlen(pgid) : 0);
		*from = "hydra";
		return h ? h : 1;
	}
	return 0;
}

uint64_t tprof_job_launcher(const char **from)
{
	*from = NULL;
	uint64_t id = pmix_job(from);
	if (!id)
		id = slurm_job(from);
	if (!id)
		id = hydra_job(from);
	return id;
}

TPROF_START_CODE uint64_t tprof_job_from_env(int accept_made, const char **from)
{
	return tprof_job_from(getenv(TPROF_JOB_VAR), getenv(TPROF_JOB_FROM_VAR), accept_made, from);
}

TPROF_START_CODE uint64_t tprof_job_from(const char *given, const char *by, int accept_made,
					 const char **from)
{
	uint64_t id = tprof_job_parse(given);
	int made = by && !strcmp(by, TPROF_JOB_FROM_PROCESS);
	if (id && !made) {
		*from = by && *by ? by : TPROF_JOB_VAR;
		return id;
	}
	uint64_t l = tprof_job_launcher(from);
	if (l)
		return l;
	if (id && accept_made) {
		*from = TPROF_JOB_FROM_PROCESS;
		return id;
	}
	return 0;
}
