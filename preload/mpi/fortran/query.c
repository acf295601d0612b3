/* fortran/query.c — the generated wrappers (hook-mpi-query.c), compiled again for the Fortran
 * bindings (fortran.h): the same records, from the Fortran calls. */
#include "side.h"
#include "../hook-mpi-query.c"
