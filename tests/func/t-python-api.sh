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
check "tprof.enabled() is False, import tprof loaded no torch, nothing was written" py '
import json, os, sys
f = json.load(open(sys.argv[1]))
if f["enabled"] is not False or f["torch_loaded"] is not False: sys.exit("facts %s" % f)
if os.listdir(sys.argv[2]): sys.exit("files %s" % os.listdir(sys.argv[2]))
if open(sys.argv[3]).read(): sys.exit("stderr: %s" % open(sys.argv[3]).read())
' "$T/plain.facts" "$T/plain" "$T/plain.err"

# ---- under tprof-inspect -------------------------------------------------------------------
(cd "$T/rec" && PYTHONPATH=/user/entry "$INSPECT" -o "$T/out" -- "$SYS_PY" "$APP" \
	"$T/rec.facts") >"$T/rec.out" 2>"$T/rec.err"
ok $? "under tprof-inspect the program runs (exit status 0)"
check "its output is the same as without the profiler" cmp -s "$T/plain.out" "$T/rec.out"
check "tprof.enabled() is True; tprof came from the source tree, put first on PYTHONPATH" py '
import json, os, sys
f = json.load(open(sys.argv[1]))
if f["enabled"] is not True or f["torch_loaded"] is not False: sys.exit("facts %s" % f)
if f["pythonpath"] != sys.argv[2] + ":/user/entry": sys.exit("PYTHONPATH %s" % f["pythonpath"])
if f["module"] != os.path.join(sys.argv[2], "tprof", "__init__.py"): sys.exit("module %s" % f["module"])
' "$T/rec.facts" "$PYDIR"
"$ANALYZE" "$T/out" --summary=json >"$T/summary.json" 2>"$T/analyze.err"
ok $? "tprof-analyze --summary=json reads the profile"
check "the summary has every range, mark and step, each as often as it was called (no step -1, none of the calls that raised)" py '
import json, sys
d = json.load(open(sys.argv[1]))
ranges = {r["name"]: r["calls"] for r in d["ranges"]["rows"]}
want = {"step body": 4, "Model.forward": 4, "matmul": 4, "loss": 4, "update": 4, "failing": 1,
        "inside failing": 1, "after failure": 1, "worker outer": 3, "worker inner": 3}
if ranges != want: sys.exit("ranges %s" % ranges)
marks = {r["name"]: r["count"] for r in d["marks"]["rows"]}
want = {"after forward": 4, "closing": 1, "worker mark": 3, "bytes name": 1, "unicode \u00e9\u4e2d": 1,
        "12": 1, "steps over": 1}
if marks != want: sys.exit("marks %s" % marks)
s = d["steps"]
if s is None or s["count"] != 4 or sorted(x["step"] for x in s["slowest"]) != [0, 1, 2, 3]:
    sys.exit("steps %s" % s)
if d["header"]["unfinished"] != 0 or d["header"]["skipped"]["unmatched_pops"] != 0:
    sys.exit("header %s" % d["header"])
' "$T/summary.json"
check "counter values: loss 0, 1.5, 3, 4.5 then 0.25 (not None or \"2\"); the worker's 7" py '
import json, sys
rows = {r["name"]: r for r in json.load(open(sys.argv[1]))["counters"]["rows"]}
l, w = rows.get("loss"), rows.get("worker counter")
if not l or (l["samples"], l["min"], l["max"], l["last"]) != (5, 0, 4.5, 0.25): sys.exit("loss %s" % l)
if not w or (w["samples"], w["last"]) != (1, 7): sys.exit("worker counter %s" % w)
' "$T/summary.json"
"$ANALYZE" "$T/out" --format chrome -o "$T/trace.json" 2>>"$T/analyze.err"
ok $? "tprof-analyze --format chrome writes the trace"
check "each thread's ranges are on its own track, nested as the program opened them" pyc '
f = json.load(open(sys.argv[2]))
ev = events(load(sys.argv[1]))
ranges = [e for e in ev if e["ph"] == "X" and e.get("cat") == "range"]
tids = {e["name"]: e["tid"] for e in ranges}
for n, t in tids.items():
    want = f["worker_tid"] if n.startswith("worker") else f["main_tid"]
    if t != want: sys.exit("range %s on tid %s, want %s" % (n, t, want))
