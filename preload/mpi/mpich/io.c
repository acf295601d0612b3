/* mpich/io.c — the MPI-IO wrappers (hook-mpi-io.c), compiled again for MPICH's ABI
 * (mpich/side.h). */
#include "side.h"
#include "../hook-mpi-io.c"
