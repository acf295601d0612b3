/* mpich/comm.c — the communicators' wrappers (hook-mpi-comm.c), compiled again for MPICH's ABI
 * (mpich/side.h). */
#include "side.h"
#include "../hook-mpi-comm.c"
