#!/bin/sh
# tprof.torch.profile on a small training loop (apps/python-torch.py), run by Debian's own
# python3 with its PyTorch (python3-torch, 1.13, without Kineto): under tprof-inspect,
# PyTorch's trace lands in the profile directory as <host>.<pid>.pt.trace.json, one JSON
# object with the "tprof" key, ProfilerStep#N for every step at the moment tprof's step N
# begins, pid and tid rewritten; without the profiler it lands in the directory given, or
# the current one; with a schedule, one trace a cycle.
. "$(dirname "$0")/lib.sh"
need_torch
plan 17

APP="$top_srcdir/tests/apps/python-torch.py"
PYDIR=$(cd "$top_srcdir/python" && pwd -P)
export PYTHONDONTWRITEBYTECODE=1
mkdir "$T/rec" "$T/plain" "$T/given"

(cd "$T/rec" && "$INSPECT" -o "$T/out" -- "$SYS_PY" "$APP" "$T/rec.facts") >"$T/rec.out" 2>"$T/rec.err"
rc=$?
ok $rc "the training loop runs under tprof-inspect (exit status 0)"
[ $rc -eq 0 ] || diag "$(cat "$T/rec.err")"
# The trace written, named as tprof.torch names it.
trace=$(py '
import json, sys
f = json.load(open(sys.argv[1]))
print("%s/%s.%d.pt.trace.json" % (sys.argv[2], f["host"].replace("/", "_"), f["pid"]))
' "$T/rec.facts" "$T/out" 2>/dev/null)
check "the trace is in the profile directory as <host>.<pid>.pt.trace.json, and nothing else is" py '
import json, os, sys
f = json.load(open(sys.argv[1]))
files = sorted(os.listdir(sys.argv[2]))
others = [n for n in files if not n.endswith(".tpf") and n != os.path.basename(sys.argv[3])]
if f["paths"] != [sys.argv[3]] or not os.path.isfile(sys.argv[3]) or others:
    sys.exit("paths %s; files %s" % (f["paths"], files))
if not f["enabled"] or os.listdir(sys.argv[4]):
    sys.exit("enabled %s; cwd %s" % (f["enabled"], os.listdir(sys.argv[4])))
' "$T/rec.facts" "$T/out" "$trace" "$T/rec"
check "one JSON object: \"tprof\" (host, pid, the loop's tid, source, torch, base_us, threads), traceEvents" py '
import json, sys
f = json.load(open(sys.argv[1]))
d = json.load(open(sys.argv[2]))
if list(d) != ["tprof", "traceEvents"]: sys.exit("keys %s" % list(d))
t = d["tprof"]
want = {"host": f["host"], "pid": f["pid"], "tid": f["main_tid"], "source": "torch.profiler",
        "torch": f["torch"]}
if {k: t.get(k) for k in want} != want: sys.exit("tprof %s, want %s" % (t, want))
if not isinstance(t.get("base_us"), int) or t["threads"].get("1") != f["main_tid"]: sys.exit("tprof %s" % t)
' "$T/rec.facts" "$trace"
check "ProfilerStep#0 to #6, once each, in order, on the loop's thread" py '
import json, sys
f = json.load(open(sys.argv[1]))
ev = json.load(open(sys.argv[2]))["traceEvents"]
steps = sorted((e["ts"], e["name"], e["pid"], e["tid"]) for e in ev if e["name"].startswith("ProfilerStep#"))
names = [s[1] for s in steps]
if names != ["ProfilerStep#%d" % n for n in range(f["steps"] + 1)]: sys.exit("steps %s" % names)
if any((p, t) != (f["pid"], f["main_tid"]) for _, _, p, t in steps): sys.exit("steps on %s" % steps)
' "$T/rec.facts" "$trace"
check "events have the process id; the loop thread its native tid, the inter-op thread minus its number" py '
import collections, json, sys
f = json.load(open(sys.argv[1]))
d = json.load(open(sys.argv[2]))
ev, threads = d["traceEvents"], d["tprof"]["threads"]
if any(e["pid"] != f["pid"] for e in ev): sys.exit("pids %s" % {e["pid"] for e in ev})
tids = collections.Counter(e["tid"] for e in ev)
if set(tids) != set(threads.values()): sys.exit("tids %s, threads %s" % (dict(tids), threads))
other = [t for t in tids if t != f["main_tid"]]
if not other or any(int(k) != -v for k, v in threads.items() if v != f["main_tid"]):
    sys.exit("no event of another thread, or not minus its number: %s %s" % (dict(tids), threads))
mm = {e["tid"] for e in ev if e["name"] == "aten::mm"}
if not mm & set(other): sys.exit("aten::mm (the forks) on %s only" % mm)
' "$T/rec.facts" "$trace"
check "the record_function named with a quote, a backslash and a tab is there 6 times, exactly" py '
import json, sys
f = json.load(open(sys.argv[1]))
ev = json.load(open(sys.argv[2]))["traceEvents"]
n = sum(e["name"] == f["odd_name"] for e in ev)
if n != f["steps"]: sys.exit("%d events named %r" % (n, f["odd_name"]))
' "$T/rec.facts" "$trace"
"$ANALYZE" "$T/out" --summary=json >"$T/summary.json" 2>"$T/analyze.err" &&
	"$ANALYZE" "$T/out" --format chrome -o "$T/chrome.json" 2>>"$T/analyze.err"
ok $? "tprof-analyze reads the profile (--summary=json, --format chrome)"
"$ANALYZE" "$T/out" --summary >"$T/summary.txt" 2>/dev/null
check "one process, its PyTorch trace merged into it (not counted as one more); text and JSON agree" \
	py '
import json, os, subprocess, sys
h = json.load(open(sys.argv[1]))["header"]
p = h["process_list"]
if h["processes"] != 1 or len(p) != 1 or p[0]["index"] != 1 or \
        p[0]["imported"] != [{"file": os.path.basename(sys.argv[2])}]:
    sys.exit("processes %d: %s" % (h["processes"], [(x["index"], x["label"], x["imported"]) for x in p]))
if "[with %s imported]" % os.path.basename(sys.argv[2]) not in open(sys.argv[3]).read():
    sys.exit("the text does not say it")
subprocess.check_call([sys.executable, sys.argv[4], sys.argv[3], sys.argv[1]])
' "$T/summary.json" "$trace" "$T/summary.txt" "$top_srcdir/tests/func/summary-compare.py"
"$ANALYZE" -v --import "$trace" --summary=json >"$T/alone.json" 2>"$T/alone.err"
check "the PyTorch trace alone: on the date its base_us gives, and said to be placed by it" py '
import json, sys
h = json.load(open(sys.argv[1]))["header"]
base = json.load(open(sys.argv[2]))["tprof"]["base_us"] * 1000
if not h["dated"] or abs(h["trace_start_unix_ns"] - base) > 60e9 or \
        "placed by the realtime its writer gave (tprof.base_us)" not in open(sys.argv[3]).read():
    sys.exit("starts %s (%s), base_us %d; %s" % (h["trace_start_utc"], h["dated"], base,
                                                 open(sys.argv[3]).read()))
' "$T/alone.json" "$trace" "$T/alone.err"
check "tprof's steps 0 to 6 are in the profile" py '
import json, sys
s = json.load(open(sys.argv[1]))["steps"]
if s is None or s["count"] != 7 or sorted(x["step"] for x in s["slowest"]) != list(range(7)):
    sys.exit("steps %s" % s)
' "$T/summary.json"
# The helper begins ProfilerStep#N right before tprof.step(N); a busy machine may preempt
# the thread in between, which delays a step of tprof's by a time slice.  PyTorch's trace is
# dated by its trace_start_us, read apart from the base of its timestamps: a preemption
# between the two moves the whole of it by a time slice (seen: every step 9 to 11 ms late).
# So the clocks' agreement is judged on the median step, within 30 ms (a time slice or two,
# where a wrong date would be off by seconds), and every ProfilerStep#N must lie before
# tprof's step N+1 begins (steps last 20 ms).
check "tprof's step N and ProfilerStep#N begin together (the median within 30 ms; each before step N+1)" pyc '
chrome, trace = load(sys.argv[1]), load(sys.argv[2])
base = chrome["otherData"]["trace_start_realtime_ns"]
tp = {e["args"]["step"]: base + ns(e["ts"]) for e in events(chrome) if e.get("cat") == "step"}
pt = {int(e["name"][13:]): trace["tprof"]["base_us"] * 1000 + ns(e["ts"])
      for e in trace["traceEvents"] if e["name"].startswith("ProfilerStep#")}
if sorted(tp) != sorted(pt): sys.exit("steps %s and %s" % (sorted(tp), sorted(pt)))
off = {n: (pt[n] - tp[n]) / 1e6 for n in tp}
mid = sorted(off.values())[len(off) // 2]
late = [n for n in tp if n + 1 in tp and pt[n] >= tp[n + 1]]
if abs(mid) > 30 or late: sys.exit("ProfilerStep#N - step N, ms: %s; after step N+1: %s" % (off, late))
print("# ProfilerStep#N - step N, ms: %s" % {n: round(v, 3) for n, v in off.items()})
' "$T/chrome.json" "$trace"
check "tprof's last step ends when profiling stops (before the mark made after it), not at the exit" pyc '
ev = events(load(sys.argv[1]))
last = max((e for e in ev if e.get("cat") == "step"), key=lambda e: e["args"]["step"])
mark = [e for e in ev if e["name"] == "profiling stopped"]
if len(mark) != 1 or ns(last["ts"]) + ns(last["dur"]) > ns(mark[0]["ts"]):
    sys.exit("step %d ends at %s; the mark %s" % (last["args"]["step"], last["ts"] + last["dur"],
                                                [e["ts"] for e in mark]))
' "$T/chrome.json"

# ---- without the profiler ----------------------------------------------------------------
(cd "$T/plain" && env -u TPROF_ENABLE -u LD_PRELOAD PYTHONPATH="$PYDIR" "$SYS_PY" "$APP" \
	"$T/plain.facts") >"$T/plain.out" 2>"$T/plain.err"
ok $? "without the profiler the loop runs too (exit status 0)"
check "it prints the same" cmp -s "$T/rec.out" "$T/plain.out"
check "the trace lands in the current directory, in the same form; tprof.enabled() is False" py '
import json, os, sys
f = json.load(open(sys.argv[1]))
want = os.path.join(sys.argv[2], "%s.%d.pt.trace.json" % (f["host"].replace("/", "_"), f["pid"]))
if f["enabled"] or f["paths"] != [want] or os.listdir(sys.argv[2]) != [os.path.basename(want)]:
    sys.exit("facts %s; files %s" % (f, os.listdir(sys.argv[2])))
d = json.load(open(want))
if d["tprof"]["pid"] != f["pid"] or d["tprof"]["tid"] != f["main_tid"]: sys.exit("tprof %s" % d["tprof"])
if sum(e["name"].startswith("ProfilerStep#") for e in d["traceEvents"]) != 7: sys.exit("steps")
' "$T/plain.facts" "$T/plain"
(cd "$T/plain" && env -u TPROF_ENABLE -u LD_PRELOAD PYTHONPATH="$PYDIR" "$SYS_PY" "$APP" \
	"$T/given.facts" "$T/given/sub") >/dev/null 2>"$T/given.err"
check "or in the directory given, created if missing" py '
import json, os, sys
f = json.load(open(sys.argv[1]))
if len(f["paths"]) != 1 or os.path.dirname(f["paths"][0]) != sys.argv[2] or not os.path.isfile(f["paths"][0]):
    sys.exit("paths %s" % f["paths"])
' "$T/given.facts" "$T/given/sub"
mkdir "$T/sched"
check "a schedule of two cycles: traces <host>.<pid> and <host>.<pid>.2, with the steps each recorded" \
	env -u TPROF_ENABLE -u LD_PRELOAD PYTHONPATH="$PYDIR" "$SYS_PY" -c '
import json, os, socket, sys, torch, tprof.torch
seen = []
sched = torch.profiler.schedule(wait=1, warmup=1, active=2, repeat=2)
model = torch.nn.Linear(4, 2)
ready = lambda p: seen.append(p.step_num)
with tprof.torch.profile(sys.argv[1], schedule=sched, on_trace_ready=ready) as prof:
    for i in range(10):
        model(torch.ones(2, 4))
        prof.step()
stem = os.path.join(sys.argv[1], "%s.%d" % (socket.gethostname().replace("/", "_"), os.getpid()))
want = [stem + ".pt.trace.json", stem + ".2.pt.trace.json"]
if prof.paths != want or sorted(os.listdir(sys.argv[1])) != sorted(os.path.basename(p) for p in want):
    sys.exit("paths %s, files %s" % (prof.paths, os.listdir(sys.argv[1])))
steps = [sorted(e["name"] for e in json.load(open(p))["traceEvents"] if e["name"].startswith("ProfilerStep#"))
         for p in want]
if steps != [["ProfilerStep#2", "ProfilerStep#3"], ["ProfilerStep#6", "ProfilerStep#7"]] or seen != [4, 8]:
    sys.exit("steps %s, on_trace_ready at %s" % (steps, seen))
' "$T/sched"
finish
