/* fortran-mpich/init.c — MPI_Init, MPI_Init_thread and MPI_Finalize (hook-mpi-init.c),
 * compiled again for MPICH's use mpi_f08 bindings (fortran-mpich/side.h): the same records,
 * from the Fortran calls. */
#include "side.h"
#include "../hook-mpi-init.c"
