/* callstack.h — a launch's host call stack (TPROF_CALLSTACK=1): captured with libunwind (loaded only then),
 * written as a STACK record of function-name ids, and the calling function returned. */
#ifndef TPROF_CALLSTACK_H
#define TPROF_CALLSTACK_H

#include "../core/core.h"

/* Writes the stack of the calling thread (the profiler's own frames left out) as a STACK
 * record for `corr`; returns the name id of the program's function that made the call
 * (the first frame outside the profiler and the runtime), or 0. */
uint32_t tprof_callstack(struct tprof_thread *t, uint64_t corr);
/* At load, when TPROF_CALLSTACK asks for call stacks: libunwind loaded and set up (the pipe
 * it keeps made the recorder's, above the program's descriptors) before the program runs.
 * -1, having said why in one warning line, when it cannot be loaded. */
int tprof_callstack_init(void);

#endif
