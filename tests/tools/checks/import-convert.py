"""import-convert.py — the checks of func/t-import-convert.sh on the conversion of a trace of
mk-chrome-trace: the counts the input calls for (WANT, a JSON file written by count-input),
and what the Chrome trace, pftrace.py's counts of the Perfetto trace and otf2-print's listing
hold."""
import collections
import json

from checklib import fail, main
from chrome_trace import events, load, ns


def count_input(path, want_path):
    """What the outputs must hold, from the input (written to want_path): X and B..E pairs
    are slices; instants of every kind (i I R, objects O N D, samples P, async instants n) are
    instants; a C event is one counter sample a number in its args; a flow step t ends one
    arrow and starts the next.  Fails when the input lacks a phase."""
    d = json.load(open(path))
    e = d["traceEvents"] if isinstance(d, dict) else d
    c = collections.Counter(x["ph"] for x in e)

    def num(v):
        return isinstance(v, (int, float)) and not isinstance(v, bool)
    series = sum(sum(1 for v in (x.get("args") or {}).values() if num(v))
                 for x in e if x["ph"] == "C")
    want = {"X": c["X"] + c["B"], "i": sum(c[p] for p in "iIRONDPn"), "C": series,
            "b": c["b"], "e": c["e"], "s": c["s"] + c["t"], "f": c["f"] + c["t"]}
    if c["B"] != c["E"] or c["b"] != c["e"] or not all(c[p] for p in "XBEiIRCbenstfONDP"):
        fail("the generator wrote %s" % dict(c))
    flows = collections.defaultdict(list)
    for x in e:
        for p in x["ph"] if x["ph"] in "sf" else "sf" if x["ph"] == "t" else "":
            flows[p].append(round(x["ts"] * 1000))
    json.dump({"want": want, "flows": flows}, open(want_path, "w"))


def chrome_counts(path, want_path):
    """Slices, instants, counter samples, async ranges and flow ends as the input holds."""
    w = json.load(open(want_path))
    ev = events(load(path))
    c = collections.Counter(x["ph"] for x in ev if x["ph"] != "M")
    bad = {k: (c.get(k, 0), v) for k, v in w["want"].items() if c.get(k, 0) != v}
    extra = set(c) - set(w["want"])
    if bad or extra:
        fail("counts (got, want) %s, phases not in the input %s" % (bad, extra))


def flow_times(path, want_path):
    """The arrows' ends at their own times, to the nanosecond (both sides from their first
    flow)."""
    w = json.load(open(want_path))["flows"]
    ev = events(load(path))
    bad = []
    for p in "sf":
        got = sorted(ns(x["ts"]) for x in ev if x["ph"] == p)
        want = sorted(w[p])
        if len(got) != len(want) or [g - got[0] for g in got] != [v - want[0] for v in want]:
            bad.append("%s: %d ends against %d" % (p, len(got), len(want)))
    if bad:
        fail("; ".join(bad))


def flows_outside(path):
    """Prints the number of flow ends that lie in no slice of their thread in the Chrome
    trace."""
    ev = events(load(path))
    spans = collections.defaultdict(list)
    for x in ev:
        if x["ph"] == "X":
            spans[(x["pid"], x["tid"])].append((ns(x["ts"]), ns(x["ts"]) + ns(x["dur"])))
    out = sum(1 for x in ev if x["ph"] in "sf" and
              not any(a <= ns(x["ts"]) <= z for a, z in spans[(x["pid"], x["tid"])]))
    print(out)


def perfetto_counts(path, want_path, outside_path):
    """pftrace.py's counts; flow ends outside slices (some) as many as in Chrome."""
    s = json.load(open(path))
    w = json.load(open(want_path))["want"]
    outside = int(open(outside_path).read())
    want = {"slices": w["X"] + w["b"], "instants": w["i"], "counters": w["C"], "flows": w["s"],
            "unanchored": outside}
    bad = {k: (s.get(k), v) for k, v in want.items() if s.get(k) != v}
    if bad or not outside:
        fail("(got, want) %s" % bad)


def otf2_counts(path, want_path):
    """Slices and instants enter and leave (an instant: a region of its own), and so does
    each async range on a location of its own; counter samples are metrics.  path: what
    otf2-print printed."""
    c = collections.Counter(ln.split()[0] for ln in open(path) if ln[:1].isupper() and ln.split())
    w = json.load(open(want_path))["want"]
    want = {"ENTER": w["X"] + w["i"] + w["b"], "LEAVE": w["X"] + w["i"] + w["b"],
            "METRIC": w["C"]}
    bad = {k: (c[k], v) for k, v in want.items() if c[k] != v}
    if bad:
        fail("(got, want) %s" % bad)


main(globals())
