/* devrt-cuda.h — device timing through the CUDA runtime's events (libcudart), for work the
 * program puts on CUDA streams without tprof wrapping the CUDA runtime itself: NCCL's
 * collectives.  The real functions are found with tprof_resolve, never through wrappers. */
#ifndef TPROF_DEVRT_CUDA_H
#define TPROF_DEVRT_CUDA_H

#include "devtime.h"

extern const struct tprof_devrt tprof_cuda_rt;

#endif
