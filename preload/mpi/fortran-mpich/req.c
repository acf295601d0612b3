/* fortran-mpich/req.c — the wrappers of requests and their completion (hook-mpi-req.c),
 * compiled again for MPICH's use mpi_f08 bindings (fortran-mpich/side.h): the same records,
 * from the Fortran calls. */
#include "side.h"
#include "../hook-mpi-req.c"
