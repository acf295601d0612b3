#!/bin/sh
# Clock alignment on a real MPI job: rank 2 of apps/mpi-pattern runs with
# TPROF_TEST_CLOCK_SKEW_NS=50000000, which makes its clock samples claim a clock 50 ms ahead
# (as on a host whose clocks are off).  tprof-analyze must find that offset from the ranks'
# measurements against rank 0, to within the measured round trip, apply it, leave the ranks
# that share rank 0's clock alone, and then no message arrow may point backwards (one to or
# from rank 2 by no more than that round trip, the alignment's uncertainty).  Then the
# same with every rank recording CLOCK_MONOTONIC (TPROF_CLOCK=monotonic), where the skew
# shows only in the clock samples.
. "$(dirname "$0")/lib.sh"
need_mpi apps/mpi-pattern
plan 8

APP="$APPS/mpi-pattern"
SKEW=50000000
MPMD="-np 2 $APP : -np 1 env TPROF_TEST_CLOCK_SKEW_NS=$SKEW $APP : -np 1 $APP"
"$INSPECT" -o "$T/out" -- "$MPIRUN" $MPIRUN_FLAGS $MPMD >"$T/truth.json" 2>"$T/rec.err"
ok $? "mpi-pattern runs on 4 ranks, rank 2 with its clock skewed by 50 ms"

"$ANALYZE" "$T/out" -v -s -f chrome -o "$T/t.json" >"$T/sum.txt" 2>"$T/notes.txt"
ok $? "tprof-analyze writes the summary and the Chrome trace"

pycheck "rank 2's offset is 50 ms to within the measured round trip, at MPI_Init and "\
"MPI_Finalize, and applied" \
	rank2-offset "$T/notes.txt" "$SKEW"

pycheck "ranks 1 and 3 share rank 0's clock and are left alone" others-alone "$T/notes.txt"

pycheck "the summary's clock alignment section shows it" summary-table "$T/notes.txt" "$T/sum.txt"

# forward TRACE TRUTH NOTES: no arrow backwards (to or from rank 2: by less than its round trip).
forward() {
	"$PY" -B "$CHECKS" forward "$1" "$2" "$("$PY" -B "$CHECKS" rank2-round-trip "$3")"
}
forward "$T/t.json" "$T/truth.json" "$T/notes.txt" 2>"$T/fwd.err"
ok $? "every message matched; no arrow points backwards in time (to or from rank 2: by less than its round trip)"
[ -s "$T/fwd.err" ] && diag "$(tail -n 3 "$T/fwd.err")" "$(grep -i 'rank 2' "$T/notes.txt" | head -n 4)"

TPROF_CLOCK=monotonic "$INSPECT" -o "$T/mono" -- "$MPIRUN" $MPIRUN_FLAGS -x TPROF_CLOCK $MPMD \
	>"$T/truth2.json" 2>"$T/rec2.err" &&
	"$ANALYZE" "$T/mono" -v -f chrome -o "$T/m.json" 2>"$T/notes2.txt" &&
	"$PY" -B "$CHECKS" rank2-offset "$T/notes2.txt" "$SKEW"
ok $? "with TPROF_CLOCK=monotonic, rank 2's offset is 50 ms to within the round trip, and applied"
forward "$T/m.json" "$T/truth2.json" "$T/notes2.txt" 2>"$T/fwd2.err"
ok $? "and again every message matched, no arrow backwards"
[ -s "$T/fwd2.err" ] && diag "$(tail -n 3 "$T/fwd2.err")" "$(grep -i 'rank 2' "$T/notes2.txt" | head -n 4)"
finish
