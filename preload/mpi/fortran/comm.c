/* fortran/comm.c — the communicators' wrappers (hook-mpi-comm.c), compiled again for the
 * Fortran bindings (fortran.h): the same records, from the Fortran calls. */
#include "side.h"
#include "../hook-mpi-comm.c"
