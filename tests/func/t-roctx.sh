#!/bin/sh
# roctx annotations are recorded like the tprof API: pushed ranges nest per thread, marks are
# instants, and a range started on one thread and stopped on another becomes one async
# range; the library's own return values (levels, ids) reach the program unchanged.
. "$(dirname "$0")/lib.sh"
[ -x "$APPS/roctx-ranges" ] || skip_all "roctx-ranges was not built"
LD_LIBRARY_PATH="$STANDIN_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export LD_LIBRARY_PATH
plan 5

"$INSPECT" -o "$T/out" -- "$APPS/roctx-ranges" >"$T/stdout" 2>"$T/stderr"
ok $? "the program runs under tprof-inspect"
check "roctx's own return values are unchanged" grep -qx 'levels=0,1 pops=1,0,neg id=1' "$T/stdout"
"$ANALYZE" "$T/out" --format chrome -o "$T/trace.json" 2>"$T/analyze.err"
ok $? "tprof-analyze writes a Chrome trace"
check "outer contains inner on the main thread; 100 worker ranges and marks on the other" py '
import json, sys, collections
ev = json.load(open(sys.argv[1]))["traceEvents"]
r = [e for e in ev if e["ph"] == "X" and e.get("cat") == "roctx"]
n = collections.Counter(e["name"] for e in r)
if n != {"outer": 1, "inner": 1, "worker step": 100}: sys.exit("ranges %s" % n)
o = next(e for e in r if e["name"] == "outer"); i = next(e for e in r if e["name"] == "inner")
if o["tid"] != i["tid"] or not (o["ts"] < i["ts"] and i["ts"] + i["dur"] <= o["ts"] + o["dur"] + 1e-9):
    sys.exit("inner %s not in outer %s" % (i, o))
w = {e["tid"] for e in r if e["name"] == "worker step"}
marks = [e for e in ev if e["ph"] == "i" and e.get("cat") == "roctx"]
if len(w) != 1 or w == {o["tid"]} or len(marks) != 100 or {m["tid"] for m in marks} != w:
    sys.exit("worker threads %s, marks %d" % (w, len(marks)))
' "$T/trace.json"
check "the range crossing threads is one async range, begun before and ended after the worker's" py '
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
b = [e for e in ev if e["ph"] == "b"]; e_ = [e for e in ev if e["ph"] == "e"]
if len(b) != 1 or len(e_) != 1 or b[0]["id"] != e_[0]["id"] or b[0]["name"] != "crosses threads":
    sys.exit("async %s %s" % (b, e_))
w = [e for e in ev if e["ph"] == "X" and e["name"] == "worker step"]
if not b[0]["ts"] <= min(x["ts"] for x in w) or not e_[0]["ts"] >= max(x["ts"] + x["dur"] for x in w) - 1e-9:
    sys.exit("async %s..%s vs worker" % (b[0]["ts"], e_[0]["ts"]))
' "$T/trace.json"
finish
