/* system.h — what a system image (docs/FORMAT.md §3.9) describes in its stream 0, as
 * read/system.c collects it: the tasks the sampler followed, their executable mappings and
 * the kernel symbols; and how the (host, pid, tid) its records name finds the thread of the
 * trace they belong to. */
#ifndef TPROF_ANALYZE_SYSTEM_H
#define TPROF_ANALYZE_SYSTEM_H

#include "../../common/system-records.h"
#include "trace.h"

/* A TASK record. */
struct sys_task {
	uint64_t ticks;
	int64_t ns;                      /* on the global axis (system_attach) */
	uint32_t pid, tid, ppid, gen;
	uint32_t comm, exe;              /* trace-wide string ids, 0: unknown */
	uint8_t what;                    /* enum tprof_task_what */
};

/* A MAPS record: [start, end) of process pid (exec generation gen) maps path at offset. */
struct sys_map {
	uint64_t start, end, offset;
	uint32_t pid, gen;
	uint32_t path;                   /* trace-wide string id */
	int has_file;                    /* the file as it was when recorded: */
	uint64_t inode, size;
	int64_t mtime_ns;
};

/* A KSYM record: the kernel symbol at [addr, end). */
struct sys_ksym {
	uint64_t addr, end;
	uint32_t name;                   /* trace-wide string id */
};

struct sysimage {
	struct proc *proc;
	struct sys_task *tasks;          /* in time order after system_attach */
	size_t ntasks, captasks;
	struct sys_map *maps;            /* by pid, gen, start after system_attach */
	size_t nmaps, capmaps;
	struct sys_ksym *ksyms;          /* by address after system_attach */
	size_t nksyms, capksyms;
	/* its PROP records */
	uint32_t sampler, sample, kernel;        /* string ids, 0: not said */
	int64_t sample_hz, counter_hz, ncpu, mem_total, target;   /* -1: not said */
	/* its host-wide counters (core busy shares, host memory) are drawn (system_attach):
	 * not when an image of the same host that covers more time overlaps it */
	int host_counters;
};

/* procstream.c: a system image's own PROP keys (1 when the key was one), and its TASK, MAPS
 * and KSYM records; both make p->sys on first use. */
int system_prop(struct proc *p, const char *key, const struct tprof_rec *r);
void system_record(struct proc *p, const struct tprof_rec *r);
/* load.c, once every clock is known (before the processes are ordered): gives each followed
 * process and thread of the system images its place in the trace, making a process for one
 * that recorded no image and a thread for one that recorded nothing (named by its comm); and
 * chooses the images whose host-wide counters are drawn. */
void system_attach(struct trace *tr);
void system_free(struct trace *tr);

/* The thread that tid was at ns on host (of process pid, or of any when pid is 0): that of
 * the process image whose run contains ns, else the nearest in time; NULL when no followed
 * or recorded thread has that tid there.  *since (when not NULL) is set to when that run of
 * the thread began: a tid that execs becomes another image's thread then. */
struct thread *system_thread(const struct trace *tr, uint32_t host, uint32_t pid, uint32_t tid,
			     int64_t ns, int64_t *since);
/* The mapping of process pid (exec generation gen; any generation when gen < 0) holding
 * addr, or NULL. */
const struct sys_map *system_map(const struct sysimage *si, uint32_t pid, int64_t gen,
				 uint64_t addr);
/* The kernel symbol holding addr, or NULL. */
const struct sys_ksym *system_ksym(const struct sysimage *si, uint64_t addr);

#endif
