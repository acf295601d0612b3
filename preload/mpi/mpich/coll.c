/* mpich/coll.c — the collectives' wrappers (hook-mpi-coll.c), compiled again for MPICH's ABI
 * (mpich/side.h). */
#include "side.h"
#include "../hook-mpi-coll.c"
