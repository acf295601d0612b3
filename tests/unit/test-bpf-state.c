/* test-bpf-state.c — the state a followed thread enters, as the loader names it from what the
 * scheduler probe saw (ebpf/state.c): the kernel's task state bits, a wakeup, a switch in. */
#include <linux/types.h>
#include <stdint.h>

#include "../../common/system-records.h"
#include "../../ebpf/records.h"
#include "../../ebpf/state.h"
#include "tap.h"

static void out(uint32_t state, uint32_t exit_state, unsigned want, const char *what)
{
	is_u64(tprof_bpf_state(TPROF_BPF_SCHED_OUT, state, exit_state), want, "%s", what);
}

int main(void)
{
	is_u64(tprof_bpf_state(TPROF_BPF_SCHED_IN, 0x1, 0), TPROF_SCHED_RUNNING,
	       "switched to: running, whatever the state says");
	is_u64(tprof_bpf_state(TPROF_BPF_SCHED_WAKEUP, 0, 0), TPROF_SCHED_RUNNABLE,
	       "woken: runnable");
	out(0x0000, 0, TPROF_SCHED_RUNNABLE, "preempted (state 0): runnable");
	out(0x0001, 0, TPROF_SCHED_SLEEPING, "TASK_INTERRUPTIBLE: sleeping");
	out(0x0002, 0, TPROF_SCHED_BLOCKED, "TASK_UNINTERRUPTIBLE: blocked");
	out(0x0102, 0, TPROF_SCHED_BLOCKED, "TASK_KILLABLE: blocked");
	out(0x0402, 0, TPROF_SCHED_SLEEPING, "TASK_IDLE (uninterruptible, no load): sleeping");
	out(0x1000, 0, TPROF_SCHED_BLOCKED, "TASK_RTLOCK_WAIT: blocked");
	out(0x0104, 0, TPROF_SCHED_STOPPED, "TASK_STOPPED: stopped");
	out(0x0108, 0, TPROF_SCHED_STOPPED, "TASK_TRACED: stopped");
	out(0x8000, 0, TPROF_SCHED_STOPPED, "TASK_FROZEN: stopped");
	out(0x0080, 0, TPROF_SCHED_EXITED, "TASK_DEAD: exited");
	out(0x0001, 0x20, TPROF_SCHED_EXITED, "EXIT_ZOMBIE: exited");
	out(0x0002, 0x10, TPROF_SCHED_EXITED, "EXIT_DEAD: exited");
	out(0x0040, 0, TPROF_SCHED_SLEEPING, "TASK_PARKED: sleeping");
	return tap_done();
}
