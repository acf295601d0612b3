/* internal.h — the loader's state, shared by its files: the skeletons, the per-CPU perf
 * events that run the sampling program, and the ring buffer it polls. */
#ifndef TPROF_EBPF_INTERNAL_H
#define TPROF_EBPF_INTERNAL_H

#include <stddef.h>

#include "loader.h"

struct bpf_link;
struct bpf_program;
struct ring_buffer;

struct tprof_bpf {
	struct tprof_follow *follow;   /* owns the shared maps */
	struct tprof_sched *sched;     /* NULL without TPROF_BPF_SCHED */
	struct tprof_sample *sample;   /* NULL without TPROF_BPF_CPU */
	struct bpf_link **clocks;      /* the sampling program on each online CPU */
	int nclocks;
	struct ring_buffer *rb;
	struct tprof_bpf_events ev;
	int lost_fd;
};

/* cpus.c: opens a CPU clock event of hz per online CPU and attaches prog to each.  0, or a
 * negative errno with a reason in why. */
int tprof_bpf_clocks_attach(struct tprof_bpf *b, struct bpf_program *prog, unsigned hz,
			    char *why, size_t whylen);
void tprof_bpf_clocks_detach(struct tprof_bpf *b);

/* deliver.c: the ring buffer's callback: hands one record to b->ev. */
int tprof_bpf_deliver(void *b, void *data, size_t size);

/* reasons.c: libbpf's messages shown at TPROF_VERBOSE >= 2, and the reasons said to the caller. */
void tprof_bpf_quiet_libbpf(void);
int tprof_bpf_kernel_ready(char *why, size_t whylen);
void tprof_bpf_say_error(int err, int verifier, const char *doing, char *why,
			 size_t whylen);

#endif
