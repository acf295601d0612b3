/* fortran/pcoll.c — the persistent collectives' wrappers (hook-mpi-pcoll.c), compiled again for
 * the Fortran bindings (fortran.h): the same records, from the Fortran calls. */
#include "side.h"
#include "../hook-mpi-pcoll.c"
