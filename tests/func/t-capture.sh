#!/bin/sh
# The capture window: what tprof-inspect --steps, --delay/--duration, --capture-signal with
# --start-paused and --capture-range api leave recorded, and the program's own tprof_stop /
# tprof_start (C and Python), hipProfilerStart/Stop and roctxProfilerResume/Pause.  Outside
# the window nothing is recorded; a range pushed inside and popped outside keeps its end, one
# pushed outside leaves no unmatched pop, a copy launched inside and ending outside is kept
# whole; the summary says how much of the run was recorded and why.  No check depends on how
# fast the machine is: the signal test waits for the program to reach a step before signalling.
. "$(dirname "$0")/lib.sh"
plan 21

APP="$APPS/capture"
# facts DIR: what its profile holds, one JSON line: the capture windows (the summary's JSON),
# the steps, the events of each name (its Chrome trace), the pops without a push.
facts() {
	"$ANALYZE" "$1" --summary --summary-format json >"$T/sum.json" 2>"$T/analyze.err" &&
		"$ANALYZE" "$1" --format chrome -o "$T/trace.json" 2>>"$T/analyze.err" &&
		"$PY" -B "$CHECKS" facts "$T/sum.json" "$T/trace.json"
}
# Each check of the facts (capture.py) passes when they hold, else prints them on stderr.

# --steps 3:5: those steps, their ranges and marks, nothing before or after.
"$INSPECT" -o "$T/steps" --steps 3:5 -- "$APP" steps 10 5 >"$T/out" 2>"$T/err"
ok $? "--steps 3:5: the program runs ($(tail -1 "$T/err"))"
f=$(facts "$T/steps")
pycheck "--steps 3:5 records steps 3, 4 and 5 alone, a range and a mark each, one window opened "\
"and closed by --steps ($f)" \
	steps-3-5 "$f"
"$ANALYZE" "$T/steps" --summary >"$T/sum.txt" 2>&1
check "the summary says what was recorded and why ($(grep recorded: "$T/sum.txt"))" \
	grep -Eq '^  recorded:    .* of the .* in 1 capture window \(opened by --steps; closed by --steps\)$' "$T/sum.txt"
"$PY" "$top_srcdir/tests/tools/summary-compare.py" "$T/sum.txt" "$T/sum.json"
ok $? "the JSON summary holds what the text says of the capture window"

# --delay then --duration: one window, opened and closed by them; the steps inside alone.
"$INSPECT" -o "$T/delay" --delay 0.2 --duration 0.3 -- "$APP" steps 30 100 >"$T/out" 2>"$T/err"
ok $? "--delay 0.2 --duration 0.3: the program runs"
check "tprof-inspect says when recording resumed and ended ($(grep recording "$T/err" | tr '\n' ' '))" \
	sh -c 'grep -qx "tprof-inspect: recording resumed (--delay)" "$1" && grep -qx "tprof-inspect: recording ended (--duration)" "$1"' - "$T/err"
f=$(facts "$T/delay")
pycheck "one window opened by --delay, closed by --duration, some of the 30 steps in it, in a "\
"row, not all ($f)" \
	delay-duration "$f"

# --capture-signal with --start-paused: the job's processes (two here) start paused; the
# signal, sent once the program reached step 5, resumes both, and sent again once it reached
# step 12 pauses both; it never reaches the program (USR2 would kill it).
mkdir -p "$T/flags"
"$INSPECT" -o "$T/sig" --capture-signal USR2 --start-paused -- \
	sh -c '"$1" steps 30 100 "$2" & "$1" steps 30 100; wait' - "$APP" "$T/flags" >"$T/out" 2>"$T/err" &
pid=$!
wait_for() { n=0; while [ ! -e "$1" ] && [ $n -lt 1200 ]; do sleep 0.1; n=$((n + 1)); done; }
wait_for "$T/flags/at5"
kill -USR2 $pid
wait_for "$T/flags/at12"
kill -USR2 $pid
wait $pid
ok $? "--capture-signal USR2 --start-paused: the command runs, the signal not passed on ($(grep recording "$T/err" | tr '\n' ' '))"
f=$(facts "$T/sig")
pycheck "both processes record from the first signal to the second: steps from 5 on, 13 at most "\
"($f)" \
	capture-signal "$f"

