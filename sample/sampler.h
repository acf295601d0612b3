/* sampler.h — the system profile sampler (sampler.c) as tprof-inspect uses it (started before
 * the command runs, told which process to follow, stopped when the command has exited) and as
 * the recorder does inside a program run with TPROF_SAMPLE (following its own process only).
 * It writes the system image (docs/FORMAT.md §3.9) from one thread of its own, with the
 * kernel probes (ebpf/loader.h) when they can be used, else from /proc; and what to sample
 * is read from the same words everywhere (request.c). */
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

/* What to sample, and how often. */
struct tprof_sample_request {
	unsigned what;            /* TPROF_SAMPLE_*, 0: no system profile */
	unsigned hz;
};

/* "cpu,sched,mem" or "all" into a TPROF_SAMPLE_* set: 0, or -1 with the offending word (cut
 * to badlen) in bad. */
int tprof_sample_parse_list(const char *list, unsigned *what, char *bad, size_t badlen);
/* A rate from 1 to TPROF_SAMPLE_HZ_MAX: 0, or -1. */
int tprof_sample_parse_hz(const char *v, unsigned *hz);
/* The values of TPROF_SAMPLE and TPROF_SAMPLE_HZ (NULL: unset) into r: 1 to sample, 0 when
 * TPROF_SAMPLE is unset or empty (the rate is then not looked at), -1 with a message naming
 * the variable in why when a value is bad (r then asks for nothing). */
int tprof_sample_from_env(const char *list, const char *hz, struct tprof_sample_request *r,
			  char *why, size_t whylen);

struct tprof_sampler_opts {
	unsigned what;            /* TPROF_SAMPLE_* */
	unsigned hz;              /* 1 .. TPROF_SAMPLE_HZ_MAX */
	const char *dir;          /* the output directory (exists, but see self) */
	const char *prog;         /* names the program in messages (kept: must outlive s) */
	int no_bpf;               /* the /proc sampler even where the probes could be used */
	uint32_t target;          /* the command's pid, written as PROP target */
	/* The calling process samples itself (the recorder): the sampler follows this process
	 * and its threads, not its descendants, and leaves its own thread out; /proc only; the
	 * target is getpid(); dir is made (with its parents) and checked (common/outdir.h)
	 * first, by dir_ready when given (0: usable; else it has said why), else here.  The
	 * image is made by the sampler's thread lazy_ns after the start (0: at once), or at the
	 * stop if that comes first (not before an exec: tprof_sampler_stop_exec);
	 * tprof_sampler_start cannot say why it could not be, so the thread says it on stderr,
	 * "PROG: no system profile: WHY". */
	int self;
	uint64_t lazy_ns;
	int (*dir_ready)(void);
};

struct tprof_sampler;

/* Creates the system image and starts sampling.  NULL, with the reason in why, when the
 * image cannot be written (or, with self, when the sampler cannot be set up). */
struct tprof_sampler *tprof_sampler_start(const struct tprof_sampler_opts *o, char *why,
					  size_t whylen);
/* Follows process pid (running now) and everything it creates from now on (not with self). */
void tprof_sampler_follow(struct tprof_sampler *s, uint32_t pid);
/* "bpf" or "proc". */
const char *tprof_sampler_backend(const struct tprof_sampler *s);
/* Why the kernel probes are not used ("" when they are, or were not needed). */
const char *tprof_sampler_bpf_why(const struct tprof_sampler *s);
/* The rate the sampler runs at (hz, or the /proc sampler's limit). */
unsigned tprof_sampler_hz(const struct tprof_sampler *s);
/* The image's path, "<dir>/<host>.<pid>.<id>.tpf"; NULL while a self sampler has none. */
const char *tprof_sampler_path(const struct tprof_sampler *s);
/* The last poll, kernel symbols, the JIT maps of followed processes copied beside the image,
 * DROP, END; the image is closed and s freed. */
void tprof_sampler_stop(struct tprof_sampler *s);
/* As tprof_sampler_stop, before the process execs: a self sampler whose lazy image is not
 * made yet makes none (the new program's recorder starts a sampler of its own). */
void tprof_sampler_stop_exec(struct tprof_sampler *s);
/* Around a fork of the process the sampler runs in: prepare waits for the thread to finish
 * what it is doing (a fork in the middle of its allocations could leave a sanitizer's
 * allocator locked in the child) and holds it; parent lets it go on.  The thread has run
 * its start by the time tprof_sampler_start returns. */
void tprof_sampler_fork_prepare(struct tprof_sampler *s);
void tprof_sampler_fork_parent(struct tprof_sampler *s);
/* In a child made by fork, where the sampler's thread does not exist: the image's file is
 * closed, nothing written to it and nothing freed. */
void tprof_sampler_abandon(struct tprof_sampler *s);

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
