/* fortran/io.c — the MPI-IO wrappers (hook-mpi-io.c), compiled again for the Fortran bindings
 * (fortran.h): the same records, from the Fortran calls. */
#include "side.h"
#include "../hook-mpi-io.c"
