"""window_check.py — what a window of tprof-analyze (--steps, --start/--end) must hold, worked
out from the full, unwindowed Chrome trace (func/t-window.sh): every range or step that
overlaps the window [S, E] (ns) by more than an instant, cut to it and flagged clipped where
it was cut; every mark and counter sample inside it.  Events compare as the multiset of
(ph, cat, name, start ns, duration ns, clipped, unfinished).
"""
import collections, sys

from chrome_trace import events, ns

EVENTS = ("range", "mark", "counter")   # the categories a window holds besides its steps

def key(e):
    a = e.get("args", {})
    dur = ns(e["dur"]) if e["ph"] == "X" else None
    return (e["ph"], e.get("cat"), e["name"], ns(e["ts"]), dur, bool(a.get("clipped")), bool(a.get("unfinished")))
def expect(full, S, E):
    out = collections.Counter()
    for e in events(full):
        t0 = ns(e["ts"])
        if e["ph"] == "X":
            t1 = t0 + ns(e["dur"])
            inside = (t1 > S and t0 < E) if t1 > t0 else S <= t0 <= E
            if not inside:
                continue
            a, b = max(t0, S), min(t1, E)
            out[(e["ph"], e["cat"], e["name"], a, b - a, (a, b) != (t0, t1), False)] += 1
        elif S <= t0 <= E:
            out[key(e)] += 1
    return out
def compare(full, got, S, E, kinds):
    want = collections.Counter({k: v for k, v in expect(full, S, E).items() if k[1] in kinds})
    have = collections.Counter(key(e) for e in events(got) if e.get("cat") in kinds)
    if have != want:
        sys.exit("window %d..%d ns, categories %s:\n  missing %s\n  unexpected %s" % (
            S, E, kinds, sorted((want - have).elements()), sorted((have - want).elements())))
def step_bounds(full, a, b):
    st = {e["args"]["step"]: e for e in events(full) if e.get("cat") == "step"}
    return ns(st[a]["ts"]), ns(st[b]["ts"]) + ns(st[b]["dur"])
