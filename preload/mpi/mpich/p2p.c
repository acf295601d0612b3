/* mpich/p2p.c — the blocking point-to-point wrappers and probes (hook-mpi-p2p.c), compiled
 * again for MPICH's ABI (mpich/side.h). */
#include "side.h"
#include "../hook-mpi-p2p.c"