# The program's tprof_stop and tprof_start: steps 3 to 5 unrecorded; "kept", pushed before
# the stop and popped after it, keeps its end; "unseen", pushed while stopped, is not
# recorded, nor is its pop.
"$INSPECT" -o "$T/api" -- "$APP" api >"$T/out" 2>"$T/err"
ok $? "tprof_stop/tprof_start: the program runs"
f=$(facts "$T/api")
pycheck "steps 0-2 and 6-9 recorded, the range begun inside kept whole, none begun outside, no "\
"pop without a push ($f)" \
	stop-start "$f"

# Python's tprof.stop() and tprof.start().
"$INSPECT" -o "$T/py" -- "$PY" -B "$CHECKS" python-program >"$T/out" 2>"$T/err"
ok $? "Python: tprof.stop() and tprof.start() run under the recorder"
f=$(facts "$T/py")
pycheck "Python: the marks before the stop and after the start alone ($f)" python-marks "$f"

# --capture-range api with the HIP runtime and roctx: paused until hipProfilerStart; the copy
# launched inside and still running at hipProfilerStop is kept whole; roctxProfilerResume and
# roctxProfilerPause bracket one hipGetDeviceCount.
if [ -n "${STANDIN_LIBDIR:-}" ] && [ -e "$STANDIN_LIBDIR/libamdhip64.so.5" ]; then
	LD_LIBRARY_PATH="$STANDIN_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" STANDIN_HIP_COPY_GBPS=0.01 \
		"$INSPECT" -o "$T/hip" --capture-range api -- "$PY" "$top_srcdir/tests/apps/hip-capture.py" >"$T/out" 2>"$T/err"
	ok $? "--capture-range api: the HIP program runs ($(cat "$T/out"))"
	f=$(facts "$T/hip")
	pycheck "hipProfilerStart..Stop and roctxProfilerResume..Pause recorded alone; the copy "\
"in flight at the stop kept ($f)" \
		hip-range "$f"
	pycheck "the copy's device span ends after hipProfilerStop returned: it finished "\
"outside the window" \
		copy-after-stop "$T/trace.json"
else
	ok 1 "no stand-in HIP runtime (STANDIN_LIBDIR): the HIP capture range cannot be tried"
	ok 1 "(the same)"
	ok 1 "(the same)"
fi

# MPI ranks paused throughout (--start-paused, never signalled): each process still has its
# files from its start, so what MPI_Init says of it (its rank) is kept, and the summary says
# nothing was recorded and why.
if [ -n "${MPIRUN:-}" ] && [ "$MPIRUN" != no ] && [ -x "$APPS/mpi-pattern" ]; then
	"$INSPECT" -o "$T/mpi" --capture-signal USR2 --start-paused -- "$MPIRUN" $MPIRUN_FLAGS -np 2 \
		"$APPS/mpi-pattern" >"$T/out" 2>"$T/err"
	ok $? "MPI ranks under --start-paused run"
	"$ANALYZE" "$T/mpi" --summary >"$T/mpi.txt" 2>&1
	grep -q '^  recorded:    nothing: paused from the start to the end (closed by --start-paused)$' "$T/mpi.txt" &&
		grep -Eq '^ +1  rank 0 \(' "$T/mpi.txt" && grep -Eq '^ +2  rank 1 \(' "$T/mpi.txt"
	ok $? "the ranks are named by their rank, the summary says nothing was recorded and why ($(grep -E 'recorded:|rank' "$T/mpi.txt" | tr '\n' '|'))"
else
	ok 1 "no mpirun or tests/apps/mpi-pattern (MPIRUN=${MPIRUN:-}): MPI ranks under a closed window cannot be tried"
	ok 1 "(the same)"
fi

# Bad values name the option; the gate file is gone after the run.
"$INSPECT" --steps 5:3 -- true 2>"$T/err"
[ $? -eq 2 ] && grep -q "invalid value '5:3' for --steps" "$T/err"
ok $? "--steps 5:3 is refused with status 2, naming the option ($(head -1 "$T/err"))"
"$INSPECT" --start-paused -- true 2>"$T/err"
[ $? -eq 2 ] && grep -q -- "--start-paused needs --capture-signal" "$T/err"
ok $? "--start-paused without --capture-signal is refused ($(head -1 "$T/err"))"
[ -z "$(find "$T/delay" "$T/sig" -name '.tprof-capture.*')" ]
ok $? "tprof-inspect removes its capture file at the end"
