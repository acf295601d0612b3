#!/bin/sh
# MPI-4's persistent collectives and partitioned communication (MPICH 4 has them; Open MPI 4.1
# does not): apps/mpi-persist on 3 ranks, recorded with its output unchanged and the recorder
# silent; each MPI_Start of a persistent collective is one instance found on every member,
# each start of a partitioned send and receive one message matched, with the bytes the
# program counted (tools/checks/mpi-persist.py).
. "$(dirname "$0")/lib.sh"
need_mpich apps/mpich-persist
plan 4

RUN="$MPIRUN_MPICH"
"$RUN" -np 3 "$APPS/mpich-persist" >"$T/truth" 2>"$T/perr"
ok $? "mpi-persist runs on 3 ranks ($(cut -c1-70 "$T/truth")...)"
"$INSPECT" -o "$T/out" -- "$RUN" -np 3 "$APPS/mpich-persist" >"$T/rec.out" 2>"$T/rec.err" &&
	cmp -s "$T/truth" "$T/rec.out" && ! grep -q "^tprof\[" "$T/rec.err"
ok $? "under tprof-inspect: exit status 0, the same output, the recorder silent"
"$ANALYZE" "$T/out" --summary=json >"$T/sum.json" 2>"$T/an.err"
ok $? "tprof-analyze writes the summary"
pycheck_in mpi-persist "persistent collectives complete, partitioned messages matched, bytes" \
	summary "$T/truth" "$T/sum.json"
