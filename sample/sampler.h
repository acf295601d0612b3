/* sampler.h — the system profile sampler as tprof-inspect uses it (sampler.c): started before
 * the command runs, told which process to follow, stopped when the command has exited.  It
 * writes the system image (docs/FORMAT.md §3.9) from one thread of its own, with the kernel
 * probes (ebpf/loader.h) when they can be used, else from /proc. */
#ifndef TPROF_SAMPLE_SAMPLER_H
#define TPROF_SAMPLE_SAMPLER_H

#include <stddef.h>
#include <stdint.h>

/* What to sample (a bit set). */
#define TPROF_SAMPLE_CPU 0x1u      /* CPU samples (BPF), core busy counters, thread CPU time */
#define TPROF_SAMPLE_SCHED 0x2u    /* thread states */
#define TPROF_SAMPLE_MEM 0x4u      /* host memory, RSS, page faults */
#define TPROF_SAMPLE_ALL 0x7u

#define TPROF_SAMPLE_HZ_DEFAULT 99u
#define TPROF_SAMPLE_HZ_MAX 10000u
#define TPROF_SAMPLE_PROC_HZ_MAX 1000u   /* the /proc sampler's own limit */
#define TPROF_SAMPLE_COUNTER_HZ_MAX 20u     /* /proc/stat, meminfo, statm: every 50 ms */

struct tprof_sampler_opts {
	unsigned what;            /* TPROF_SAMPLE_* */
	unsigned hz;              /* 1 .. TPROF_SAMPLE_HZ_MAX */
	const char *dir;          /* the output directory (exists) */
	const char *prog;         /* names the program in messages */
	int no_bpf;               /* the /proc sampler even where the probes could be used */
	uint32_t target;          /* the command's pid, written as PROP target */
};

struct tprof_sampler;

/* Creates the system image and starts sampling.  NULL, with the reason in why, when the
 * image cannot be written. */
struct tprof_sampler *tprof_sampler_start(const struct tprof_sampler_opts *o, char *why,
					  size_t whylen);
/* Follows process pid (running now) and everything it creates from now on. */
void tprof_sampler_follow(struct tprof_sampler *s, uint32_t pid);
/* "bpf" or "proc". */
const char *tprof_sampler_backend(const struct tprof_sampler *s);
/* Why the kernel probes are not used ("" when they are, or were not needed). */
const char *tprof_sampler_bpf_why(const struct tprof_sampler *s);
/* The rate the sampler runs at (hz, or the /proc sampler's limit). */
unsigned tprof_sampler_hz(const struct tprof_sampler *s);
/* The image's path, "<dir>/<host>.<pid>.<id>.tpf". */
const char *tprof_sampler_path(const struct tprof_sampler *s);
/* The last poll, kernel symbols, the JIT maps of followed processes copied beside the image,
 * DROP, END; the image is closed and s freed. */
void tprof_sampler_stop(struct tprof_sampler *s);

/* What a sampler did, for a verbose report and the benchmarks. */
struct tprof_sampler_stats {
	uint64_t records;         /* written to the image, stream 0 included */
	uint64_t lost;            /* events the kernel probes could not hand over */
	uint64_t cpu_ns;          /* CPU time of the sampler's thread */
	uint64_t wall_ns;         /* from its start to its stop */
};
/* tprof_sampler_stop, telling what it did. */
void tprof_sampler_finish(struct tprof_sampler *s, struct tprof_sampler_stats *st);

/* The words of TPROF_SAMPLE_* as "cpu,sched,mem" (a subset). */
void tprof_sampler_what_str(unsigned what, char *buf, size_t len);

#endif
