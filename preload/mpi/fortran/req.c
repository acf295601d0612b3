/* fortran/req.c — the wrappers of requests and their completion (hook-mpi-req.c), compiled
 * again for the Fortran bindings (fortran.h): the same records, from the Fortran calls. */
#include "side.h"
#include "../hook-mpi-req.c"
