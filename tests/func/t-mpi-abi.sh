#!/bin/sh
# The recorder's own declarations of Open MPI's ABI (preload/mpi/mpi-abi.h) against the real mpi.h
# and libmpi: tests/unit/test-mpi-abi, built with mpicc, run as one rank under mpirun.
. "$(dirname "$0")/lib.sh"
need_mpi unit/test-mpi-abi
# The program speaks TAP itself.
exec "$MPIRUN" $MPIRUN_FLAGS -np 1 "$top_builddir/tests/unit/test-mpi-abi"
