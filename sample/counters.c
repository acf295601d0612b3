/* counters.c — the sampled counters (SYSCTR, stream 1): per-CPU busy share between two reads
 * of /proc/stat, host memory in use (/proc/meminfo), RSS per followed process
 * (/proc/PID/statm) and page faults per followed thread since it was first read.  Values
 * that did not change since they were last written are not written again. */
#include "counters.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/events.h"
#include "../common/system-records.h"

#define STAT_BYTES (1 << 16)

void tprof_counters_put(struct tprof_sysimg *im, uint64_t now, unsigned which, uint64_t of,
			uint64_t value)
{
	struct tprof_rec r = { .kind = TPROF_K_SYSCTR, .flags = (uint8_t)which, .t0 = now,
			       .t1 = of, .arg = value };
	tprof_sysimg_write(im, TPROF_SYS_STREAM_TIMED, r, NULL, 0);
}

int tprof_counters_init(struct tprof_counters *c, int ncpu, int cpu, int mem)
{
	memset(c, 0, sizeof(*c));
	c->cpu = cpu;
	c->mem = mem;
	c->ncpu = ncpu > 0 ? ncpu : 1;
	c->prev = calloc((size_t)c->ncpu, sizeof(*c->prev));
	c->cur = calloc((size_t)c->ncpu, sizeof(*c->cur));
	c->seen = calloc((size_t)c->ncpu, 1);
	long ps = sysconf(_SC_PAGESIZE);
	c->page_size = ps > 0 ? (uint64_t)ps : 4096;
	return c->prev && c->cur && c->seen ? 0 : -1;
}

void tprof_counters_free(struct tprof_counters *c)
{
	free(c->prev);
	free(c->cur);
	free(c->seen);
	memset(c, 0, sizeof(*c));
}

uint64_t tprof_counters_mem_total(void)
{
	char buf[8192];
	uint64_t total, avail;
	if (tprof_procfs_read("/proc/meminfo", buf, sizeof(buf)) <= 0 ||
	    tprof_procstat_meminfo(buf, &total, &avail) < 0)
		return 0;
	return total;
}

static void cpu_busy(struct tprof_counters *c, struct tprof_sysimg *im, uint64_t now)
{
	char *buf = malloc(STAT_BYTES);
	if (!buf)
		return;
	memset(c->seen, 0, (size_t)c->ncpu);
	if (tprof_procfs_read("/proc/stat", buf, STAT_BYTES) > 0 &&
	    tprof_procstat_cpus(buf, c->cur, c->seen, c->ncpu) > 0) {
		for (int i = 0; i < c->ncpu && c->have_prev; i++)
			if (c->seen[i] && c->prev[i].total)
				tprof_counters_put(im, now, TPROF_SYSCTR_CPU_BUSY, (uint64_t)i,
					tprof_procstat_busy_ppm(&c->prev[i], &c->cur[i]));
		for (int i = 0; i < c->ncpu; i++)
			c->prev[i] = c->seen[i] ? c->cur[i] : (struct tprof_cpu_times){ 0, 0 };
		c->have_prev = 1;
	}
	free(buf);
}

static void host_mem(struct tprof_counters *c, struct tprof_sysimg *im, uint64_t now)
{
	char buf[8192];
	uint64_t total, avail;
	if (tprof_procfs_read("/proc/meminfo", buf, sizeof(buf)) <= 0 ||
	    tprof_procstat_meminfo(buf, &total, &avail) < 0)
		return;
	uint64_t used = total > avail ? total - avail : 0;
	if (c->host_mem_written && used == c->host_mem)
		return;
	tprof_counters_put(im, now, TPROF_SYSCTR_HOST_MEM, 0, used);
	c->host_mem = used;
	c->host_mem_written = 1;
}

static void rss(struct tprof_counters *c, struct tprof_sysimg *im, struct tprof_tasks *t,
		uint64_t now)
{
	for (size_t i = 0; i < t->nprocs; i++) {
		struct tprof_sproc *p = &t->procs[i];
		char path[64], buf[256];
		uint64_t bytes;
		if (p->gone || tprof_tasks_quiet(t, p->pid, now))
			continue;
		snprintf(path, sizeof(path), "/proc/%u/statm", p->pid);
		if (tprof_procfs_read(path, buf, sizeof(buf)) <= 0 ||
		    tprof_procstat_statm(buf, c->page_size, &bytes) < 0 ||
		    (p->rss_written && bytes == p->rss))
			continue;
		tprof_counters_put(im, now, TPROF_SYSCTR_RSS, p->pid, bytes);
		p->rss = bytes;
		p->rss_written = 1;
	}
}

static void faults(struct tprof_sysimg *im, struct tprof_tasks *t, uint64_t now)
{
	for (size_t i = 0; i < t->nthreads; i++) {
		struct tprof_sthread *th = &t->threads[i];
		if (!th->have_stat || tprof_tasks_quiet(t, th->pid, now))
			continue;
		uint64_t v = th->st.faults - th->faults0;
		if (th->faults_written_once && v == th->faults_written)
			continue;
		tprof_counters_put(im, now, TPROF_SYSCTR_FAULTS, th->tid, v);
		th->faults_written = v;
		th->faults_written_once = 1;
	}
}

void tprof_counters_sample(struct tprof_counters *c, struct tprof_sysimg *im,
			   struct tprof_tasks *t, uint64_t now)
{
	if (c->cpu)
		cpu_busy(c, im, now);
	if (c->mem) {
		host_mem(c, im, now);
		rss(c, im, t, now);
		faults(im, t, now);
	}
}
