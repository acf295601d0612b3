/* common.bpf.h — what every BPF program of tprof shares: the map of followed processes, the
 * ring buffer to the loader, the count of records it could not take.  Each program's object
 * declares them; the loader makes all objects use the maps of the first (bpf_map__reuse_fd). */
#ifndef TPROF_EBPF_COMMON_BPF_H
#define TPROF_EBPF_COMMON_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>
#include "records.h"

char LICENSE[] SEC("license") = "GPL";

/* tgid -> 1: the processes followed (threads are followed through their process). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, __u32);
} followed SEC(".maps");

/* The loader sets its size before loading. */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 256 * 1024);
} records SEC(".maps");

/* Records the ring buffer could not take, per CPU. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} lost SEC(".maps");

static __always_inline int is_followed(__u32 tgid)
{
	return tgid && bpf_map_lookup_elem(&followed, &tgid);
}

static __always_inline void count_lost(void)
{
	__u32 zero = 0;
	__u64 *n = bpf_map_lookup_elem(&lost, &zero);

	if (n)
		*n += 1;
}

/* The loader polls on a timer; it is woken only when the ring is more than half full. */
static __always_inline __u64 wakeup_flag(void)
{
	__u64 used = bpf_ringbuf_query(&records, BPF_RB_AVAIL_DATA);
	__u64 size = bpf_ringbuf_query(&records, BPF_RB_RING_SIZE);

	return used > size / 2 ? BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP;
}

static __always_inline void *reserve(__u64 size)
{
	void *p = bpf_ringbuf_reserve(&records, size, 0);

	if (!p)
		count_lost();
	return p;
}

static __always_inline void submit(void *p)
{
	bpf_ringbuf_submit(p, wakeup_flag());
}

static __always_inline void fill_head(struct tprof_bpf_head *h, __u32 kind, __u32 pid, __u32 tid)
{
	h->ns = bpf_ktime_get_ns();
	h->kind = kind;
	h->pid = pid;
	h->tid = tid;
	h->cpu = bpf_get_smp_processor_id();
}

#endif
