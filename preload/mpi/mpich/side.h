/* side.h — included first by the files of mpich/: the MPI wrappers' declarations compiled for
 * MPICH's ABI (hook-mpi.h under TPROF_MPI_MPICH_SIDE: the arguments' types and the constants
 * of mpi-abi-mpich.h; each wrapper hidden, named tprof_mpich_<name>), and wrappers defined
 * hidden.  The exported wrappers hand them the calls of a process whose MPI is MPICH's. */
#ifndef TPROF_MPI_MPICH_SIDE_H
#define TPROF_MPI_MPICH_SIDE_H

#define TPROF_MPI_MPICH_SIDE 1
#include "../mpi-abi.h"
#include "../mpi-abi-mpich.h"

/* MPICH's constants where the wrappers name Open MPI's. */
#undef TMPI_SUCCESS
#undef TMPI_ERR_OTHER
#undef TMPI_ANY_SOURCE
#undef TMPI_PROC_NULL
#undef TMPI_ROOT
#undef TMPI_ANY_TAG
#undef TMPI_UNDEFINED
#undef TMPI_THREAD_MULTIPLE
#undef TMPI_LOCK_EXCLUSIVE
#undef TMPI_IN_PLACE
#undef TMPI_BOTTOM
#undef TMPI_STATUS_IGNORE
#undef TMPI_STATUSES_IGNORE
#define TMPI_SUCCESS TMPICH_SUCCESS
#define TMPI_ERR_OTHER TMPICH_ERR_OTHER
#define TMPI_ANY_SOURCE TMPICH_ANY_SOURCE
#define TMPI_PROC_NULL TMPICH_PROC_NULL
#define TMPI_ROOT TMPICH_ROOT
#define TMPI_ANY_TAG TMPICH_ANY_TAG
#define TMPI_UNDEFINED TMPICH_UNDEFINED
#define TMPI_THREAD_MULTIPLE TMPICH_THREAD_MULTIPLE
#define TMPI_LOCK_EXCLUSIVE TMPICH_LOCK_EXCLUSIVE
#define TMPI_IN_PLACE TMPICH_IN_PLACE
#define TMPI_BOTTOM TMPICH_BOTTOM
#define TMPI_STATUS_IGNORE TMPICH_STATUS_IGNORE
#define TMPI_STATUSES_IGNORE TMPICH_STATUSES_IGNORE

#include "../hook-mpi.h"

#undef TPROF_EXPORT
#define TPROF_EXPORT TPROF_HIDDEN

#endif
