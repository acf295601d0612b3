/* fortran/init.c — MPI_Init, MPI_Init_thread and MPI_Finalize (hook-mpi-init.c), compiled again
 * for the Fortran bindings (fortran.h): the same records, from the Fortran calls. */
#include "side.h"
#include "../hook-mpi-init.c"
