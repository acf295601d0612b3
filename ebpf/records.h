/* records.h — what the BPF programs put in their ring buffer for the loader: one header, then
 * the record of its kind.  Shared by the programs (vmlinux.h types) and the loader
 * (<linux/types.h>); fixed sizes.  The codes equal common/system-records.h's (the loader checks). */
#ifndef TPROF_EBPF_RECORDS_H
#define TPROF_EBPF_RECORDS_H

#define TPROF_BPF_REC_TASK 1u     /* struct tprof_bpf_task */
#define TPROF_BPF_REC_SCHED 2u    /* struct tprof_bpf_sched */
#define TPROF_BPF_REC_SAMPLE 3u   /* struct tprof_bpf_sample, then its frames */

#define TPROF_BPF_MAX_FRAMES 127  /* per stack: the kernel's PERF_MAX_STACK_DEPTH */
#define TPROF_BPF_COMM_LEN 16     /* TASK_COMM_LEN */

/* = enum tprof_task_what */
#define TPROF_BPF_TASK_CREATED 2u
#define TPROF_BPF_TASK_EXEC 3u
#define TPROF_BPF_TASK_EXIT 4u
#define TPROF_BPF_TASK_RENAMED 5u

/* = TPROF_SAMPLE_* */
#define TPROF_BPF_SAMPLE_IN_KERNEL 0x01u
#define TPROF_BPF_SAMPLE_USER_TRUNC 0x02u

/* What a SCHED record saw; the loader makes a tprof_sched_state of it (state.c). */
#define TPROF_BPF_SCHED_IN 1u       /* switched to */
#define TPROF_BPF_SCHED_OUT 2u      /* switched from, in `state` */
#define TPROF_BPF_SCHED_WAKEUP 3u   /* woken */

struct tprof_bpf_head {
	__u64 ns;                 /* bpf_ktime_get_ns: CLOCK_MONOTONIC */
	__u32 kind;               /* TPROF_BPF_REC_* */
	__u32 pid, tid;           /* the task's tgid and pid */
	__u32 cpu;                /* the CPU the probe ran on */
};

struct tprof_bpf_task {
	struct tprof_bpf_head h;
	__u32 what;               /* enum tprof_task_what */
	__u32 ppid;               /* the parent process of a process created, else 0 */
	char comm[TPROF_BPF_COMM_LEN];
};

struct tprof_bpf_sched {
	struct tprof_bpf_head h;
	__u32 how;                /* TPROF_BPF_SCHED_* */
	__u32 state;              /* OUT: the task's __state, 0 when preempted */
	__u32 exit_state;         /* OUT: the task's exit_state */
	__u32 reserved;
};

/* Followed by nkernel kernel frames then nuser user frames (__u64), innermost first: the
 * record is as long as its frames. */
struct tprof_bpf_sample {
	struct tprof_bpf_head h;
	__u16 flags;              /* TPROF_BPF_SAMPLE_* */
	__u16 nkernel, nuser;
	__u16 reserved;
};

#endif
