/* procstat.c — parsers for /proc/stat, /proc/meminfo, /proc/PID/statm and the stat line of a
 * process or thread, and the one small-file reader the sampler uses for all of them. */
#include "procstat.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/ownfd.h"
#include "../common/system-records.h"

/* The next unsigned number at *p (after blanks); -1 when there is none. */
static int next_u64(const char **p, uint64_t *out)
{
	const char *s = *p;
	char *end;
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*out = strtoull(s, &end, 10);
	if (errno)
		return -1;
	*p = end;
	return 0;
}

/* The fields of one "cpuN" line after its name: user nice system idle iowait irq softirq
 * steal; a kernel may print fewer (old ones stop at iowait), never fewer than four. */
static int cpu_line(const char *p, struct tprof_cpu_times *t)
{
	uint64_t f[8] = { 0 };
	int n = 0;
	while (n < 8 && next_u64(&p, &f[n]) == 0)
		n++;
	if (n < 4)
		return -1;
	t->total = 0;
	for (int i = 0; i < n; i++)
		t->total += f[i];
	t->busy = t->total - f[3] - f[4];
	return 0;
}

int tprof_procstat_cpus(const char *text, struct tprof_cpu_times *out, unsigned char *seen,
			int max)
{
	int top = 0, lines = 0;
	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		if (strncmp(l, "cpu", 3))
			continue;
		lines++;
		if (l[3] < '0' || l[3] > '9')
			continue;   /* the "cpu" line of all CPUs together */
		char *end;
		long cpu = strtol(l + 3, &end, 10);
		struct tprof_cpu_times t;
		if (cpu < 0 || cpu > 1 << 20 || cpu_line(end, &t) < 0)
			continue;
		if (cpu < max) {
			out[cpu] = t;
			seen[cpu] = 1;
		}
		if (cpu + 1 > top)
			top = (int)cpu + 1;
	}
	return lines ? top : -1;
}

uint32_t tprof_procstat_busy_ppm(const struct tprof_cpu_times *a,
				 const struct tprof_cpu_times *b)
{
	if (b->total <= a->total || b->busy < a->busy)
		return 0;
	uint64_t dt = b->total - a->total, db = b->busy - a->busy;
	if (db >= dt)
		return 1000000;
	return (uint32_t)(db * 1000000 / dt);
}

/* "Key:   123 kB" anywhere in text, in bytes. */
static int meminfo_key(const char *text, const char *key, uint64_t *out)
{
	size_t n = strlen(key);
	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		if (strncmp(l, key, n) || l[n] != ':')
			continue;
		const char *p = l + n + 1;
		uint64_t v;
		if (next_u64(&p, &v) < 0)
			return -1;
		while (*p == ' ')
			p++;
		*out = !strncmp(p, "kB", 2) ? v * 1024 : v;
		return 0;
	}
	return -1;
}

int tprof_procstat_meminfo(const char *text, uint64_t *total, uint64_t *avail)
{
	if (meminfo_key(text, "MemTotal", total) < 0 ||
	    meminfo_key(text, "MemAvailable", avail) < 0)
		return -1;
	return 0;
}

int tprof_procstat_statm(const char *text, uint64_t page_size, uint64_t *rss)
{
	uint64_t size, resident;
	const char *p = text;
	if (next_u64(&p, &size) < 0 || next_u64(&p, &resident) < 0)
		return -1;
	*rss = resident * page_size;
	return 0;
}

/* Skips n blank-separated fields. */
static const char *skip_fields(const char *p, int n)
{
	while (n-- > 0) {
		while (*p == ' ')
			p++;
		if (!*p)
			return NULL;
		while (*p && *p != ' ')
			p++;
	}
	return p;
}

int tprof_procstat_task(const char *text, long clk_tck, struct tprof_task_stat *out)
{
	/* "pid (comm) state ppid ...": comm may hold spaces and parentheses of its own, so the
	 * fields start after the last ')'. */
	const char *open = strchr(text, '('), *close = strrchr(text, ')');
	if (!open || !close || close < open || close[1] != ' ' || clk_tck <= 0)
		return -1;
	memset(out, 0, sizeof(*out));
	size_t n = (size_t)(close - open - 1);
	memcpy(out->comm, open + 1, n < sizeof(out->comm) - 1 ? n : sizeof(out->comm) - 1);
	const char *p = close + 2;
	uint64_t v[40];   /* v[i] = field i + 1 of proc(5), from field 4 (ppid) on */
	out->state = *p;
	if (!out->state || !(p = skip_fields(p, 1)))
		return -1;
	for (int i = 3; i < 39; i++) {
		while (*p == ' ')
			p++;
		if (*p == '-') {   /* tty_nr, priority and nice may be negative */
			p++;
		}
		if (next_u64(&p, &v[i]) < 0)
			return -1;
	}
	out->ppid = (int32_t)v[3];
	out->faults = v[9] + v[11];
	uint64_t ticks = v[13] + v[14];
	out->cpu_ns = ticks * (1000000000ull / (uint64_t)clk_tck);
	out->nthreads = (uint32_t)v[19];
	out->start_ticks = v[21];
	out->start_code = v[25];
	out->start_stack = v[27];
	out->processor = (int32_t)v[38];
	return 0;
}

unsigned tprof_procstat_sched_state(char state)
{
	switch (state) {
	case 'R':
		return TPROF_SCHED_RUNNING;
	case 'D':
		return TPROF_SCHED_BLOCKED;
	case 'T':
	case 't':
		return TPROF_SCHED_STOPPED;
	case 'Z':
	case 'X':
	case 'x':
		return TPROF_SCHED_EXITED;
	default:   /* S, I (an idle kernel thread), and the letters of old kernels */
		return TPROF_SCHED_SLEEPING;
	}
}

long tprof_procfs_pread(int fd, char *buf, size_t len)
{
	size_t got = 0;
	while (got + 1 < len) {
		size_t want = len - 1 - got;
		ssize_t n = pread(fd, buf + got, want, (off_t)got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		got += (size_t)n;
		if ((size_t)n < want)
			break;   /* short: the whole file (see procstat.h) */
	}
	buf[got] = '\0';
	return (long)got;
}

long tprof_procfs_read(const char *path, char *buf, size_t len)
{
	int fd = tprof_fd_open(path, O_RDONLY, 0);
	if (fd < 0)
		return -1;
	long n = tprof_procfs_pread(fd, buf, len);
	int e = errno;
	tprof_fd_close(fd);
	errno = e;
	return n;
}
