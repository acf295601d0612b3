/* sched.bpf.c — the scheduling of followed threads: each switch to or from one, and each
 * wakeup, as SCHED records; the loader names the state a thread leaves in (state.c). */
#include "common.bpf.h"

/* Kernels before 5.14 call the state `state`. */
struct task_struct___old {
	long state;
} __attribute__((preserve_access_index));

static __always_inline __u32 task_state(struct task_struct *t)
{
	if (bpf_core_field_exists(t->__state))
		return BPF_CORE_READ(t, __state);
	return BPF_CORE_READ((struct task_struct___old *)t, state);
}

static __always_inline void sched_record(struct task_struct *t, __u32 tgid, __u32 how,
					 __u32 state, __u32 exit_state)
{
	struct tprof_bpf_sched *r = reserve(sizeof(*r));

	if (!r)
		return;
	fill_head(&r->h, TPROF_BPF_REC_SCHED, tgid, BPF_CORE_READ(t, pid));
	r->how = how;
	r->state = state;
	r->exit_state = exit_state;
	r->reserved = 0;
	submit(r);
}

SEC("tp_btf/sched_switch")
int BPF_PROG(on_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	__u32 tgid = BPF_CORE_READ(prev, tgid);

	if (is_followed(tgid))
		sched_record(prev, tgid, TPROF_BPF_SCHED_OUT, preempt ? 0 : task_state(prev),
			     BPF_CORE_READ(prev, exit_state));
	tgid = BPF_CORE_READ(next, tgid);
	if (is_followed(tgid))
		sched_record(next, tgid, TPROF_BPF_SCHED_IN, 0, 0);
	return 0;
}

/* A wakeup of a thread still on its CPU is none: it had set itself to sleep and was woken
 * before it switched out (the kernel's ttwu_runnable), so it never stopped running.  Taken
 * as Runnable, it would show the thread waiting until its next switch, however long it
 * ran meanwhile.  A thread that did switch out is off its CPU when its wakeup is traced. */
static __always_inline int woken(struct task_struct *t)
{
	__u32 tgid = BPF_CORE_READ(t, tgid);

	if (!is_followed(tgid))
		return 0;
	if (bpf_core_field_exists(t->on_cpu) && BPF_CORE_READ(t, on_cpu))
		return 0;
	sched_record(t, tgid, TPROF_BPF_SCHED_WAKEUP, 0, 0);
	return 0;
}

SEC("tp_btf/sched_wakeup")
int BPF_PROG(on_wakeup, struct task_struct *t)
{
	return woken(t);
}

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(on_wakeup_new, struct task_struct *t)
{
	return woken(t);
}
