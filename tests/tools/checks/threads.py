"""threads.py — the checks of func/t-threads.sh on what tprof-analyze wrote of apps/threads
(16 threads of 1000 iterations): its Chrome trace and its text summary."""
import collections
import json
import re

from checklib import fail, main


def _ranges(trace):
    """The range events of a Chrome trace."""
    ev = json.load(open(trace))["traceEvents"]
    return [e for e in ev if e["ph"] == "X" and e["cat"] == "range"]


def exact_counts(trace):
    """The trace is valid JSON with the exact event counts."""
    d = json.load(open(trace))
    ev = d["traceEvents"]
    ranges = [e for e in ev if e["ph"] == "X" and e["cat"] == "range"]
    marks = [e for e in ev if e["ph"] == "i"]
    counters = [e for e in ev if e["ph"] == "C"]
    steps = [e for e in ev if e.get("cat") == "step"]
    want = {"ranges": 32000, "marks": 16000, "counters": 16000, "steps": 2}
    got = {"ranges": len(ranges), "marks": len(marks), "counters": len(counters),
           "steps": len(steps)}
    if got != want:
        fail("counts %s, want %s" % (got, want))
    names = collections.Counter(e["name"] for e in ranges)
    if names["outer"] != 16000 or any(names["worker %d" % i] != 1000 for i in range(16)):
        fail("range names %s" % names)
    tids = {e["tid"] for e in ranges}
    if len(tids) != 16:
        fail("%d thread tracks, want 16" % len(tids))


def ranges_nest(trace):
    """Every inner range nests inside an outer range of its thread."""
    by = {}
    for e in _ranges(trace):
        by.setdefault(e["tid"], []).append(e)
    for tid, rs in by.items():
        outer = sorted((e["ts"], e["ts"] + e["dur"]) for e in rs if e["name"] == "outer")
        inner = sorted((e["ts"], e["ts"] + e["dur"]) for e in rs if e["name"] != "outer")
        for (a, b), (c, d) in zip(outer, inner):
            if not (a < c and d <= b + 1e-9):
                fail("tid %d: inner %s not inside outer %s" % (tid, (c, d), (a, b)))


def summary_counts(summary):
    """The summary counts the same calls."""
    s = open(summary).read()
    m = re.search(r"^\s*\S+ %\s+\S+ \S+\s+([\d,]+)\s.*\souter$", s, re.M)
    if not m or m.group(1) != "16,000":
        fail("outer row: %r" % (m and m.group(0)))
    if not re.search(r"events: 64,002", s):
        fail("events line missing or wrong:\n" + s)


main(globals())
