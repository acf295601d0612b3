/* hook-mpi-query.c — the generated wrappers of the main list (hook-mpi.h): one for each call
 * with nothing to record but its name (Q entries) or its communicator (QC). */
#include "hook-mpi.h"

MPI_MAIN_API(MPI_GENERATE)

