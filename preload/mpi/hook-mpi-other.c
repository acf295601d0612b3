/* hook-mpi-other.c — the generated wrappers of the rest of MPI (MPI_OTHER_API, hook-mpi.h):
 * datatypes, groups, topologies, attributes, info, errors, names and ports, recorded by name
 * or with their communicator. */
#include "hook-mpi.h"

MPI_OTHER_API(MPI_GENERATE)
