"""roctx.py — the checks of func/t-roctx.sh on the Chrome trace tprof-analyze wrote of
apps/roctx-ranges (roctx ranges and marks on the main thread and a worker, and a range
crossing threads)."""
import collections
import json

from checklib import fail, main


def _events(path):
    return json.load(open(path))["traceEvents"]


def nesting(trace):
    """Outer contains inner on the main thread; 100 worker ranges and marks on the other."""
    ev = _events(trace)
    r = [e for e in ev if e["ph"] == "X" and e.get("cat") == "roctx"]
    n = collections.Counter(e["name"] for e in r)
    if n != {"outer": 1, "inner": 1, "worker step": 100}:
        fail("ranges %s" % n)
    o = next(e for e in r if e["name"] == "outer")
    i = next(e for e in r if e["name"] == "inner")
    if o["tid"] != i["tid"] or not (o["ts"] < i["ts"] and
                                    i["ts"] + i["dur"] <= o["ts"] + o["dur"] + 1e-9):
        fail("inner %s not in outer %s" % (i, o))
    w = {e["tid"] for e in r if e["name"] == "worker step"}
    marks = [e for e in ev if e["ph"] == "i" and e.get("cat") == "roctx"]
    if len(w) != 1 or w == {o["tid"]} or len(marks) != 100 or {m["tid"] for m in marks} != w:
        fail("worker threads %s, marks %d" % (w, len(marks)))


def crossing(trace):
    """The range crossing threads is one async range, begun before and ended after the
    worker's."""
    ev = _events(trace)
    b = [e for e in ev if e["ph"] == "b"]
    e_ = [e for e in ev if e["ph"] == "e"]
    if (len(b) != 1 or len(e_) != 1 or b[0]["id"] != e_[0]["id"] or
            b[0]["name"] != "crosses threads"):
        fail("async %s %s" % (b, e_))
    w = [e for e in ev if e["ph"] == "X" and e["name"] == "worker step"]
    if (not b[0]["ts"] <= min(x["ts"] for x in w) or
            not e_[0]["ts"] >= max(x["ts"] + x["dur"] for x in w) - 1e-9):
        fail("async %s..%s vs worker" % (b[0]["ts"], e_[0]["ts"]))


main(globals())
