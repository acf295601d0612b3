"""drop-ranges.py — the checks of func/t-drop-ranges.sh: the JSON summary of a profile that
lost records (tprof-analyze --summary=json), its Chrome trace, and COUNTS, the directory where
apps/loadfault left a file per process (its calls begun and ended, two 64-bit little-endian
counts).  Each check prints diagnostic lines and fails with status 1 when wrong."""
import bisect
import collections
import json
import os
import sys

from checklib import main


def made_equals_counted(summary, counts):
    """Records were lost, and recorded + counted as lost == made, exactly."""
    d = json.load(open(summary))
    made = 0
    for f in os.listdir(counts):
        b = open(os.path.join(counts, f), "rb").read()
        begun, ended = int.from_bytes(b[0:8], "little"), int.from_bytes(b[8:16], "little")
        assert begun == ended, f
        made += ended
    (p,) = d["header"]["process_list"]
    dr = p["dropped"]
    lost = dr["total"] - dr["process_stream"]["total"]
    print("# made %d, recorded %d, counted as lost %d" % (made, p["records"], lost))
    sys.exit(0 if lost > 0 and p["records"] + lost == made else 1)


def ranges_nest(trace, cut_file):
    """Ranges nest, an iter range holds no range and at most its mark, none unfinished.
    Writes to CUT_FILE the number of ranges shown cut."""
    t = json.load(open(trace))
    ev = t["traceEvents"] if isinstance(t, dict) else t
    ranges, marks = collections.defaultdict(list), collections.defaultdict(list)
    for e in ev:
        if e.get("ph") == "X" and e.get("cat") == "range":
            ranges[e["tid"]].append((e["ts"], e["ts"] + e["dur"], e))
        elif e.get("ph") == "i" and e.get("name") == "m":
            marks[e["tid"]].append(e["ts"])
    bad = cut = unfinished = 0

    def say(*a):
        if bad < 6:
            print("#", *a)
    eps = 0.0015    # the microseconds of the Chrome trace are rounded to the nanosecond
    for tid, rs in ranges.items():
        rs.sort(key=lambda r: (r[0], -r[1]))
        ms = sorted(marks[tid])
        stack = []
        for t0, t1, e in rs:
            args = e.get("args", {})
            cut += "cut" in args
            if args.get("unfinished"):
                unfinished += 1
                bad += 1
                say("unfinished:", e)
            while stack and stack[-1][1] <= t0 + eps:
                stack.pop()
            if stack and t1 > stack[-1][1] + eps:
                bad += 1
                say("overlaps without nesting:", stack[-1][2], e)
            if stack and stack[-1][2]["name"] == "iter":
                bad += 1
                say("inside an iter range:", stack[-1][2], e)
            stack.append((t0, t1, e))
            if e["name"] == "iter" and "cut" not in args:
                n = bisect.bisect_right(ms, t1) - bisect.bisect_left(ms, t0)
                if n > 1:
                    bad += 1
                    say("holds %d marks:" % n, e)
    print("# %d ranges, %d cut, %d unfinished, %d wrong" %
          (sum(map(len, ranges.values())), cut, unfinished, bad))
    open(cut_file, "w").write("%d\n" % cut)
    sys.exit(0 if bad == 0 else 1)


def cut_counted(summary, cut_file):
    """Every range shown cut (their number in CUT_FILE) is counted in the summary, no pop
    unmatched."""
    d = json.load(open(summary))
    c = d["header"].get("cut", {"total": 0})
    print("# summary: %s, Chrome: %s" % (c, open(cut_file).read().strip()))
    sys.exit(0 if c["total"] == int(open(cut_file).read()) and
             d["header"]["skipped"]["unmatched_pops"] == 0 else 1)


main(globals())
