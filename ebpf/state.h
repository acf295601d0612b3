/* state.h — the state a thread enters, named from what the scheduler probe saw (records.h). */
#ifndef TPROF_EBPF_STATE_H
#define TPROF_EBPF_STATE_H

#include <stdint.h>

/* how = TPROF_BPF_SCHED_*; state and exit_state = the task's, for a switch from it.
 * Returns an enum tprof_sched_state. */
unsigned tprof_bpf_state(unsigned how, uint32_t state, uint32_t exit_state);

#endif
