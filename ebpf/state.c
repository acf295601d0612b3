/* state.c — names the state a followed thread enters from the scheduler probe's record: its
 * task state bits (include/linux/sched.h, stable since Linux 4.14) when it leaves a CPU. */
#include <linux/types.h>

#include "../common/system-records.h"
#include "records.h"
#include "state.h"

#define TASK_INTERRUPTIBLE 0x0001u
#define TASK_UNINTERRUPTIBLE 0x0002u
#define TASK_STOPPED 0x0004u       /* __TASK_STOPPED */
#define TASK_TRACED 0x0008u        /* __TASK_TRACED */
#define EXIT_DEAD 0x0010u
#define EXIT_ZOMBIE 0x0020u
#define TASK_DEAD 0x0080u
#define TASK_NOLOAD 0x0400u        /* with TASK_UNINTERRUPTIBLE: TASK_IDLE, a sleep */
#define TASK_RTLOCK_WAIT 0x1000u   /* PREEMPT_RT: waiting for a lock */
#define TASK_FROZEN 0x8000u        /* stopped by the freezer */

static unsigned state_left_in(uint32_t state, uint32_t exit_state)
{
	if (state == 0)
		return TPROF_SCHED_RUNNABLE;
	if ((state & TASK_DEAD) || (exit_state & (EXIT_DEAD | EXIT_ZOMBIE)))
		return TPROF_SCHED_EXITED;
	if (state & (TASK_STOPPED | TASK_TRACED | TASK_FROZEN))
		return TPROF_SCHED_STOPPED;
	if (state & TASK_UNINTERRUPTIBLE)
		return (state & TASK_NOLOAD) ? TPROF_SCHED_SLEEPING : TPROF_SCHED_BLOCKED;
	if (state & TASK_RTLOCK_WAIT)
		return TPROF_SCHED_BLOCKED;
	return TPROF_SCHED_SLEEPING;
}

unsigned tprof_bpf_state(unsigned how, uint32_t state, uint32_t exit_state)
{
	switch (how) {
	case TPROF_BPF_SCHED_IN:
		return TPROF_SCHED_RUNNING;
	case TPROF_BPF_SCHED_WAKEUP:
		return TPROF_SCHED_RUNNABLE;
	default:
		return state_left_in(state, exit_state);
	}
}