def spans(name):
    return sorted((ns(e["ts"]), ns(e["ts"]) + ns(e["dur"])) for e in ranges if e["name"] == name)
def inside(inner, outer):
    return all(any(a <= c and d <= b for a, b in spans(outer)) for c, d in spans(inner))
for inner, outer in (("matmul", "Model.forward"), ("Model.forward", "step body"),
                     ("loss", "step body"), ("inside failing", "failing"),
                     ("worker inner", "worker outer")):
    if not inside(inner, outer): sys.exit("%s not inside %s" % (inner, outer))
for name, outer in (("update", "step body"), ("loss", "Model.forward"), ("after failure", "failing")):
    if inside(name, outer): sys.exit("%s inside %s" % (name, outer))
(fa, fb), = spans("failing")
(aa, ab), = spans("after failure")
if aa < fb: sys.exit("after failure starts at %d, before failing ends at %d" % (aa, fb))
' "$T/trace.json" "$T/rec.facts"
check "marks on their threads, inside their ranges; steps 0 to 3 in order, the last ended by step_end(); counter values in order" pyc '
f = json.load(open(sys.argv[2]))
ev = events(load(sys.argv[1]))
marks = [e for e in ev if e["ph"] == "i"]
for e in marks:
    want = f["worker_tid"] if e["name"] == "worker mark" else f["main_tid"]
    if e["tid"] != want: sys.exit("mark %s on tid %s" % (e["name"], e["tid"]))
body = [(ns(e["ts"]), ns(e["ts"]) + ns(e["dur"])) for e in ev if e.get("name") == "step body"]
for e in marks:
    if e["name"] == "after forward" and not any(a <= ns(e["ts"]) <= b for a, b in body):
        sys.exit("after forward at %s outside the step bodies" % e["ts"])
steps = sorted((e["ts"], e["args"]["step"]) for e in ev if e.get("cat") == "step")
if [s for _, s in steps] != [0, 1, 2, 3]: sys.exit("steps %s" % steps)
last = [e for e in ev if e.get("cat") == "step" and e["args"]["step"] == 3][0]
over = [e for e in marks if e["name"] == "steps over"][0]
if ns(last["ts"]) + ns(last["dur"]) > ns(over["ts"]):
    sys.exit("step 3 ends at %s, after the mark that follows tprof.step_end() (%s)" %
             (last["ts"] + last["dur"], over["ts"]))
loss = [e["args"]["value"] for e in sorted(ev, key=lambda e: e["ts"])
        if e["ph"] == "C" and e["name"] == "loss"]
if loss != [0, 1.5, 3, 4.5, 0.25]: sys.exit("loss %s" % loss)
' "$T/trace.json" "$T/rec.facts"

# ---- the recorder loaded but not asked to record; libtprof.so in the global scope ----------
mkdir "$T/off"
TPROF_ENABLE=0 TPROF_OUTPUT_DIR="$T/off" LD_PRELOAD="$PRELOAD_ENV" PYTHONPATH="$PYDIR" \
	"$SYS_PY" "$APP" "$T/off.facts" >"$T/off.out" 2>"$T/off.err"
