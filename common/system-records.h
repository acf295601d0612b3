/* system-records.h — the records of the system profile: what the sampler (tprof-inspect
 * --sample, or a recorder with TPROF_SAMPLE) writes about the host and the threads it follows,
 * in a process image of its own (the "system image", PROP role = "system").  docs/FORMAT.md
 * §3.9 says the same in prose; the kinds are listed with the others in events.h. */
#ifndef TPROF_SYSTEM_RECORDS_H
#define TPROF_SYSTEM_RECORDS_H

#include <stdint.h>

/* The system image's streams.  Stream 0 holds, besides the usual STRING, PROP, CLOCK, DROP
 * and END records, the descriptions the analyzer needs before any sample: TASK, MAPS, KSYM. */
#define TPROF_SYS_STREAM_TIMED 1u    /* counters (SYSCTR), and the /proc sampler's SCHED */
#define TPROF_SYS_STREAM_CPU0 2u     /* BPF: stream 2 + cpu holds that CPU's SAMPLE and SCHED */

/* TASK: a process or thread the sampler follows.  t0 = ticks; name = its comm (0: unknown);
 * flags = enum tprof_task_what; ext = 1: struct tprof_task. */
enum tprof_task_what {
	TPROF_TASK_SEEN = 1,      /* running when the sampler started to follow it */
	TPROF_TASK_CREATED = 2,   /* made by fork or clone (a thread when tid != pid) */
	TPROF_TASK_EXEC = 3,      /* the process replaced its image (gen counts up) */
	TPROF_TASK_EXIT = 4,      /* the thread ended (the process, when tid == pid) */
	TPROF_TASK_RENAMED = 5,   /* its comm changed */
};

struct tprof_task {
	uint32_t pid;             /* process id (tgid) */
	uint32_t tid;             /* thread id; == pid for the main thread */
	uint32_t ppid;            /* parent process (SEEN and CREATED of a process), else 0 */
	uint32_t gen;             /* how many execs of this pid the sampler has seen */
	uint32_t exe;             /* string id: the executable's path (SEEN, EXEC), 0: unknown */
	uint32_t reserved[3];
};
_Static_assert(sizeof(struct tprof_task) == 32, "one unit");

/* MAPS: one executable file mapping of a process, for resolving user frames.  t0 = ticks when
 * read; name = string id of the file's path; arg = pid; ext = 1: struct tprof_map.  A
 * process's mappings are written when it is first followed, after each exec and whenever a
 * sampled address lies outside every mapping written for it (dlopen). */
struct tprof_map {
	uint64_t start, end;      /* addresses [start, end) in the process */
	uint64_t offset;          /* file offset mapped at start */
	uint32_t gen;             /* the pid's exec generation (struct tprof_task) */
	uint32_t reserved;
};
_Static_assert(sizeof(struct tprof_map) == 32, "one unit");

/* The second unit of a MAPS record (ext = 2), when the file could be looked at: which file
 * it was, so that a reader can tell it changed since (rebuilt, upgraded). */
struct tprof_map_file {
	uint64_t inode;
	uint64_t size;            /* bytes */
	int64_t mtime_ns;         /* its modification time, ns since the epoch */
	uint64_t reserved;
};
_Static_assert(sizeof(struct tprof_map_file) == 32, "one unit");

/* KSYM: a kernel symbol that sampled kernel frames fall in, resolved from /proc/kallsyms when
 * recording: name = string id of the symbol ("schedule", or "name [module]"); arg = its
 * address; t1 = the address of the next symbol (exclusive end); t0 = ticks. */

/* SAMPLE: the CPU was found running a followed thread.  t0 = ticks; t1 = tid; arg = pid |
 * (uint64_t)cpu << 32; flags = TPROF_SAMPLE_*; ext units: struct tprof_sample_hdr, then
 * nkernel kernel frames and nuser user frames (uint64_t addresses, innermost first; the
 * first user frame is the user-mode instruction pointer). */
#define TPROF_SAMPLE_IN_KERNEL 0x01u    /* the CPU was in kernel mode */
#define TPROF_SAMPLE_USER_TRUNC 0x02u   /* the user stack was cut at the frame limit */

struct tprof_sample_hdr {
	uint16_t nkernel, nuser;
	uint32_t reserved;
};
#define TPROF_SAMPLE_MAX_FRAMES 127u    /* per kind: the kernel's PERF_MAX_STACK_DEPTH */

/* SCHED: a followed thread changes state.  t0 = ticks; t1 = tid; arg = pid | (uint64_t)cpu
 * << 32 (the CPU it leaves or starts on; 0xffffffff: unknown); flags = the state it enters. */
enum tprof_sched_state {
	TPROF_SCHED_RUNNING = 1,    /* on a CPU */
	TPROF_SCHED_RUNNABLE = 2,   /* ready, waiting for a CPU (preempted, or woken) */
	TPROF_SCHED_SLEEPING = 3,   /* waiting for an event (interruptible: S) */
	TPROF_SCHED_BLOCKED = 4,    /* waiting uninterruptibly, mostly for I/O (D) */
	TPROF_SCHED_STOPPED = 5,    /* stopped by a signal or a tracer (T, t) */
	TPROF_SCHED_EXITED = 6,     /* gone */
};

/* SYSCTR: a sampled counter.  t0 = ticks; flags = enum tprof_sysctr; t1 = what it counts
 * (below); arg = the value, an unsigned integer. */
enum tprof_sysctr {
	TPROF_SYSCTR_CPU_BUSY = 1,   /* t1 = cpu; arg = its busy share over the interval that
				      * ends at t0, in parts per million (/proc/stat) */
	TPROF_SYSCTR_HOST_MEM = 2,   /* host memory in use, bytes (MemTotal - MemAvailable) */
	TPROF_SYSCTR_RSS = 3,        /* t1 = pid; its resident memory, bytes */
	TPROF_SYSCTR_FAULTS = 4,     /* t1 = tid; page faults (minor + major) it has taken since
				      * the sampler started following it */
	TPROF_SYSCTR_CPU_TIME = 5,   /* t1 = tid; CPU time (user + system) it has used, ns */
};

#endif
