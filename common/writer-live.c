/* writer-live.c — tells from a spool's name (host and pid) and creation time whether its
 * writer still runs on this host: the pid exists, is no zombie, and (when the creation time
 * is known) the process holding it started before the spool was made, so it is not a later
 * process that was given the same pid. */
#include "writer-live.h"
#include "real-libc.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

/* This host's name as the recorder writes it into file names ('/' made '_'). */
static void host_name(char *buf, size_t len)
{
	snprintf(buf, len, "host");
	gethostname(buf, len - 1);
	buf[len - 1] = '\0';
	for (char *c = buf; *c; c++)
		if (*c == '/')
			*c = '_';
}

/* Host and pid from "<host>.<pid>.<id>.spool"; 0 when the name is not of that form. */
static int parse_name(const char *name, const char **host, size_t *host_len, long *pid)
{
	const char *base = strrchr(name, '/');
	base = base ? base + 1 : name;
	const char *end = strrchr(base, '.');                            /* .spool */
	const char *id = end ? memrchr(base, '.', (size_t)(end - base)) : NULL;
	const char *dot = id ? memrchr(base, '.', (size_t)(id - base)) : NULL;
	if (!dot || dot == base)
		return 0;
	char *stop;
	errno = 0;
	*pid = strtol(dot + 1, &stop, 10);
	if (stop != id || *pid <= 0 || *pid > INT_MAX || errno)
		return 0;   /* (a pid_t holds no more: cut, it could name every process) */
	*host = base;
	*host_len = (size_t)(dot - base);
	return 1;
}

/* From /proc/PID/stat: the process's state letter (0 when it cannot be read) and when it
 * started, on CLOCK_REALTIME (ns; 0 when unknown). */
static char proc_stat(long pid, uint64_t *started)
{
	char path[64], buf[1024];
	*started = 0;
	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	tprof_real_close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	/* the command name may hold anything: fields are counted from its closing ')' */
	char *p = strrchr(buf, ')');
	if (!p || p[1] != ' ' || !p[2])
		return 0;
	char state = p[2];
	for (int field = 2; p && field < 22; field++)
		p = strchr(p + 1, ' ');
	long hz = sysconf(_SC_CLK_TCK);
	struct timespec real, boot;
	if (!p || hz <= 0 || clock_gettime(CLOCK_REALTIME, &real) ||
	    clock_gettime(CLOCK_BOOTTIME, &boot))
		return state;
	unsigned long long ticks = strtoull(p + 1, NULL, 10);
	uint64_t since_boot = ticks / (unsigned long long)hz * 1000000000ull +
			      ticks % (unsigned long long)hz * (1000000000ull / (unsigned long long)hz);
	uint64_t boot_ns = (uint64_t)boot.tv_sec * 1000000000ull + (uint64_t)boot.tv_nsec;
	uint64_t real_ns = (uint64_t)real.tv_sec * 1000000000ull + (uint64_t)real.tv_nsec;
	if (since_boot <= boot_ns && boot_ns - since_boot <= real_ns)
		*started = real_ns - (boot_ns - since_boot);
	return state;
}

enum tprof_writer_state tprof_process_state(const char *host, size_t host_len, long pid,
					     uint64_t created_ns, pid_t *out)
{
	char me[256];
	if (pid <= 0 || pid > INT_MAX)
		return TPROF_WRITER_UNKNOWN;
	host_name(me, sizeof(me));
	if (strlen(me) != host_len || strncmp(me, host, host_len))
		return TPROF_WRITER_UNKNOWN;
	if (kill((pid_t)pid, 0) != 0 && errno != EPERM)
		return TPROF_WRITER_GONE;
	/* A zombie has ended (its parent has not asked yet; an orphan waits for init).  Started
	 * later than the spool was made (two clock ticks of slack for the start time's
	 * resolution): the pid was reused. */
	uint64_t started;
	char state = proc_stat(pid, &started);
	if (state == 'Z' || state == 'X')
		return TPROF_WRITER_GONE;
	long hz = sysconf(_SC_CLK_TCK);
	uint64_t slack = 2 * 1000000000ull / (uint64_t)(hz > 0 ? hz : 100);
	if (created_ns && started && started > created_ns + slack)
		return TPROF_WRITER_GONE;
	if (out)
		*out = (pid_t)pid;
	return TPROF_WRITER_LIVE;
}

enum tprof_writer_state tprof_spool_writer(const char *name, uint64_t created_ns, pid_t *out)
{
	const char *host;
	size_t host_len;
	long pid;
	if (!parse_name(name, &host, &host_len, &pid))
		return TPROF_WRITER_UNKNOWN;
	return tprof_process_state(host, host_len, pid, created_ns, out);
}
