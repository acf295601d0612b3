"""window-arrows.py — the checks of func/t-window-arrows.sh: arrows under a window that
starts between a call and the device work it launched.

    cut-launch FULL           prints "--start S --end E": S halfway along the longest launch
                              arrow of the full Chrome trace (its call before S, its device
                              span after), E past the trace's end
    cut-collective FULL SIDE  prints a window that cuts an MPI collective of the full Chrome
                              trace between its members' entries: SIDE end: "--end E", E
                              between the last member's entry (where its arrows start) and
                              the one before; start: "--start S", S between the first
                              member's entry and the last's (the first's call left out)
    in-slices TRACE CAT...    every arrow end of the Chrome trace lies inside a slice drawn on
                              its track (none at a call or span the window left out), and
                              there are arrows of each category CAT
"""
import collections
import json

from checklib import fail, main


def _events(path):
    with open(path) as f:
        return json.load(f)["traceEvents"]


def cut_launch(full):
    ev = _events(full)
    starts = {e["id"]: e["ts"] for e in ev if e["ph"] == "s" and e["cat"] == "launch"}
    ends = {e["id"]: e["ts"] for e in ev if e["ph"] == "f" and e["cat"] == "launch"}
    gaps = sorted((ends[i] - starts[i], starts[i], ends[i]) for i in starts if i in ends)
    if not gaps or gaps[-1][0] < 0.01:
        fail("no launch arrow long enough to cut: %s" % gaps[-1:])
    _, s, f = gaps[-1]
    end = max(e["ts"] + e.get("dur", 0) for e in ev if e["ph"] != "M") + 1000
    print("--start %.3f --end %.3f" % ((s + f) / 2, end))


def cut_collective(full, side):
    ev = _events(full)
    calls = collections.defaultdict(list)
    for e in ev:
        if e["ph"] == "X" and e["name"].startswith("MPI_"):
            calls[(e["pid"], e["tid"])].append(e)

    def entry(e):
        return next(c["ts"] for c in calls[(e["pid"], e["tid"])]
                    if c["ts"] <= e["ts"] <= c["ts"] + c["dur"])
    members = collections.defaultdict(dict)
    for e in ev:
        if e["ph"] in ("s", "f") and e["cat"] == "mpi" and e["name"] == "collective":
            members[e["id"].split(".")[0]][(e["pid"], e["tid"])] = entry(e)
    best = max((sorted(m.values()) for m in members.values() if len(m) >= 3),
               key=lambda t: t[-1] - t[-2], default=None)
    if not best or best[-1] - best[-2] < 0.01:
        fail("no MPI collective whose last member entered apart: %s" % best)
    if side == "end":
        print("--end %.3f" % ((best[-2] + best[-1]) / 2))
    else:
        print("--start %.3f" % ((best[0] + best[-1]) / 2))


def in_slices(trace, *cats):
    ev = _events(trace)
    slices = collections.defaultdict(list)
    for e in ev:
        if e["ph"] == "X":
            slices[(e["pid"], e["tid"])].append((e["ts"], e["ts"] + e["dur"]))
    arrows = [e for e in ev if e["ph"] in ("s", "f")]
    out = [e for e in arrows
           if not any(t0 <= e["ts"] <= t1 for t0, t1 in slices[(e["pid"], e["tid"])])]
    if out:
        fail("%d arrow ends lie in no slice of their track (at a call or span the window "
             "left out): %s" % (len(out), out[:2]))
    have = collections.Counter(e["cat"] for e in arrows)
    if any(not have[c] for c in cats):
        fail("arrows by category: %s; wanted some of each of %s" % (dict(have), cats))


main(globals())
