/* mpich/other.c — the generated wrappers of the rest of MPI (hook-mpi-other.c), compiled again
 * for MPICH's ABI (mpich/side.h). */
#include "side.h"
#include "../hook-mpi-other.c"
