/* procstat.h — parsers for the /proc files the sampler reads (procstat.c): the text in, the
 * numbers out, so that they can be tested on fixed text. */
#ifndef TPROF_SAMPLE_PROCSTAT_H
#define TPROF_SAMPLE_PROCSTAT_H

#include <stddef.h>
#include <stdint.h>

/* One CPU's line of /proc/stat, in clock ticks. */
struct tprof_cpu_times {
	uint64_t busy;            /* all but idle and iowait */
	uint64_t total;           /* user .. steal (guest time is inside user already) */
};

/* The per-CPU lines of /proc/stat ("cpuN ..."): cpu N's times go to out[N] for N < max, and
 * seen[N] is set.  Returns 1 + the highest CPU number found (0: none), or -1 when the text
 * is not /proc/stat. */
int tprof_procstat_cpus(const char *text, struct tprof_cpu_times *out, unsigned char *seen,
			int max);
/* A CPU's busy share between two reads, in parts per million (0 when no time passed). */
uint32_t tprof_procstat_busy_ppm(const struct tprof_cpu_times *a,
				 const struct tprof_cpu_times *b);

/* /proc/meminfo: MemTotal and MemAvailable, in bytes.  -1 when either is missing. */
int tprof_procstat_meminfo(const char *text, uint64_t *total, uint64_t *avail);

/* /proc/PID/statm: the resident set in bytes.  -1 when the text is not statm. */
int tprof_procstat_statm(const char *text, uint64_t page_size, uint64_t *rss);

/* /proc/PID/stat or /proc/PID/task/TID/stat. */
struct tprof_task_stat {
	char state;               /* R, S, D, T, t, Z, X, I ... */
	char comm[16];            /* between the first '(' and the last ')' (cut to 15 bytes) */
	int32_t ppid;
	uint64_t cpu_ns;          /* utime + stime */
	uint64_t faults;          /* minflt + majflt */
	uint64_t start_ticks;     /* starttime, clock ticks after boot */
	uint64_t start_code;      /* startcode and startstack: where exec placed the program */
	uint64_t start_stack;     /* and its stack (0 when the kernel hides them) */
	int32_t processor;        /* the CPU it last ran on */
	uint32_t nthreads;        /* num_threads: the threads of its process */
};

/* Parses one stat line; clk_tck = sysconf(_SC_CLK_TCK).  -1 when it is not a stat line. */
int tprof_procstat_task(const char *text, long clk_tck, struct tprof_task_stat *out);

/* The state letter of a stat line as enum tprof_sched_state (common/system-records.h). */
unsigned tprof_procstat_sched_state(char state);

/* Reads a whole (small) file into buf, NUL-terminated.  Returns the length, or -1 with
 * errno set.  For the /proc files the sampler reads, which the kernel makes in one piece
 * (stat, statm, comm, meminfo): a read shorter than asked is taken as the end, which saves
 * the sampler one system call in four. */
long tprof_procfs_read(const char *path, char *buf, size_t len);
/* The same from an open file, from its start: the kernel makes a /proc file anew at each
 * read from offset 0, so a file kept open saves its open and close. */
long tprof_procfs_pread(int fd, char *buf, size_t len);

#endif
