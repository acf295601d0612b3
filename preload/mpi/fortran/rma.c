/* fortran/rma.c — the one-sided communication wrappers (hook-mpi-rma.c), compiled again for
 * the Fortran bindings (fortran.h): the same records, from the Fortran calls. */
#include "side.h"
#include "../hook-mpi-rma.c"
