/* fortran-mpich/rma.c — the one-sided communication wrappers (hook-mpi-rma.c), compiled again
 * for MPICH's use mpi_f08 bindings (fortran-mpich/side.h): the same records, from the Fortran
 * calls. */
#include "side.h"
#include "../hook-mpi-rma.c"
