/* procpoll.c — the /proc sampler: at each tick it looks for new processes and threads, reads
 * every followed thread's stat line and writes SCHED when its state letter changed and
 * SYSCTR CPU time when it used some; new processes and execs are looked for every 50 ms.
 * States shorter than the period can be missed, and R
 * (running or waiting for a CPU) is taken as running. */
#include <stdint.h>

#include "../common/events.h"
#include "../common/system-records.h"
#include "backend.h"
#include "sampler.h"

#define CPU_UNKNOWN 0xffffffffu

static void sched_rec(struct tprof_sampler *s, uint64_t now, const struct tprof_sthread *th,
		      unsigned state)
{
	uint64_t cpu = th->have_stat && state != TPROF_SCHED_EXITED ? (uint32_t)th->st.processor
								    : CPU_UNKNOWN;
	struct tprof_rec r = { .kind = TPROF_K_SCHED, .flags = (uint8_t)state, .t0 = now,
			       .t1 = th->tid, .arg = th->pid | cpu << 32 };
	tprof_sysimg_write(s->im, TPROF_SYS_STREAM_TIMED, r, NULL, 0);
}

static void thread_tick(struct tprof_sampler *s, uint64_t now, struct tprof_sthread *th)
{
	if (s->what & TPROF_SAMPLE_SCHED) {
		unsigned state = th->gone ? TPROF_SCHED_EXITED
			       : th->have_stat ? tprof_procstat_sched_state(th->st.state) : 0;
		if (state && state != th->sched) {
			sched_rec(s, now, th, state);
			th->sched = state;
		}
	}
	if ((s->what & TPROF_SAMPLE_CPU) && th->have_stat &&
	    (!th->cpu_written || th->st.cpu_ns != th->cpu_ns_written)) {
		tprof_counters_put(s->im, now, TPROF_SYSCTR_CPU_TIME, th->tid, th->st.cpu_ns);
		th->cpu_ns_written = th->st.cpu_ns;
		th->cpu_written = 1;
	}
}

/* Looking through /proc for new processes and execs costs a read per process on the host:
 * 20 times a second, whatever the thread sampling rate. */
#define SCAN_NS 50000000ull

void tprof_procpoll_tick(struct tprof_sampler *s, uint64_t now)
{
	if (now >= s->next_scan) {
		tprof_tasks_scan(&s->tasks, now);
		s->next_scan = now + SCAN_NS;
	}
	tprof_tasks_read_stats(&s->tasks, now);
	for (size_t i = 0; i < s->tasks.nthreads; i++)
		thread_tick(s, now, &s->tasks.threads[i]);
}