ok $? "with TPROF_ENABLE=0 and the recorder preloaded the program runs"
check "it prints the same, tprof.enabled() is False and nothing is recorded" py '
import json, os, sys
if json.load(open(sys.argv[1]))["enabled"] is not False: sys.exit("enabled")
if open(sys.argv[2]).read() != open(sys.argv[3]).read(): sys.exit("output differs")
if os.listdir(sys.argv[4]): sys.exit("files %s" % os.listdir(sys.argv[4]))
' "$T/off.facts" "$T/plain.out" "$T/off.out" "$T/off"
GLOBAL='
import ctypes, sys
ctypes.CDLL(sys.argv[1], mode=ctypes.RTLD_GLOBAL)
import tprof
print(tprof.enabled())
tprof.mark("through tprof")
ctypes.CDLL(sys.argv[1]).tprof_mark(b"through the libtprof handle")
'
out=$(TPROF_ENABLE=1 TPROF_OUTPUT_DIR="$T/lib" PYTHONPATH="$PYDIR" "$SYS_PY" -c "$GLOBAL" "$LIBTPROF" 2>"$T/lib.err")
[ "$out" = False ] && [ ! -e "$T/lib" ]
ok $? "TPROF_ENABLE=1 with libtprof.so global but no recorder: tprof.enabled() is False ($out)"
[ "$(grep -c "RuntimeWarning: TPROF_ENABLE=1 asks for recording, but the recorder (libtrace_preload.so) is not loaded in this process: nothing is recorded" "$T/lib.err")" = 1 ]
ok $? "and it says so, once: $(head -c 300 "$T/lib.err")"
out=$(record_env "$T/both" env PYTHONPATH="$PYDIR" "$SYS_PY" -c "$GLOBAL" "$LIBTPROF" 2>&1)
[ "$out" = True ]
ok $? "with the recorder preloaded and libtprof.so global too, tprof.enabled() is True ($out)"
"$ANALYZE" "$T/both" --summary=json >"$T/both.json" 2>>"$T/analyze.err"
check "tprof's calls reach the recorder, and so does a call through libtprof.so's own handle" py '
import json, sys
marks = {r["name"]: r["count"] for r in json.load(open(sys.argv[1]))["marks"]["rows"]}
if marks != {"through tprof": 1, "through the libtprof handle": 1}: sys.exit("marks %s" % marks)
' "$T/both.json"
# ctypes.CDLL("libtprof.so"), the natural route without the module: libtprof hands every call
# to the recorder, the step end too.
CTYPES='
import ctypes, sys
lib = ctypes.CDLL(sys.argv[1])
lib.tprof_step.argtypes = [ctypes.c_uint64]
lib.tprof_counter.argtypes = [ctypes.c_char_p, ctypes.c_double]
lib.tprof_step(7)
print(lib.tprof_range_push(b"ctypes range"))
lib.tprof_mark(b"ctypes mark")
lib.tprof_counter(b"ctypes counter", 2.5)
print(lib.tprof_range_pop())
lib.tprof_step_end()
lib.tprof_mark(b"after the step")
'
out=$(record_env "$T/ctypes" env "$SYS_PY" -c "$CTYPES" "$LIBTPROF" 2>&1) &&
	"$ANALYZE" "$T/ctypes" --format chrome -o "$T/ctypes.json" 2>>"$T/analyze.err"
check "ctypes.CDLL(libtprof.so) under the recorder: range (level 0), mark, counter, step 7 ended by tprof_step_end ($(echo $out))" pyc '
ev = events(load(sys.argv[1]))
got = {(e.get("cat"), e["name"]) for e in ev if e["ph"] in ("X", "i", "C")}
want = {("range", "ctypes range"), ("mark", "ctypes mark"), ("step", "step 7")}
step = [e for e in ev if e.get("cat") == "step"]
after = [e for e in ev if e["name"] == "after the step"]
if sys.argv[2] != "0 0" or not want <= got or not any(e["ph"] == "C" for e in ev) or \
        len(step) != 1 or not after or ns(step[0]["ts"]) + ns(step[0]["dur"]) > ns(after[0]["ts"]):
    sys.exit("printed %r; %s" % (sys.argv[2], sorted(got)))
' "$T/ctypes.json" "$(echo $out)"
finish
