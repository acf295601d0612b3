/* sample.bpf.c — timed CPU samples: run by a PERF_COUNT_SW_CPU_CLOCK event on each CPU, it
 * records the kernel and user stacks of a followed thread it finds running, in a record as
 * long as its frames (gathered first in a per-CPU scratch buffer). */
#include "common.bpf.h"

#define MAXF TPROF_BPF_MAX_FRAMES

struct scratch {
	struct tprof_bpf_sample s;
	__u64 frames[2 * MAXF];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct scratch);
} scratch SEC(".maps");

SEC("perf_event")
int on_cpu_clock(struct bpf_perf_event_data *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 zero = 0;
	struct scratch *b;
	long kb = 0, ub;
	__u32 nk, nu;
	__u64 size;

	if (!is_followed(id >> 32))
		return 0;
	b = bpf_map_lookup_elem(&scratch, &zero);
	if (!b)
		return 0;
	fill_head(&b->s.h, TPROF_BPF_REC_SAMPLE, id >> 32, (__u32)id);
	b->s.flags = 0;
	/* Kernel addresses have the top bit set. */
	if ((long)PT_REGS_IP(&ctx->regs) < 0) {
		b->s.flags |= TPROF_BPF_SAMPLE_IN_KERNEL;
		kb = bpf_get_stack(ctx, b->frames, MAXF * sizeof(__u64), 0);
	}
	nk = kb > 0 ? kb / sizeof(__u64) : 0;
	if (nk > MAXF)
		nk = MAXF;
	ub = bpf_get_stack(ctx, &b->frames[nk], MAXF * sizeof(__u64), BPF_F_USER_STACK);
	nu = ub > 0 ? ub / sizeof(__u64) : 0;
	if (nu > MAXF)
		nu = MAXF;
	if (nu == MAXF)
		b->s.flags |= TPROF_BPF_SAMPLE_USER_TRUNC;
	b->s.nkernel = nk;
	b->s.nuser = nu;
	b->s.reserved = 0;
	size = sizeof(b->s) + (__u64)(nk + nu) * sizeof(__u64);
	barrier_var(size);   /* the verifier wants to see the bound checked */
	if (size > sizeof(*b))
		return 0;
	if (bpf_ringbuf_output(&records, b, size, wakeup_flag()))
		count_lost();
	return 0;
}
