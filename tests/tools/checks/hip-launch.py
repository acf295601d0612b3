"""hip-launch.py — the checks of func/t-hip-launch.sh on apps/hip-multi run against the
stand-in HIP runtime: the Chrome trace tprof-analyze wrote (launches and their device spans
by correlation id), its summary, and what tools/dump-records printed of the 800 short
kernels' profile."""
import collections
import json
import re

from checklib import fail, main
from chrome_trace import backward, events, load, overlaps


class _Launches:
    """ev: the trace's events; names: {(pid, tid): track name}; launches: the hipLaunchKernel
    calls; spans: the kernels' device spans; by_corr: {correlation id: [its spans]}."""

    def __init__(self, path):
        self.ev = json.load(open(path))["traceEvents"]
        self.names = {(e["pid"], e["tid"]): e["args"]["name"] for e in self.ev
                      if e["ph"] == "M" and e["name"] == "thread_name"}
        self.launches = [e for e in self.ev if e["ph"] == "X" and e["name"] == "hipLaunchKernel"]
        self.spans = [e for e in self.ev if e["ph"] == "X" and e.get("cat") == "kernel"]
        self.by_corr = collections.defaultdict(list)
        for s in self.spans:
            self.by_corr[s["args"]["correlation"]].append(s)

    def span_of(self, launch):
        """The (first) device span of a launch."""
        return self.by_corr[launch["args"]["correlation"]][0]


def one_span_each(trace):
    """24 launches, each with exactly one device span (and no span without a launch)."""
    t = _Launches(trace)
    if len(t.launches) != 24:
        fail("%d launches" % len(t.launches))
    corrs = [x["args"]["correlation"] for x in t.launches]
    if len(set(corrs)) != 24:
        fail("correlation ids are not unique")
    if sorted(corrs) != sorted(t.by_corr):
        fail("launches %s, spans %s" % (sorted(corrs), sorted(t.by_corr)))
    if any(len(v) != 1 for v in t.by_corr.values()):
        fail("a launch with several spans")


def stream_tracks(trace):
    """Each span is on the track of its launch's device and stream; 4 tracks, 2 launching
    threads."""
    t = _Launches(trace)
    tracks = set()
    for x in t.launches:
        s = t.span_of(x)
        if (s["args"]["device"], s["args"]["stream"]) != (x["args"]["device"], x["args"]["stream"]):
            fail("span %s vs launch %s" % (s["args"], x["args"]))
        if s["pid"] != x["pid"]:
            fail("span in another process")
        name = t.names.get((s["pid"], s["tid"]), "")
        if not name.startswith("GPU %d stream " % s["args"]["device"]):
            fail("span on track %r" % name)
        tracks.add((s["pid"], s["tid"], s["args"]["device"], s["args"]["stream"]))
    if len(tracks) != 4 or len({k[:2] for k in tracks}) != 4:
        fail("tracks %s" % tracks)
    if len({(x["pid"], x["tid"]) for x in t.launches}) != 2:
        fail("launches not from 2 threads")
    if {x["args"]["device"] for x in t.launches} != {0, 1}:
        fail("not both devices")


def after_launch(trace):
    """No span starts before its launch."""
    t = _Launches(trace)
    for x in t.launches:
        s = t.span_of(x)
        if s["ts"] < x["ts"]:
            fail("span at %s before launch at %s" % (s["ts"], x["ts"]))


def launch_order(trace):
    """Within each stream the spans follow launch order and do not overlap."""
    t = _Launches(trace)
    per = collections.defaultdict(list)
    for x in t.launches:
        s = t.span_of(x)
        per[(s["pid"], s["tid"])].append((x["ts"], round(s["ts"] * 1000),
                                          round((s["ts"] + s["dur"]) * 1000)))
    for k, v in per.items():
        v.sort()
        for a, b in zip(v, v[1:]):
            if b[1] < a[2]:
                fail("stream %s: %s overlaps %s" % (k, b, a))


def launch_flows(trace):
    """A flow arrow from each launch (bound inside the call) to its span."""
    t = _Launches(trace)
    starts = {e["id"]: e for e in t.ev if e["ph"] == "s" and e.get("cat") == "launch"}
    ends = {e["id"]: e for e in t.ev if e["ph"] == "f" and e.get("cat") == "launch"}
    for x in t.launches:
        s = t.span_of(x)
        fid = "%d:%d" % (x["pid"], x["args"]["correlation"])
        a, b = starts.get(fid), ends.get(fid)
        if not a or not b:
            fail("no flow %s" % fid)
        if ((a["pid"], a["tid"]) != (x["pid"], x["tid"]) or
                not x["ts"] <= a["ts"] <= x["ts"] + x["dur"]):
            fail("flow start %s outside launch %s" % (a, x))
        if ((b["pid"], b["tid"]) != (s["pid"], s["tid"]) or b.get("bp") != "e" or
                not s["ts"] <= b["ts"] <= s["ts"] + s["dur"]):
            fail("flow end %s not bound to span %s" % (b, s))


def span_durations(trace):
    """Span durations match the stand-in (2000 and 3000 us) within 5%."""
    t = _Launches(trace)
    want = {"scale_a": 2000.0, "shift_b": 3000.0}
    for s in t.spans:
        w = want.get(s["name"].split("(")[0])
        if w is None:
            continue   # the holds
        if abs(s["dur"] - w) > 0.05 * w:
            fail("%s lasted %.3f us, want %.0f" % (s["name"], s["dur"], w))


def summary_kernels(summary):
    """The summary's kernel table counts 10 of each kernel, with their mean times."""
    s = open(summary).read()
    for name, us in (("scale_a", 2000), ("shift_b", 3000)):
        m = re.search(r"^\s*\S+ %\s+\S+ \S+\s+10\s+([\d.]+) (us|ms)\s.*\s" + name + r"\(", s,
                      re.M)
        if not m:
            fail("no row for %s:\n%s" % (name, s))
        v = float(m.group(1)) * (1000 if m.group(2) == "ms" else 1)
        if abs(v - us) > 0.05 * us:
            fail("%s avg %s" % (name, v))


def device_records(dump):
    """The recorder: on each stream, in the order written, no DEVICE record starts before the
    one before ends (804 of them: 800 kernels and 4 copies)."""
    per = collections.defaultdict(list)
    for line in open(dump):
        r = json.loads(line)
        if r["kind"] == "device":
            per[(r["pid"], r["dev"]["device"], r["dev"]["stream"])].append(
                (r["t0"], r["dev"]["start_ns"], r["dev"]["end_ns"]))
    bad = []
    for k, v in per.items():
        v.sort()
        bad += ["%s: [%d, %d] after [%d, %d]" % (k, b[1], b[2], a[1], a[2])
                for a, b in zip(v, v[1:]) if b[1] < a[2]]
    if sum(len(v) for v in per.values()) != 804 or bad:
        fail("%d records, %d overlaps: %s" %
             (sum(len(v) for v in per.values()), len(bad), bad[:5]))


def no_overlap(trace):
    """No two spans on one device track overlap; no arrow ends before it starts (804 arrows)."""
    d = load(trace)
    bad = overlaps(d) + backward(d)
    if bad or len([e for e in events(d) if e["ph"] == "s"]) != 804:
        fail("\n".join(bad[:10]) or "not 804 arrows")


main(globals())
