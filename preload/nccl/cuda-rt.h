/* cuda-rt.h — device timing through the CUDA runtime's events (libcudart), for work the
 * program puts on CUDA streams without tprof wrapping the CUDA runtime itself: NCCL's
 * collectives.  The real functions are found with tprof_resolve, never through wrappers. */
#ifndef TPROF_CUDA_RT_H
#define TPROF_CUDA_RT_H

#include "../events/devtime.h"

extern const struct tprof_devrt tprof_cuda_rt;

/* Whether a CUDA runtime with the event functions is loaded (checked again at each call
 * until one is: a program may load it late). */
int tprof_cuda_rt_usable(void);

#endif
