#!/bin/sh
# The recorder's own declarations of MPICH's ABI (preload/mpi/mpi-abi-mpich.h) against MPICH's
# real mpi.h and library: tests/unit/test-mpi-abi-mpich, built with mpicc.mpich, run as one
# rank under mpirun.mpich.
. "$(dirname "$0")/lib.sh"
need_mpich unit/test-mpi-abi-mpich
# The program speaks TAP itself.
exec "$MPIRUN_MPICH" -np 1 "$top_builddir/tests/unit/test-mpi-abi-mpich"
