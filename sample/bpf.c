/* bpf.c — the sampler over the kernel probes (ebpf/loader.h): tasks, thread switches and CPU
 * samples as they come from the ring buffer, into the streams of their CPUs.  Built only with
 * HAVE_BPF, and not with TPROF_SAMPLE_PROC_ONLY (the recorder's copy, which must not link
 * libbpf); otherwise the probes are reported missing and the /proc sampler runs. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "backend.h"
#include "sampler.h"

#if HAVE_BPF && !defined(TPROF_SAMPLE_PROC_ONLY)
#include "../common/events.h"
#include "../common/system-records.h"
#include "../ebpf/loader.h"
#include "maps.h"

#define CPU_UNKNOWN 0xffffffffu

static uint32_t cpu_stream(uint32_t cpu)
{
	return cpu == CPU_UNKNOWN ? TPROF_SYS_STREAM_TIMED : TPROF_SYS_STREAM_CPU0 + cpu;
}

static void on_task(void *ctx, uint64_t ns, unsigned what, uint32_t pid, uint32_t tid,
		    uint32_t ppid, const char *comm)
{
	struct tprof_sampler *s = ctx;
	tprof_tasks_event(&s->tasks, ns, what, pid, tid, ppid, comm);
}

static void on_sched(void *ctx, uint64_t ns, uint32_t pid, uint32_t tid, uint32_t cpu,
		     unsigned state)
{
	struct tprof_sampler *s = ctx;
	if (tprof_tasks_quiet(&s->tasks, pid, ns))
		return;
	struct tprof_rec r = { .kind = TPROF_K_SCHED, .flags = (uint8_t)state, .t0 = ns,
			       .t1 = tid, .arg = pid | (uint64_t)cpu << 32 };
	tprof_sysimg_write(s->im, cpu_stream(cpu), r, NULL, 0);
}

/* The process of a sample, followed from here if its creation has not come through yet. */
static struct tprof_sproc *sample_proc(struct tprof_sampler *s, uint32_t pid, uint64_t ns)
{
	struct tprof_sproc *p = tprof_tasks_proc(&s->tasks, pid);
	if (!p) {
		tprof_tasks_follow(&s->tasks, pid, tprof_tasks_ppid(&s->tasks, pid),
				   TPROF_TASK_CREATED, ns);
		p = tprof_tasks_proc(&s->tasks, pid);
	}
	return p;
}

static void on_sample(void *ctx, uint64_t ns, uint32_t pid, uint32_t tid, uint32_t cpu,
		      unsigned flags, const uint64_t *kframes, unsigned nk,
		      const uint64_t *uframes, unsigned nu)
{
	struct tprof_sampler *s = ctx;
	if (tprof_tasks_quiet(&s->tasks, pid, ns))
		return;
	uint64_t ext[1 + 2 * TPROF_SAMPLE_MAX_FRAMES];
	struct tprof_sample_hdr h = { 0 };

	nk = nk < TPROF_SAMPLE_MAX_FRAMES ? nk : TPROF_SAMPLE_MAX_FRAMES;
	nu = nu < TPROF_SAMPLE_MAX_FRAMES ? nu : TPROF_SAMPLE_MAX_FRAMES;
	h.nkernel = (uint16_t)nk;
	h.nuser = (uint16_t)nu;
	memcpy(ext, &h, sizeof(h));
	if (nk)
		memcpy(ext + 1, kframes, nk * sizeof(*kframes));
	if (nu)
		memcpy(ext + 1 + nk, uframes, nu * sizeof(*uframes));
	for (unsigned i = 0; i < nk; i++)
		tprof_ksyms_add(&s->ksyms, kframes[i]);
	struct tprof_sproc *p = nu ? sample_proc(s, pid, ns) : NULL;
	if (p)
		tprof_maps_check(&s->tasks, p, uframes[0], ns);
	struct tprof_rec r = { .kind = TPROF_K_SAMPLE, .flags = (uint8_t)flags, .t0 = ns,
			       .t1 = tid, .arg = pid | (uint64_t)cpu << 32 };
	tprof_sysimg_write(s->im, cpu_stream(cpu), r, ext, (1 + nk + nu) * sizeof(uint64_t));
}

int tprof_bpfs_open(struct tprof_sampler *s)
{
	struct tprof_bpf_opts o = { .hz = s->hz };
	struct tprof_bpf_events ev = { .ctx = s, .task = on_task, .sched = on_sched,
				       .sample = on_sample };
	if (s->what & TPROF_SAMPLE_CPU)
		o.what |= TPROF_BPF_CPU;
	if (s->what & TPROF_SAMPLE_SCHED)
		o.what |= TPROF_BPF_SCHED;
	s->bpf = tprof_bpf_open(&o, &ev, s->bpf_why, sizeof(s->bpf_why));
	if (!s->bpf && !s->bpf_why[0])
		snprintf(s->bpf_why, sizeof(s->bpf_why), "the probes could not be loaded");
	return s->bpf ? 0 : -1;
}

void tprof_bpfs_follow(struct tprof_sampler *s, uint32_t pid)
{
	tprof_bpf_follow(s->bpf, pid);
}

void tprof_bpfs_poll(struct tprof_sampler *s)
{
	tprof_bpf_poll(s->bpf, 0);
}

uint64_t tprof_bpfs_close(struct tprof_sampler *s)
{
	/* What is in the ring buffer now; followed processes that outlive the command could
	 * keep it filling, so not forever. */
	for (int i = 0; i < 64 && tprof_bpf_poll(s->bpf, 0) > 0; i++)
		;
	uint64_t lost = tprof_bpf_lost(s->bpf);
	tprof_bpf_close(s->bpf);
	s->bpf = NULL;
	return lost;
}

#else

int tprof_bpfs_open(struct tprof_sampler *s)
{
	snprintf(s->bpf_why, sizeof(s->bpf_why), "this tprof was built without BPF support");
	return -1;
}

void tprof_bpfs_follow(struct tprof_sampler *s, uint32_t pid)
{
}

void tprof_bpfs_poll(struct tprof_sampler *s)
{
}

uint64_t tprof_bpfs_close(struct tprof_sampler *s)
{
	return 0;
}

#endif
