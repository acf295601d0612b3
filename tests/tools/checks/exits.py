"""exits.py — the check of func/t-exits.sh on the Chrome trace tprof-analyze wrote of
apps/exits, ended one way or another, given with K (the ranges and marks of each thread)."""
import collections

from checklib import fail, main
from chrome_trace import events, load, procs


def all_events(trace, k):
    """The trace holds exactly K ranges and K marks on each of the two threads."""
    d = load(trace)
    k = int(k)
    c = collections.Counter((e["ph"], e["name"]) for e in events(d))
    want = {("X", "main"): k, ("X", "worker"): k, ("i", "main-mark"): k, ("i", "worker-mark"): k}
    if dict(c) != want:
        fail("events by name: %s, want %s" % (dict(c), want))
    tids = {e["tid"] for e in events(d)}
    if len(tids) != 2 or len(procs(d)) != 1:
        fail("%d thread tracks in %d processes, want 2 in 1" % (len(tids), len(procs(d))))
    for name in ("main", "worker"):
        if len({e["tid"] for e in events(d) if e["name"] == name}) != 1:
            fail("%s ranges spread over several threads" % name)


main(globals())
