/* fortran-mpich/io.c — the MPI-IO wrappers (hook-mpi-io.c), compiled again for MPICH's use
 * mpi_f08 bindings (fortran-mpich/side.h): the same records, from the Fortran calls. */
#include "side.h"
#include "../hook-mpi-io.c"
