#!/bin/sh
# MPI_Comm_spawn (Open MPI; Debian's MPICH cannot spawn in a container without its process
# manager's support): apps/mpi-spawn's two ranks spawn two more; under tprof-inspect the
# output is unchanged, the recorder silent, and the profile has all four processes, the
# parents' MPI_Comm_spawn and every process's MPI_Init (tools/checks/mpi-spawn.py).
. "$(dirname "$0")/lib.sh"
need_mpi apps/mpi-spawn
plan 4

"$MPIRUN" $MPIRUN_FLAGS -np 2 "$APPS/mpi-spawn" >"$T/truth" 2>"$T/perr"
ok $? "mpi-spawn runs on 2 ranks and spawns 2 ($(cat "$T/truth"))"
"$INSPECT" -o "$T/out" -- "$MPIRUN" $MPIRUN_FLAGS -np 2 "$APPS/mpi-spawn" >"$T/rec.out" \
	2>"$T/rec.err" && cmp -s "$T/truth" "$T/rec.out" && ! grep -q "^tprof\[" "$T/rec.err"
ok $? "under tprof-inspect: exit status 0, the same output, the recorder silent"
"$ANALYZE" "$T/out" --summary=json >"$T/sum.json" 2>"$T/an.err"
ok $? "tprof-analyze writes the summary"
pycheck_in mpi-spawn "every parent and child is a process; MPI_Comm_spawn recorded" \
	summary "$T/truth" "$T/sum.json"
