/* mpich/pcoll.c — the persistent collectives' wrappers (hook-mpi-pcoll.c), compiled again for
 * MPICH's ABI (mpich/side.h). */
#include "side.h"
#include "../hook-mpi-pcoll.c"
