#!/bin/sh
# 16 threads record known numbers of events; the Chrome trace and the summary must hold
# exactly those, one track per thread, with ranges properly nested.
. "$(dirname "$0")/lib.sh"
plan 6

out="$T/out"
"$INSPECT" -o "$out" -- "$APPS/threads" 16 1000 >"$T/stdout" 2>"$T/stderr"
ok $? "tprof-inspect runs the program and returns its status"
check "the program's own output is unchanged" grep -qx 'threads=16 iterations=1000' "$T/stdout"
"$ANALYZE" "$out" --format chrome -o "$T/trace.json" 2>"$T/analyze.err"
ok $? "tprof-analyze writes a Chrome trace"
check "the trace is valid JSON with the exact event counts" py '
import json, sys, collections
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"]
ranges = [e for e in ev if e["ph"] == "X" and e["cat"] == "range"]
marks = [e for e in ev if e["ph"] == "i"]
counters = [e for e in ev if e["ph"] == "C"]
steps = [e for e in ev if e.get("cat") == "step"]
want = {"ranges": 32000, "marks": 16000, "counters": 16000, "steps": 2}
got = {"ranges": len(ranges), "marks": len(marks), "counters": len(counters), "steps": len(steps)}
if got != want:
    sys.exit("counts %s, want %s" % (got, want))
names = collections.Counter(e["name"] for e in ranges)
if names["outer"] != 16000 or any(names["worker %d" % i] != 1000 for i in range(16)):
    sys.exit("range names %s" % names)
tids = {e["tid"] for e in ranges}
if len(tids) != 16:
    sys.exit("%d thread tracks, want 16" % len(tids))
' "$T/trace.json"
check "every inner range nests inside an outer range of its thread" py '
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
by = {}
for e in ev:
    if e["ph"] == "X" and e["cat"] == "range":
        by.setdefault(e["tid"], []).append(e)
for tid, rs in by.items():
    outer = sorted((e["ts"], e["ts"] + e["dur"]) for e in rs if e["name"] == "outer")
    inner = sorted((e["ts"], e["ts"] + e["dur"]) for e in rs if e["name"] != "outer")
    for (a, b), (c, d) in zip(outer, inner):
        if not (a < c and d <= b + 1e-9):
            sys.exit("tid %d: inner %s not inside outer %s" % (tid, (c, d), (a, b)))
' "$T/trace.json"
"$ANALYZE" "$out" --summary >"$T/summary" 2>>"$T/analyze.err"
check "the summary counts the same calls" py '
import re, sys
s = open(sys.argv[1]).read()
m = re.search(r"^\s*\S+ %\s+\S+ \S+\s+([\d,]+)\s.*\souter$", s, re.M)
if not m or m.group(1) != "16,000":
    sys.exit("outer row: %r" % (m and m.group(0)))
if not re.search(r"events: 64,002", s):
    sys.exit("events line missing or wrong:\n" + s)
' "$T/summary"
finish
