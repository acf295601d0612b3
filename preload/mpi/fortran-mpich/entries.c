/* fortran-mpich/entries.c — the entries and thunks of fortran/entries.c compiled for MPICH's
 * ABI: those of the calls whose arguments are recorded, which the use mpi_f08 spellings
 * hand MPICH's calls to. */
#include "side.h"
#include "../fortran/entries.c"
