/* tasks.h — the processes and threads the sampler follows (tasks.c): the target and its
 * descendants, found by scanning /proc or told by the kernel probes, with what the sampler
 * last read of each; their TASK records. */
#ifndef TPROF_SAMPLE_TASKS_H
#define TPROF_SAMPLE_TASKS_H

#include <stddef.h>
#include <stdint.h>

#include "image.h"
#include "procstat.h"

struct tprof_map_range {
	uint64_t start, end;
};

struct tprof_sproc {
	uint32_t pid, ppid, gen;
	char *exe;                      /* path of the executable, NULL: unknown */
	uint64_t start_code, start_stack;   /* from /proc/PID/stat: an exec changes them */
	int gone;
	uint64_t rss;                   /* last RSS written, bytes */
	int rss_written;
	/* maps.c: the executable mappings written for this pid and gen */
	struct tprof_map_range *maps;
	size_t nmaps;
	int maps_stale;                 /* exec'ed since they were read */
	uint64_t maps_ns;               /* when they were last read, 0: never */
	uint32_t nthreads;              /* num_threads at the last read of its main thread */
};

struct tprof_sthread {
	uint32_t pid, tid;
	char comm[16];
	int gone;
	/* the last stat read (tprof_tasks_read_stats) */
	struct tprof_task_stat st;
	int have_stat;
	unsigned sched;                 /* the last SCHED state written, 0: none */
	uint64_t cpu_ns_written;        /* the last CPU_TIME written */
	int cpu_written;
	uint64_t faults0;               /* faults at the first read */
	uint64_t faults_written;
	int faults_written_once;
	/* its stat and children files, kept open by tprof-inspect's sampler (a program that
	 * samples itself opens and closes them: its file descriptors are the program's); -1:
	 * not open */
	int stat_fd, children_fd;
};

struct tprof_tasks {
	struct tprof_sysimg *im;
	int maps_on;                    /* write MAPS (CPU samples are taken) */
	int self_only;                  /* the followed processes only, not their descendants */
	uint32_t skip_tid;              /* a thread never followed (the sampler's own), 0: none */
	uint32_t exit_tid;              /* set for the last look of a process that samples itself
					 * and exits from this thread: the others end with it (a
					 * thread it joined may not have left /proc yet), 0: none */
	long clk_tck;
	struct tprof_sproc *procs;
	size_t nprocs, capprocs;
	struct tprof_sthread *threads;
	size_t nthreads, capthreads;
	uint32_t *ever;                 /* every pid ever followed, for the JIT maps */
	size_t never, capever;
	int32_t *others;                /* pids in /proc known not to be followed (sorted) */
	size_t nothers;
	uint32_t quiet_pid;             /* followed from its exec on (tprof-inspect's child, not
					 * yet the command): no SCHED, SAMPLE or counters before */
	uint64_t quiet_until;           /* its exec's time, once seen (0: not yet) */
	unsigned open_fds;              /* stat_fd and children_fd open */
	int no_children;                /* the kernel has no /proc/PID/task/TID/children: new
					 * processes are looked for through all of /proc */
};

/* Whether a record of pid at ns is left out: tprof-inspect's child before its exec. */
static inline int tprof_tasks_quiet(const struct tprof_tasks *t, uint32_t pid, uint64_t ns)
{
	return pid == t->quiet_pid && (!t->quiet_until || ns < t->quiet_until);
}

void tprof_tasks_init(struct tprof_tasks *t, struct tprof_sysimg *im, int maps_on);
void tprof_tasks_free(struct tprof_tasks *t);

/* The parent of process pid, from /proc/PID/stat (0 when it cannot be read). */
uint32_t tprof_tasks_ppid(const struct tprof_tasks *t, uint32_t pid);
/* Follows process pid and its threads from now on: what = TPROF_TASK_SEEN (running when
 * following began) or TPROF_TASK_CREATED.  Nothing when it is followed already. */
void tprof_tasks_follow(struct tprof_tasks *t, uint32_t pid, uint32_t ppid, unsigned what,
			uint64_t now);
/* The /proc mode's look around: descendants of followed processes (unless self_only),
 * threads that appeared or ended, execs (the executable changed). */
void tprof_tasks_scan(struct tprof_tasks *t, uint64_t now);
/* Reads every followed thread's stat line; a thread whose line is gone has ended. */
void tprof_tasks_read_stats(struct tprof_tasks *t, uint64_t now);
/* What the kernel probes saw: enum tprof_task_what. */
void tprof_tasks_event(struct tprof_tasks *t, uint64_t ns, unsigned what, uint32_t pid,
		       uint32_t tid, uint32_t ppid, const char *comm);
/* Drops the threads and processes marked gone (after their last records were written). */
void tprof_tasks_reap(struct tprof_tasks *t);

struct tprof_sproc *tprof_tasks_proc(struct tprof_tasks *t, uint32_t pid);
int tprof_cmp_i32(const void *a, const void *b);   /* qsort order of int32_t */

#endif
