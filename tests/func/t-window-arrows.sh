#!/bin/sh
# Arrows under a window (--start/--end) that starts between a call and the device work it
# launched: the window keeps the device span and leaves the call out, so no arrow may start
# or end at that call.  A kernel's launch arrow is left out (apps/hip-multi, the window cut
# halfway along its longest launch); an NCCL collective's arrows bind to a rank's call only
# where the window kept it (apps/nccl-window: rank 0's call and span before the window,
# rank 1's after, rank 0's call still running when rank 1's span starts); an MPI collective's
# arrows are drawn only from and to calls the window kept (a generated job, the window ending
# between the last member's entry and the one before, or starting after the first member's
# entry).  Every arrow end
# of the Chrome trace lies inside a slice of its track, the Perfetto trace checks
# (tools/pftrace.py), and so does each part of the same window analyzed in parallel.
. "$(dirname "$0")/lib.sh"
need_hip hip-multi
need_mpi apps/nccl-window
PFTRACE="$top_srcdir/tests/tools/pftrace.py"
plan 9

"$INSPECT" -o "$T/hip" -- "$APPS/hip-multi" 3 >/dev/null 2>&1 && "$APPS/nccl-window" "$T/nccl"
ok $? "hip-multi runs on the stand-in HIP runtime under tprof-inspect; nccl-window writes its job"
"$ANALYZE" "$T/hip" -o "$T/hip.json" 2>/dev/null && HIPW=$("$PY" -B "$CHECKS" cut-launch "$T/hip.json")
ok $? "a window that starts halfway along a launch arrow: $HIPW"

# windowed NAME WINDOW CAT...: NAME's Chrome and Perfetto traces of WINDOW: every arrow end
# inside a slice of its track, arrows of each CAT, the Perfetto trace checks.
windowed() {
	_w_name=$1 _w_win=$2
	shift 2
	# shellcheck disable=SC2086
	"$ANALYZE" "$T/$_w_name" $_w_win -o "$T/$_w_name.w.json" 2>"$T/$_w_name.w.err" &&
		"$ANALYZE" "$T/$_w_name" $_w_win -f perfetto -o "$T/$_w_name.w.pftrace" \
			2>>"$T/$_w_name.w.err" &&
		"$PY" -B "$CHECKS" in-slices "$T/$_w_name.w.json" "$@" &&
		"$PY" -B "$PFTRACE" check "$T/$_w_name.w.pftrace" >/dev/null
}
windowed hip "$HIPW" launch
ok $? "hip-multi $HIPW: no launch arrow from the call left out, the others kept; Perfetto checks"
windowed nccl "--start 40 --end 400" nccl launch
ok $? "nccl-window --start 40: no collective's arrow at rank 0's call left out, the second AllReduce's drawn; Perfetto checks"

"$top_builddir/tests/tools/gen-profile" -r 6 -s 4 "$T/gen" >/dev/null &&
	"$ANALYZE" "$T/gen" -o "$T/gen.json" 2>/dev/null &&
	GENEND=$("$PY" -B "$CHECKS" cut-collective "$T/gen.json" end) &&
	GENSTART=$("$PY" -B "$CHECKS" cut-collective "$T/gen.json" start)
ok $? "a generated MPI job of 6 ranks, and windows that cut a collective: $GENEND; $GENSTART"
windowed gen "$GENEND" mpi
ok $? "gen $GENEND: no collective arrow from the last member's call left out, the others kept; Perfetto checks"
windowed gen "$GENSTART" mpi
ok $? "gen $GENSTART: no collective arrow to a call left out before it; Perfetto checks"

# shellcheck disable=SC2086
$MPIRUN $MPIRUN_FLAGS -np 2 "$ANALYZE" --parallel "$T/nccl" --start 40 --end 400 -f perfetto \
	-o "$T/par.pftrace" >/dev/null 2>"$T/par.err"
ok $? "mpirun -np 2 tprof-analyze --parallel with the same window writes its Perfetto parts"
_rc=0
for p in "$T"/par.part-*.pftrace; do
	"$PY" -B "$PFTRACE" check --flow-halves "$p" >/dev/null || _rc=1
done
[ "$_rc" = 0 ] && [ "$(ls "$T"/par.part-*.pftrace | wc -l)" = 2 ]
ok $? "each of its 2 parts checks alone (arrow halves inside slices of their tracks)"
finish
