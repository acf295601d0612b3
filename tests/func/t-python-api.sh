#!/bin/sh
# The tprof Python module (python/tprof) on apps/python-api.py, run by Debian's own python3:
# under tprof-inspect every range (with its nesting, on its thread), mark, step and counter is
# recorded; without the profiler the same program prints the same and records nothing, and
# so it does with TPROF_ENABLE=0 or with only libtprof.so in the process.
. "$(dirname "$0")/lib.sh"
SYS_PY=${SYSTEM_PYTHON3:-/usr/bin/python3}
[ -x "$SYS_PY" ] || skip_all "no $SYS_PY (Debian's own python3)"
plan 19

APP="$top_srcdir/tests/apps/python-api.py"
PYDIR=$(cd "$top_srcdir/python" && pwd -P)
LIBTPROF="$top_builddir/api/.libs/libtprof.so.0"
export PYTHONDONTWRITEBYTECODE=1
mkdir "$T/plain" "$T/rec"

# ---- without the profiler ----------------------------------------------------------------
(cd "$T/plain" && env -u TPROF_ENABLE -u LD_PRELOAD PYTHONPATH="$PYDIR" "$SYS_PY" "$APP" \
	"$T/plain.facts") >"$T/plain.out" 2>"$T/plain.err"
ok $? "without the profiler the program runs (exit status 0)"
check "step(-1), step(2**64) raise ValueError; step(None, \"1\", 1.5, object()) and counter(None, \"2\") TypeError" \
	grep -qx "misuse: \[.ValueError., .ValueError., .TypeError., .TypeError., .TypeError., .TypeError., .TypeError., .TypeError.\]" "$T/plain.out"
pycheck "tprof.enabled() is False, import tprof loaded no torch, nothing was written" \
	plain-facts "$T/plain.facts" "$T/plain" "$T/plain.err"

# ---- under tprof-inspect -------------------------------------------------------------------
(cd "$T/rec" && PYTHONPATH=/user/entry "$INSPECT" -o "$T/out" -- "$SYS_PY" "$APP" \
	"$T/rec.facts") >"$T/rec.out" 2>"$T/rec.err"
ok $? "under tprof-inspect the program runs (exit status 0)"
check "its output is the same as without the profiler" cmp -s "$T/plain.out" "$T/rec.out"
pycheck "tprof.enabled() is True; tprof came from the source tree, put first on PYTHONPATH" \
	recorded-facts "$T/rec.facts" "$PYDIR"
"$ANALYZE" "$T/out" --summary=json >"$T/summary.json" 2>"$T/analyze.err"
ok $? "tprof-analyze --summary=json reads the profile"
pycheck "the summary has every range, mark and step, each as often as it was called \
(no step -1, none of the calls that raised)" summary-calls "$T/summary.json"
pycheck "counter values: loss 0, 1.5, 3, 4.5 then 0.25 (not None or \"2\"); the worker's 7" \
	summary-counters "$T/summary.json"
"$ANALYZE" "$T/out" --format chrome -o "$T/trace.json" 2>>"$T/analyze.err"
ok $? "tprof-analyze --format chrome writes the trace"
pycheck "each thread's ranges are on its own track, nested as the program opened them" \
	nested-ranges "$T/trace.json" "$T/rec.facts"
pycheck "marks on their threads, inside their ranges; steps 0 to 3 in order, the last ended \
by step_end(); counter values in order" marks-steps-counters "$T/trace.json" "$T/rec.facts"

# ---- the recorder loaded but not asked to record; libtprof.so in the global scope ----------
mkdir "$T/off"
TPROF_ENABLE=0 TPROF_OUTPUT_DIR="$T/off" LD_PRELOAD="$PRELOAD_ENV" PYTHONPATH="$PYDIR" \
	"$SYS_PY" "$APP" "$T/off.facts" >"$T/off.out" 2>"$T/off.err"
ok $? "with TPROF_ENABLE=0 and the recorder preloaded the program runs"
pycheck "it prints the same, tprof.enabled() is False and nothing is recorded" \
	disabled-run "$T/off.facts" "$T/plain.out" "$T/off.out" "$T/off"
# global-library: libtprof.so loaded RTLD_GLOBAL before import tprof, two marks.
out=$(TPROF_ENABLE=1 TPROF_OUTPUT_DIR="$T/lib" PYTHONPATH="$PYDIR" "$SYS_PY" -B "$CHECKS" \
	global-library "$LIBTPROF" 2>"$T/lib.err")
[ "$out" = False ] && [ ! -e "$T/lib" ]
ok $? "TPROF_ENABLE=1 with libtprof.so global but no recorder: tprof.enabled() is False ($out)"
[ "$(grep -c "RuntimeWarning: TPROF_ENABLE=1 asks for recording, but the recorder (libtrace_preload.so) is not loaded in this process: nothing is recorded" "$T/lib.err")" = 1 ]
ok $? "and it says so, once: $(head -c 300 "$T/lib.err")"
out=$(record_env "$T/both" env PYTHONPATH="$PYDIR" "$SYS_PY" -B "$CHECKS" \
	global-library "$LIBTPROF" 2>&1)
[ "$out" = True ]
ok $? "with the recorder preloaded and libtprof.so global too, tprof.enabled() is True ($out)"
"$ANALYZE" "$T/both" --summary=json >"$T/both.json" 2>>"$T/analyze.err"
pycheck "tprof's calls reach the recorder, and so does a call through libtprof.so's own handle" \
	both-marks "$T/both.json"
# ctypes.CDLL("libtprof.so"), the natural route without the module: libtprof hands every call
# to the recorder, the step end too.
out=$(record_env "$T/ctypes" env "$SYS_PY" -B "$CHECKS" through-ctypes "$LIBTPROF" 2>&1) &&
	"$ANALYZE" "$T/ctypes" --format chrome -o "$T/ctypes.json" 2>>"$T/analyze.err"
pycheck "ctypes.CDLL(libtprof.so) under the recorder: range (level 0), mark, counter, step 7 \
ended by tprof_step_end ($(echo $out))" ctypes-trace "$T/ctypes.json" "$(echo $out)"
finish
