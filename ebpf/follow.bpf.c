/* follow.bpf.c — follows the process tree: a process created by a followed one is followed
 * from its birth, and its lifecycle (created, exec, exit, renamed) goes to the loader as TASK
 * records, for processes and their threads alike. */
#include "common.bpf.h"

static __always_inline void task_record(struct task_struct *t, __u32 what, __u32 ppid,
					const char *comm)
{
	struct tprof_bpf_task *r = reserve(sizeof(*r));

	if (!r)
		return;
	fill_head(&r->h, TPROF_BPF_REC_TASK, BPF_CORE_READ(t, tgid), BPF_CORE_READ(t, pid));
	r->what = what;
	r->ppid = ppid;
	if (comm)
		bpf_probe_read_kernel_str(r->comm, sizeof(r->comm), comm);
	else
		BPF_CORE_READ_STR_INTO(&r->comm, t, comm);
	submit(r);
}

/* fork and clone: a new process of a followed one is followed before it first runs. */
SEC("tp_btf/sched_process_fork")
int BPF_PROG(on_fork, struct task_struct *parent, struct task_struct *child)
{
	__u32 ptgid = BPF_CORE_READ(parent, tgid);
	__u32 tgid = BPF_CORE_READ(child, tgid);
	__u32 one = 1;

	if (!is_followed(ptgid))
		return 0;
	if (tgid == ptgid) {
		task_record(child, TPROF_BPF_TASK_CREATED, 0, NULL);
		return 0;
	}
	if (bpf_map_update_elem(&followed, &tgid, &one, BPF_ANY))
		count_lost();
	task_record(child, TPROF_BPF_TASK_CREATED, ptgid, NULL);
	return 0;
}

SEC("tp_btf/sched_process_exec")
int BPF_PROG(on_exec, struct task_struct *t)
{
	if (is_followed(BPF_CORE_READ(t, tgid)))
		task_record(t, TPROF_BPF_TASK_EXEC, 0, NULL);
	return 0;
}

/* A thread ends (the process, when it is the main thread). */
SEC("tp_btf/sched_process_exit")
int BPF_PROG(on_exit, struct task_struct *t)
{
	if (is_followed(BPF_CORE_READ(t, tgid)))
		task_record(t, TPROF_BPF_TASK_EXIT, 0, NULL);
	return 0;
}

/* The process is forgotten when its main thread is freed with no thread left alive: after it
 * was reaped and after its last switch, which the scheduler probe still reports.  (The main
 * thread replaced by an exec in another thread is freed while the process lives on.) */
SEC("tp_btf/sched_process_free")
int BPF_PROG(on_free, struct task_struct *t)
{
	__u32 tgid = BPF_CORE_READ(t, tgid);

	if (BPF_CORE_READ(t, pid) == tgid && BPF_CORE_READ(t, signal, live.counter) == 0)
		bpf_map_delete_elem(&followed, &tgid);
	return 0;
}

/* prctl(PR_SET_NAME), pthread_setname_np, and exec (before its own record). */
SEC("tp_btf/task_rename")
int BPF_PROG(on_rename, struct task_struct *t, const char *comm)
{
	if (is_followed(BPF_CORE_READ(t, tgid)))
		task_record(t, TPROF_BPF_TASK_RENAMED, 0, comm);
	return 0;
}
