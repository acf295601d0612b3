/* counters.h — SYSCTR records (counters.c): each CPU's busy share, the host's memory in use,
 * each followed process's RSS and each followed thread's page faults. */
#ifndef TPROF_SAMPLE_COUNTERS_H
#define TPROF_SAMPLE_COUNTERS_H

#include <stdint.h>

#include "procstat.h"
#include "tasks.h"

struct tprof_counters {
	int cpu, mem;                   /* which counters: core busy; memory, RSS, faults */
	int ncpu;
	struct tprof_cpu_times *prev, *cur;
	unsigned char *seen;
	int have_prev;
	uint64_t page_size;
	uint64_t host_mem;              /* last written */
	int host_mem_written;
};

/* ncpu: CPUs of the host (possible ones: /proc/stat lists them by number). */
int tprof_counters_init(struct tprof_counters *c, int ncpu, int cpu, int mem);
/* The host's MemTotal in bytes, 0 when unknown. */
uint64_t tprof_counters_mem_total(void);
/* One sample of every counter at `now`; thread faults from the stats last read. */
void tprof_counters_sample(struct tprof_counters *c, struct tprof_sysimg *im,
			   struct tprof_tasks *t, uint64_t now);
void tprof_counters_free(struct tprof_counters *c);

/* A SYSCTR record into stream 1. */
void tprof_counters_put(struct tprof_sysimg *im, uint64_t now, unsigned which, uint64_t of,
			uint64_t value);

#endif
