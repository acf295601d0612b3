/* side.h — included first by the files of fortran-mpich/: the MPI wrappers compiled for the
 * Fortran bindings (fortran/side.h) and for MPICH's ABI (mpich/side.h) at once, each hidden
 * and named tprof_mpich_f_<name>.  MPICH's use mpi_f08 bindings without a buffer call the
 * PMPI_ functions, never the C wrappers: these record them (fortran/entries.c). */
#ifndef TPROF_MPI_FORTRAN_MPICH_SIDE_H
#define TPROF_MPI_FORTRAN_MPICH_SIDE_H

#define TPROF_MPI_FORTRAN_SIDE 1
#include "../mpich/side.h"

#endif
