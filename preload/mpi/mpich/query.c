/* mpich/query.c — the generated wrappers (hook-mpi-query.c), compiled again for MPICH's ABI
 * (mpich/side.h). */
#include "side.h"
#include "../hook-mpi-query.c"
