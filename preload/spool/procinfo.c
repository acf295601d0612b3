/* procinfo.c — properties of the process (interned key, value), and what the process stream
 * says about the process as its image starts: host, pid, parent, executable, arguments,
 * working directory, its rank when a launcher's environment names one, and its job.  What
 * the runtimes say of it comes through props.c. */
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../common/job.h"
#include "../core/clock.h"
#include "../core/core.h"
#include "spool.h"

/* Launchers' rank variables, most specific first. */
static const char *const rank_vars[] = {
	"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID", "RANK", NULL,
};
static const char *const size_vars[] = {
	"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS", "WORLD_SIZE", NULL,
};
static const char *const local_rank_vars[] = {
	"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID", "LOCAL_RANK", NULL,
};

/* A property of the process, the image started: key and value interned, one PROP record. */
void tprof_procinfo_str(const char *key, const char *value)
{
	uint32_t k = tprof_intern(key, strlen(key));
	uint32_t v = tprof_intern(value, strlen(value));
	tprof_proc_record(TPROF_K_PROP, 0, k, tprof_now(), 0, v);
}

void tprof_procinfo_int(const char *key, int64_t value)
{
	uint32_t k = tprof_intern(key, strlen(key));
	tprof_proc_record(TPROF_K_PROP, TPROF_PROP_INT, k, tprof_now(), 0, (uint64_t)value);
}

static int env_int(const char *const *vars, const char **which)
{
	for (int i = 0; vars[i]; i++) {
		const char *v = getenv(vars[i]);
		if (!v || !*v)
			continue;
		char *end;
		long x = strtol(v, &end, 10);
		if (*end || x < 0 || x > INT_MAX)
			continue;
		if (which)
			*which = vars[i];
		return (int)x;
	}
	return -1;
}

static void record_args(void)
{
	int fd = tprof_fd_open("/proc/self/cmdline", O_RDONLY, 0);
	if (fd < 0)
		return;
	size_t cap = 4096, len = 0;
	char *buf = malloc(cap + 1);
	ssize_t n;
	while (buf && (n = read(fd, buf + len, cap - len)) > 0) {
		len += (size_t)n;
		if (len == cap) {
			char *nb = realloc(buf, cap * 2 + 1);
			if (!nb)
				break;
			buf = nb;
			cap *= 2;
		}
	}
	tprof_fd_close(fd);
	if (!buf)
		return;
	buf[len] = 0;
	int argc = 0;
	for (size_t i = 0; i < len; i += strlen(buf + i) + 1, argc++)
		tprof_procinfo_str("arg", buf + i);
	tprof_procinfo_int("argc", argc);
	free(buf);
}

void tprof_procinfo_record(void)
{
	char buf[PATH_MAX];
	if (gethostname(buf, sizeof(buf)) == 0) {
		buf[sizeof(buf) - 1] = 0;
		tprof_procinfo_str("host", buf);
	}
	tprof_procinfo_int("pid", tprof_g.pid);
	tprof_procinfo_int("ppid", getppid());
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	if (n > 0) {
		buf[n] = 0;
		tprof_procinfo_str("exe", buf);
	}
	if (getcwd(buf, sizeof(buf)))
		tprof_procinfo_str("cwd", buf);
	record_args();
	const char *which = NULL;
	int rank = env_int(rank_vars, &which);
	if (rank >= 0) {
		tprof_procinfo_int("rank", rank);
		tprof_procinfo_str("rank_from", which);
	}
	int size = env_int(size_vars, NULL);
	if (size > 0)
		tprof_procinfo_int("world_size", size);
	int local = env_int(local_rank_vars, NULL);
	if (local >= 0)
		tprof_procinfo_int("local_rank", local);
	char job[TPROF_JOB_HEX + 1];
	tprof_job_format(tprof_job_current(), job);
	tprof_procinfo_str("job", job);
	tprof_procinfo_str("job_from", tprof_job_source());
}
