/* fortran-mpich/coll.c — the collectives' wrappers (hook-mpi-coll.c), compiled again for
 * MPICH's use mpi_f08 bindings (fortran-mpich/side.h): the same records, from the Fortran
 * calls. */
#include "side.h"
#include "../hook-mpi-coll.c"
