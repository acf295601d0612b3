/* loader.h — the kernel side of the system profile: loads the BPF programs (ebpf/NAME.bpf.c, as
 * libbpf skeletons), follows a process and its descendants in the kernel, and hands what the
 * probes saw to the sampler (sample/) through callbacks, on the thread that polls. */
#ifndef TPROF_EBPF_LOADER_H
#define TPROF_EBPF_LOADER_H

#include <stddef.h>
#include <stdint.h>

/* What to probe (a bit set). */
#define TPROF_BPF_CPU 0x1u     /* timed CPU samples with kernel and user stacks */
#define TPROF_BPF_SCHED 0x2u   /* switches and wakeups of followed threads */

struct tprof_bpf_opts {
	unsigned what;            /* TPROF_BPF_* */
	unsigned hz;              /* CPU samples per second per CPU */
	size_t ring_bytes;        /* the ring buffer, 0: a default that holds about a second */
};

/* Called on the polling thread, in the order the ring buffer holds the events (time order on
 * each CPU).  Times are CLOCK_MONOTONIC ns (bpf_ktime_get_ns). */
struct tprof_bpf_events {
	void *ctx;
	/* A followed task was created (fork/clone), exec'ed, exited or renamed:
	 * what = enum tprof_task_what (common/system-records.h); comm is NUL-terminated. */
	void (*task)(void *ctx, uint64_t ns, unsigned what, uint32_t pid, uint32_t tid,
		     uint32_t ppid, const char *comm);
	/* A followed thread enters state `state` (enum tprof_sched_state) on `cpu`: the CPU it
	 * leaves or starts running on; for a wakeup (runnable), the CPU that woke it. */
	void (*sched)(void *ctx, uint64_t ns, uint32_t pid, uint32_t tid, uint32_t cpu,
		      unsigned state);
	/* A CPU sample: flags = TPROF_SAMPLE_* (common/system-records.h); frames innermost first. */
	void (*sample)(void *ctx, uint64_t ns, uint32_t pid, uint32_t tid, uint32_t cpu,
		       unsigned flags, const uint64_t *kframes, unsigned nk,
		       const uint64_t *uframes, unsigned nu);
};

struct tprof_bpf;

/* Loads and attaches the programs.  NULL when the kernel or the privileges do not allow it,
 * with a one-line reason in why ("not permitted to load BPF programs (needs root, or
 * CAP_BPF and CAP_PERFMON)", "the kernel has no BTF (...)"...). */
struct tprof_bpf *tprof_bpf_open(const struct tprof_bpf_opts *o,
				 const struct tprof_bpf_events *ev, char *why, size_t whylen);
/* Follows process pid, and from now on every process and thread it or they create.  0, or -1
 * with errno set. */
int tprof_bpf_follow(struct tprof_bpf *b, uint32_t pid);
/* Delivers what is ready; when nothing is, waits timeout_ms (less if the ring buffer fills
 * past half: the probes wake no one before that) and delivers what came.  Call it on a timer
 * of 20-50 ms.  Returns the number of events delivered, or -1 on an error. */
int tprof_bpf_poll(struct tprof_bpf *b, int timeout_ms);
/* Events the probes could not hand over so far (the ring buffer was full). */
uint64_t tprof_bpf_lost(const struct tprof_bpf *b);
/* Detaches and frees; poll once more before, to keep what is still in the ring buffer. */
void tprof_bpf_close(struct tprof_bpf *b);

#endif
