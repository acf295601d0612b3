"""lib-otf2.py — readers of what otf2-print prints, for the OTF2 tests (func/lib-otf2.sh):
their checkers import it (importlib.import_module("lib-otf2")), and it holds the checks that
several of them make, run with `pycheck_in lib-otf2 ...` on otf2-print's event listing OUT
(with its global definitions beside it in OUT.defs).

    events(path)   [(record, location, time, text)] from otf2-print's event listing (text
                   with the record's attributes, when it has any)
    defs(path)     [(definition, id, text)] from otf2-print -G
    nesting(ev)    problems with Enter/Leave nesting or time order, per location
    regions(ev)    [(location, name, enter time, leave time)] of every region, as it closes
    device_spans(path, chrome)  problems with the regions of the accelerator streams: one
                   entered on its stream before the one before it left, or the lot not the
                   device spans of the Chrome trace (JSON file) of the same profile
    name(text)     the first quoted name in a record's text
    loc_what(text) a LOCATION's name less its process ("rank 2: ", "pid 12: ") and its
                   thread's tid (" (tid 12)") or repeat number (" #2"): its track's name
                   in the Chrome trace
"""
import collections
import json
import re

from checklib import fail, main

REC = re.compile(r"^([A-Z][A-Z0-9_]+)\s+(\d+)\s+(\d+)\s*(.*)$")
DEF = re.compile(r"^([A-Z][A-Z0-9_]+)\s+(\d*)\s+(.*)$")


def events(path):
    out = []
    with open(path, errors="replace") as f:
        for line in f:
            m = REC.match(line)
            if m:
                out.append((m.group(1), int(m.group(2)), int(m.group(3)), m.group(4)))
            elif out and line.lstrip().startswith("ADDITIONAL ATTRIBUTES:"):
                r, l, t, x = out[-1]
                out[-1] = (r, l, t, x + " " + line.strip())
    return out


def defs(path):
    out = []
    with open(path, errors="replace") as f:
        for line in f:
            m = DEF.match(line)
            if m and not line.startswith("Definition"):
                out.append((m.group(1), m.group(2), m.group(3)))
    return out


def name(text):
    m = re.search(r"\"([^\"]*)\"", text)
    return m.group(1) if m else None


def loc_what(text):
    n = re.sub(r"^(rank -?\d+|pid -?\d+( on [^:]*)?|MPI): ", "", name(text))
    return re.sub(r"( \(tid -?\d+\)| #\d+)$", "", n)


def regions(ev):
    out = []
    stack = collections.defaultdict(list)
    for rec, loc, t, text in ev:
        if rec == "ENTER":
            stack[loc].append((name(text), t))
        elif rec == "LEAVE" and stack[loc]:
            n, t0 = stack[loc].pop()
            out.append((loc, n, t0, t))
    return out


def device_spans(path, chrome):
    locs = {int(i) for k, i, t in defs(path + ".defs")
            if k == "LOCATION" and "ACCELERATOR_STREAM" in t}
    per = collections.defaultdict(list)
    for loc, n, a, b in regions(events(path)):
        if loc in locs:
            per[loc].append((a, b, n))
    bad, got = [], []
    for loc, v in per.items():
        v.sort()
        bad += ["stream location %d: %s at %d before %s left at %d" %
                (loc, y[2], y[0], x[2], x[1]) for x, y in zip(v, v[1:]) if y[0] < x[1]]
        got += [(a, b) for a, b, _ in v]
    with open(chrome) as f:
        d = json.load(f)
    t0 = d["otherData"]["trace_start_realtime_ns"]

    def ns(x):
        return int(round(x * 1000))
    want = [(t0 + ns(e["ts"]), t0 + ns(e["ts"]) + ns(e["dur"])) for e in d["traceEvents"]
            if e["ph"] == "X" and
            e.get("cat") in ("kernel", "copy", "memset", "graph", "collective", "device")]
    if sorted(got) != sorted(want):
        bad.append("%d regions on streams, %d device spans in Chrome, %d differ" % (
            len(got), len(want), len(set(got) ^ set(want))))
    return bad


def nesting(ev):
    bad = []
    stack = collections.defaultdict(list)
    last = {}
    for rec, loc, t, text in ev:
        if t < last.get(loc, 0):
            bad.append("location %d: time goes back at %s %s" % (loc, rec, text))
        last[loc] = t
        if rec == "ENTER":
            stack[loc].append(name(text))
        elif rec == "LEAVE":
            top = stack[loc].pop() if stack[loc] else None
            if top != name(text):
                bad.append("location %d: leaves %s, but %s is open" % (loc, name(text), top))
    for loc, s in stack.items():
        if s:
            bad.append("location %d: never left %s" % (loc, s))
    return bad


def nested_in_order(path):
    """Check: every location of the event listing keeps time order and nests Enter/Leave."""
    bad = nesting(events(path))
    if bad:
        fail("\n".join(bad[:10]))


def device_spans_match(path, chrome):
    """Check: the regions of the accelerator streams follow one another on their stream and
    are the device spans of the Chrome trace of the same profile."""
    bad = device_spans(path, chrome)
    if bad:
        fail("\n".join(bad[:10]))


if __name__ == "__main__":
    main(globals())
