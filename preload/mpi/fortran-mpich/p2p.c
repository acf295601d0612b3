/* fortran-mpich/p2p.c — the blocking point-to-point wrappers and probes (hook-mpi-p2p.c),
 * compiled again for MPICH's use mpi_f08 bindings (fortran-mpich/side.h): the same records,
 * from the Fortran calls. */
#include "side.h"
#include "../hook-mpi-p2p.c"
