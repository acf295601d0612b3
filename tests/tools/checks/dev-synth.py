"""dev-synth.py — the checks of func/t-dev-synth.sh on the outputs tprof-analyze made of the
synthetic trace apps/dev-synth wrote: the Chrome traces (by process and --group-by domain)
and what otf2-print printed of the OTF2 archive (read with lib-otf2.py), against WANT
(JSON: where each kernel belongs, [start, end] in the trace's ticks, k1's launch entering at
10000)."""
import collections
import importlib
import json

from checklib import fail, main
from chrome_trace import backward, events, load, ns, overlaps

otf2 = importlib.import_module("lib-otf2")


def chrome_spans(trace, want):
    """Chrome: every span where it belongs; none overlaps another on its track; every arrow
    goes forward."""
    d = load(trace)
    want = json.loads(want)
    base = min(ns(e["ts"]) for e in events(d)
               if e["ph"] == "X" and e["name"] == "hipLaunchKernel") - 10000
    got = {e["name"]: [ns(e["ts"]) - base, ns(e["ts"] + e["dur"]) - base]
           for e in events(d) if e["ph"] == "X" and e.get("cat") == "kernel"}
    bad = overlaps(d) + backward(d)
    arrows = collections.Counter(e["cat"] for e in events(d) if e["ph"] == "s")
    if got != want or bad or arrows != {"launch": 15}:
        fail("spans %s; %s; arrows %s" % (got, bad[:5], arrows))


def domain_spans(trace):
    """--group-by domain: the same (no overlap, no arrow backwards, the 11 spans)."""
    d = load(trace)
    bad = overlaps(d) + backward(d)
    if bad or len([e for e in events(d) if e.get("cat") == "kernel"]) != 11:
        fail("\n".join(bad[:5]) or "not 11 spans")


def otf2_regions(listing, want):
    """OTF2: every device region at the same times (LISTING: otf2-print's events)."""
    ev = otf2.events(listing)
    want = json.loads(want)
    base = min(t for r, _, t, x in ev if r == "ENTER" and otf2.name(x) == "hipLaunchKernel") - 10000
    got = {n: [a - base, b - base] for _, n, a, b in otf2.regions(ev) if n in want}
    bad = otf2.nesting(ev)
    if got != want or bad:
        fail("regions %s; %s" % (got, bad[:5]))


main(globals())
