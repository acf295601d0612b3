"""parallel-traces.py — the checks of func/t-parallel-traces.sh on the parts K analysis
processes wrote of a Chrome or Perfetto trace (one each, listed in an index).

    index INDEX K FORMAT       the index lists K parts by process, FORMAT, each file present,
                               the processes of the parts apart
    same-chrome SERIAL INDEX MERGED
                               each part loads alone; what a part holds is what the index
                               says (slices, arrow ends: two per arrow drawn whole, one per
                               half); the parts' events together (written to MERGED, one
                               Chrome trace) are the serial trace's: every slice, instant,
                               counter sample and arrow, on tracks of the same names and
                               order, each arrow's two ends sharing one id; only NCCL
                               instance numbers may differ (an analysis process numbers
                               the instances it matches)
"""
import collections
import json
import os

from checklib import fail, main
import pftrace


def _index(path):
    with open(path) as f:
        return json.load(f)


def index(path, k, fmt):
    d = _index(path)
    parts = d["parts"]
    if d["format"] != fmt or d["part_by"] != "process" or len(parts) != int(k):
        fail("index: format %s, parts by %s, %d parts" % (d["format"], d["part_by"], len(parts)))
    seen = set()
    for n, p in enumerate(parts, 1):
        f = os.path.join(os.path.dirname(path), p["file"])
        if p["part"] != n or ".part-%04d" % n not in p["file"] or not os.path.isfile(f):
            fail("part %d: %s" % (n, p["file"]))
        if seen & set(p["processes"]) or len(p["processes"]) != len(p["ranks"]):
            fail("part %d: processes %s, ranks %s" % (n, p["processes"], p["ranks"]))
        seen |= set(p["processes"])


def same_chrome(serial, path, merged):
    d = _index(path)
    every = []
    for p in d["parts"]:
        ev = pftrace.chrome_events(os.path.join(os.path.dirname(path), p["file"]))
        slices = sum(e["ph"] == "X" for e in ev)
        ends = sum(e["ph"] in ("s", "f") for e in ev)
        if slices != p["slices"] or ends != 2 * p["flows"] + p["flow_halves"]:
            fail("part %d: %d slices, %d arrow ends; the index: %s" % (p["part"], slices, ends, p))
        every += ev
    ids = collections.Counter((e["ph"], e["cat"], e["name"], e["id"]) for e in every
                              if e["ph"] in ("s", "f"))
    starts = {k[1:] for k in ids if k[0] == "s"}
    finishes = {k[1:] for k in ids if k[0] == "f"}
    if max(ids.values(), default=1) != 1 or starts != finishes:
        fail("arrow ids: %d repeated, %d starts without an end, %d ends without a start" %
             (sum(v > 1 for v in ids.values()), len(starts - finishes), len(finishes - starts)))
    with open(merged, "w") as f:
        json.dump({"traceEvents": every}, f)
    a = pftrace.without_instances(pftrace.chrome_view(serial))
    b = pftrace.without_instances(pftrace.chrome_view(merged))
    for what in ("processes", "tracks", "slices", "instants", "counters", "flows", "samples"):
        if a[what] != b[what]:
            fail("%s differ: %d serial, %d in the parts; only serial: %s; only in the parts: %s"
                 % (what, sum(a[what].values()), sum(b[what].values()),
                    list((a[what] - b[what]).elements())[:2],
                    list((b[what] - a[what]).elements())[:2]))
    if not sum(a["slices"].values()):
        fail("the serial trace has no slices")


main(globals())
