/* backend.h — what the sampler's thread (sampler.c) and its two ways of sampling share:
 * procpoll.c, which reads /proc, and bpf.c, which takes what the kernel probes hand over. */
#ifndef TPROF_SAMPLE_BACKEND_H
#define TPROF_SAMPLE_BACKEND_H

#include <pthread.h>
#include <stdint.h>

#include "counters.h"
#include "image.h"
#include "ksyms.h"
#include "tasks.h"

struct tprof_bpf;

struct tprof_sampler {
	unsigned what, hz, counter_hz;
	const char *prog;
	struct tprof_sysimg *im;
	struct tprof_tasks tasks;
	struct tprof_counters counters;
	struct tprof_ksyms ksyms;
	struct tprof_bpf *bpf;          /* NULL: the /proc sampler */
	char bpf_why[256];
	char *dir;
	char *path;
	uint32_t target;
	int no_bpf;
	/* a self sampler (sampler.h): the image is begun by the thread at begin_at */
	int self, begun;
	int (*dir_ready)(void);         /* opts.dir_ready */
	int exec_stop;                  /* stopped before an exec: no image begun from now */
	uint32_t self_tid;              /* the sampler's thread, left out of what it follows */
	uint32_t exit_tid;              /* a self sampler stopped at the exit: the thread exiting */
	uint64_t begin_at;
	uint64_t next_tick, next_counter, next_scan;
	uint64_t started_ns;            /* CLOCK_MONOTONIC at the image's start */
	uint64_t thread_cpu_ns;         /* the thread's CPU time, when it ended */
	/* A self sampler's thread with a table of descriptors of its own (common/ownfd.h): the
	 * image is begun and ended on it, the only thread that can use its descriptors. */
	int own_table;
	int finished;                   /* ended (finish): what it wrote is below */
	uint64_t final_records, final_lost;
	pthread_t thread;
	int running;
	int started;                    /* the thread has taken the lock once */
	int stop;
	pthread_mutex_t lock;           /* the state above, between the thread and follow */
	pthread_cond_t wake;
};

/* The /proc sampler's tick: new tasks, thread states (SCHED), CPU time (SYSCTR). */
void tprof_procpoll_tick(struct tprof_sampler *s, uint64_t now);

/* The kernel probes (bpf.c; without HAVE_BPF, or in the recorder's copy, these say they are
 * not there). */
int tprof_bpfs_open(struct tprof_sampler *s);
void tprof_bpfs_follow(struct tprof_sampler *s, uint32_t pid);
void tprof_bpfs_poll(struct tprof_sampler *s);
/* Polls what is left, detaches; returns the events lost. */
uint64_t tprof_bpfs_close(struct tprof_sampler *s);

#endif
