/* mpich/init.c — MPI_Init, MPI_Init_thread and MPI_Finalize (hook-mpi-init.c), compiled again
 * for MPICH's ABI (mpich/side.h). */
#include "side.h"
#include "../hook-mpi-init.c"
