/* mpich/rma.c — the one-sided communication wrappers (hook-mpi-rma.c), compiled again for
 * MPICH's ABI (mpich/side.h). */
#include "side.h"
#include "../hook-mpi-rma.c"
