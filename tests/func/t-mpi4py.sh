#!/bin/sh
# An MPI program that reaches MPI late, through a library: mpi4py, run by Debian's own
# /usr/bin/python3 (which loads libmpi as a dependency of an extension module, privately),
# under tprof-inspect -- mpirun -np 2.  Both ranks' MPI calls are recorded.
. "$(dirname "$0")/lib.sh"
need_mpi
SYS_PY=${SYSTEM_PYTHON3:-/usr/bin/python3}
[ -x "$SYS_PY" ] || skip_all "no $SYS_PY (Debian's own python3)"
"$SYS_PY" -B "$CHECKS" has-mpi4py 2>/dev/null ||
	skip_all "$SYS_PY lacks mpi4py (on Debian: apt-get install python3-mpi4py)"
plan 6

SCRIPT="$top_srcdir/tests/apps/mpi4py-app.py"
"$MPIRUN" $MPIRUN_FLAGS -np 2 "$SYS_PY" "$SCRIPT" >"$T/plain.out" 2>"$T/plain.err"
ok $? "the mpi4py program runs on 2 ranks without the recorder"
"$INSPECT" -o "$T/out" -- "$MPIRUN" $MPIRUN_FLAGS -np 2 "$SYS_PY" "$SCRIPT" >"$T/rec.out" 2>"$T/rec.err"
ok $? "and under tprof-inspect -- mpirun"
check "its output is unchanged" cmp -s "$T/plain.out" "$T/rec.out"
"$DUMP" "$T/out" >"$T/dump.json"
ok $? "dump-records reads the profile"
pycheck "both ranks' MPI calls are recorded, with peers, tags, bytes and communicators" \
	calls "$T/dump.json"
pycheck "WORLD is described on both ranks, and rank 1 measured its clock offset" \
	world-and-clock "$T/dump.json"
finish
