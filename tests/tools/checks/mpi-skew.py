"""mpi-skew.py — the checks of func/t-mpi-skew.sh on the records (tools/dump-records, one
JSON object a line) of apps/mpi-pattern on 4 ranks, rank 2's clock made SKEW ns ahead."""
import collections
import json

from checklib import fail, main


class _Job:
    """The CLOCK and CSYNC records of each rank; each process's ticks -> ns from its first and
    last CLOCK records (monotonic and realtime)."""

    def __init__(self, path, skew):
        self.skew = int(skew)
        self.clocks = collections.defaultdict(list)
        self.csyncs = collections.defaultdict(list)
        for ln in open(path):
            r = json.loads(ln)
            if r["kind"] == "clock":
                self.clocks[r["rank"]].append((r["t0"], r["t1"], r["arg"]))
            if r["kind"] == "csync":
                self.csyncs[r["rank"]].append(r)

    def conv(self, k, ticks, which):
        pts = sorted(self.clocks[k])
        (a, ma, ra), (b, mb, rb) = pts[0], pts[-1]
        lo, hi = (ma, mb) if which == "mono" else (ra, rb)
        return lo + (ticks - a) * (hi - lo) / (b - a)

    def ns_per_tick(self, k):
        pts = sorted(self.clocks[k])
        return (pts[-1][1] - pts[0][1]) / (pts[-1][0] - pts[0][0])

    def want(self, k):
        return self.skew if k == 2 else 0


def clock_records(path, skew):
    """Rank 2's CLOCK records are skew ahead of rank 0's (within 1 ms), the others' are not."""
    j = _Job(path, skew)
    if sorted(j.clocks) != [0, 1, 2, 3]:
        fail("ranks %s" % sorted(j.clocks))
    t = sorted(j.clocks[0])[-1][0]
    for k in (1, 2, 3):
        for which in ("mono", "real"):
            off = j.conv(k, t, which) - j.conv(0, t, which)
            if abs(off - j.want(k)) > 1e6:
                fail("rank %d %s offset %.0f ns, want %d" % (k, which, off, j.want(k)))


def measurements(path, skew):
    """The clock offset measurements against rank 0 find the skew, within their round
    trip."""
    j = _Job(path, skew)
    for k in (1, 2, 3):
        if len(j.csyncs[k]) != 2:
            fail("rank %d: %d measurements" % (k, len(j.csyncs[k])))
        for c in j.csyncs[k]:
            off = j.conv(k, c["t0"], "mono") - j.conv(0, c["t1"], "mono")
            slack = c["arg"] * j.ns_per_tick(k) / 2 + 1e6
            if abs(off - j.want(k)) > slack:
                fail("rank %d: offset %.0f ns, want %d within %.0f" % (k, off, j.want(k), slack))


main(globals())
