"""env.py — the checks of func/t-env.sh on the Chrome traces tprof-analyze wrote of its runs
with TPROF_MAX_EVENTS and with TPROF_CLOCK=monotonic (marks from 4 threads)."""
import collections

from checklib import fail, main
from chrome_trace import events, load


def capped_marks(trace, kept):
    """TPROF_MAX_EVENTS: the Chrome trace holds the same KEPT marks as the summary, nothing
    else."""
    d = load(trace)
    n = len([e for e in events(d) if e["ph"] == "i" and e["name"] == "mark"])
    if n != int(kept) or len(events(d)) != n:
        fail("%d marks in the trace, summary says %s" % (n, kept))


def monotonic_marks(trace, attempted):
    """TPROF_CLOCK=monotonic: the Chrome trace has the ATTEMPTED marks, a quarter on each of 4
    threads, in time order."""
    d = load(trace)
    ev = events(d)
    by = collections.defaultdict(list)
    for e in ev:
        by[e["tid"]].append(e["ts"])
    if (len(ev) != int(attempted) or len(by) != 4 or
            any(len(v) != len(ev) // 4 for v in by.values())):
        fail("%d events on %d threads" % (len(ev), len(by)))
    if any(v != sorted(v) or v[0] < 0 for v in by.values()):
        fail("times go backwards on a thread")


main(globals())
