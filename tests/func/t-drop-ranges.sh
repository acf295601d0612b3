#!/bin/sh
# Ranges around lost records are paired exactly: 64 threads (and threads they start) record,
# inside one range "work" each, push "iter", mark "m", pop, in a spool of 1 MB, far too small,
# so that the recorder loses records by the hundred thousand.  No range is joined to another
# one: on every thread the ranges nest, an "iter" range holds no other range and at most its
# own mark, a range whose begin or end was lost is shown cut and counted, none is left
# unfinished (the program closed them all), and what was recorded plus what was counted as
# lost is what the program made, exactly.
. "${top_srcdir}/tests/func/lib.sh"
plan 5

mkdir -p "$T/counts"
TPROF_SPOOL_MB=1 TPROF_BUFFER_KB=64 TPROF_COMPRESS_LEVEL=9 \
	record_env "$T/out" "$APPS/loadfault" "$T/counts" 64 3000 0 >"$T/app.out" 2>"$T/app.err"
check "the program ran to its end" grep -qx done "$T/app.out"
"$ANALYZE" "$T/out" --summary=json >"$T/sum.json" 2>"$T/analyze.err" &&
	"$ANALYZE" "$T/out" --format chrome -o "$T/t.json" 2>>"$T/analyze.err"
ok $? "the summary and the Chrome trace are written"
[ -s "$T/t.json" ] || diag "$(cat "$T/analyze.err" "$T/app.err")"

py '
import json, os, sys
d = json.load(open(sys.argv[1]))
made = 0
for f in os.listdir(sys.argv[2]):
    b = open(os.path.join(sys.argv[2], f), "rb").read()
    begun, ended = int.from_bytes(b[0:8], "little"), int.from_bytes(b[8:16], "little")
    assert begun == ended, f
    made += ended
(p,) = d["header"]["process_list"]
dr = p["dropped"]
lost = dr["total"] - dr["process_stream"]["total"]
print("# made %d, recorded %d, counted as lost %d" % (made, p["records"], lost))
sys.exit(0 if lost > 0 and p["records"] + lost == made else 1)
' "$T/sum.json" "$T/counts"
ok $? "records were lost, and recorded + counted as lost == made, exactly"

py '
import collections, json, sys
t = json.load(open(sys.argv[1]))
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
            import bisect
            n = bisect.bisect_right(ms, t1) - bisect.bisect_left(ms, t0)
            if n > 1:
                bad += 1
                say("holds %d marks:" % n, e)
print("# %d ranges, %d cut, %d unfinished, %d wrong" % (sum(map(len, ranges.values())), cut,
                                                       unfinished, bad))
open(sys.argv[2], "w").write("%d\n" % cut)
sys.exit(0 if bad == 0 else 1)
' "$T/t.json" "$T/cut"
ok $? "ranges nest, an iter range holds no range and at most its mark, none unfinished"

py '
import json, sys
d = json.load(open(sys.argv[1]))
c = d["header"].get("cut", {"total": 0})
print("# summary: %s, Chrome: %s" % (c, open(sys.argv[2]).read().strip()))
sys.exit(0 if c["total"] == int(open(sys.argv[2]).read()) and d["header"]["skipped"]["unmatched_pops"] == 0 else 1)
' "$T/sum.json" "$T/cut"
ok $? "every range shown cut is counted in the summary, no pop unmatched"
finish
