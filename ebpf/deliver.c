/* deliver.c — hands the records of the ring buffer (records.h) to the sampler's callbacks,
 * checking each is as long as it says. */
#include <linux/types.h>
#include <string.h>

#include "../common/system-records.h"
#include "internal.h"
#include "records.h"
#include "state.h"

_Static_assert(TPROF_BPF_TASK_CREATED == TPROF_TASK_CREATED, "system-records.h");
_Static_assert(TPROF_BPF_TASK_EXEC == TPROF_TASK_EXEC, "system-records.h");
_Static_assert(TPROF_BPF_TASK_EXIT == TPROF_TASK_EXIT, "system-records.h");
_Static_assert(TPROF_BPF_TASK_RENAMED == TPROF_TASK_RENAMED, "system-records.h");
_Static_assert(TPROF_BPF_SAMPLE_IN_KERNEL == TPROF_SAMPLE_IN_KERNEL, "system-records.h");
_Static_assert(TPROF_BPF_SAMPLE_USER_TRUNC == TPROF_SAMPLE_USER_TRUNC, "system-records.h");
_Static_assert(TPROF_BPF_MAX_FRAMES == TPROF_SAMPLE_MAX_FRAMES, "system-records.h");

static void task(const struct tprof_bpf_events *ev, const struct tprof_bpf_task *r)
{
	char comm[TPROF_BPF_COMM_LEN + 1];

	memcpy(comm, r->comm, TPROF_BPF_COMM_LEN);
	comm[TPROF_BPF_COMM_LEN] = 0;
	ev->task(ev->ctx, r->h.ns, r->what, r->h.pid, r->h.tid, r->ppid, comm);
}

static void sched(const struct tprof_bpf_events *ev, const struct tprof_bpf_sched *r)
{
	ev->sched(ev->ctx, r->h.ns, r->h.pid, r->h.tid, r->h.cpu,
		  tprof_bpf_state(r->how, r->state, r->exit_state));
}

static void sample(const struct tprof_bpf_events *ev, const struct tprof_bpf_sample *r,
		   size_t size)
{
	const uint64_t *f = (const void *)(r + 1);
	size_t n = (size_t)r->nkernel + r->nuser;

	if (size < sizeof(*r) + n * sizeof(*f))
		return;
	ev->sample(ev->ctx, r->h.ns, r->h.pid, r->h.tid, r->h.cpu, r->flags, f, r->nkernel,
		   f + r->nkernel, r->nuser);
}

int tprof_bpf_deliver(void *ctx, void *data, size_t size)
{
	const struct tprof_bpf *b = ctx;
	const struct tprof_bpf_head *h = data;

	if (size < sizeof(*h))
		return 0;
	if (h->kind == TPROF_BPF_REC_TASK && size >= sizeof(struct tprof_bpf_task) && b->ev.task)
		task(&b->ev, data);
	else if (h->kind == TPROF_BPF_REC_SCHED && size >= sizeof(struct tprof_bpf_sched) &&
		 b->ev.sched)
		sched(&b->ev, data);
	else if (h->kind == TPROF_BPF_REC_SAMPLE && size >= sizeof(struct tprof_bpf_sample) &&
		 b->ev.sample)
		sample(&b->ev, data, size);
	return 0;
}
