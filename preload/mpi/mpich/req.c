/* mpich/req.c — the wrappers of requests and their completion (hook-mpi-req.c), compiled again
 * for MPICH's ABI (mpich/side.h). */
#include "side.h"
#include "../hook-mpi-req.c"
