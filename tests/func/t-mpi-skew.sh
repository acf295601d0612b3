#!/bin/sh
# TPROF_TEST_CLOCK_SKEW_NS makes one process look as if it ran on a host whose clocks are off:
# here rank 2 of apps/mpi-pattern (an MPMD command line gives it the variable alone) is 50 ms
# ahead.  Its CLOCK records say so against the other ranks', its clock offset measurement
# against rank 0 (CSYNC) finds it, and the program runs as without it.
. "$(dirname "$0")/lib.sh"
need_mpi apps/mpi-pattern
plan 5

APP="$APPS/mpi-pattern"
SKEW=50000000
MPMD="-np 2 $APP : -np 1 env TPROF_TEST_CLOCK_SKEW_NS=$SKEW $APP : -np 1 $APP"
"$MPIRUN" $MPIRUN_FLAGS $MPMD >"$T/plain.out" 2>"$T/plain.err"
ok $? "mpi-pattern runs on 4 ranks, rank 2 given TPROF_TEST_CLOCK_SKEW_NS=$SKEW"
"$INSPECT" -o "$T/out" -- "$MPIRUN" $MPIRUN_FLAGS $MPMD >"$T/rec.out" 2>"$T/rec.err"
ok $? "and under tprof-inspect -- mpirun"
check "its output is unchanged" cmp -s "$T/plain.out" "$T/rec.out"
"$DUMP" "$T/out" >"$T/dump.json"

pycheck "rank 2's CLOCK records are 50 ms ahead of rank 0's, the others' are not" \
	clock-records "$T/dump.json" "$SKEW"
pycheck "and its clock offset measurements against rank 0 find those 50 ms, within their round "\
"trip" \
	measurements "$T/dump.json" "$SKEW"
finish
