/* side.h — included first by the files of fortran/: the MPI wrappers' declarations as the
 * Fortran side sees them (hook-mpi.h under TPROF_MPI_FORTRAN_SIDE: each wrapper hidden, named
 * tprof_mpi_f_<name>, calling its binding's thunk), and wrappers defined hidden. */
#ifndef TPROF_MPI_FORTRAN_SIDE_H
#define TPROF_MPI_FORTRAN_SIDE_H

#define TPROF_MPI_FORTRAN_SIDE 1
#include "../hook-mpi.h"

#undef TPROF_EXPORT
#define TPROF_EXPORT TPROF_HIDDEN

#endif
