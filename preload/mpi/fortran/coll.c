/* fortran/coll.c — the collectives' wrappers (hook-mpi-coll.c), compiled again for the Fortran
 * bindings (fortran.h): the same records, from the Fortran calls. */
#include "side.h"
#include "../hook-mpi-coll.c"
