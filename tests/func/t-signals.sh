#!/bin/sh
# Annotations made in a signal handler are recorded or counted as lost, one by one: a timer
# interrupts a loop that spends most of its time inside a wrapped runtime call (the minimal
# HIP runtime's hipDeviceSynchronize), and each handler marks "signal" and opens and closes a
# range "handler".  Every handler's three records are either in the profile or counted under
# "made inside the recorder"; the main loop's records are all there.
. "${top_srcdir}/tests/func/lib.sh"
[ -x "$APPS/signals" ] || skip_all "apps/signals was not built"
plan 4

H=400
MINIMAL_HIP_SYNC_US=300 record_env "$T/out" "$APPS/signals" "$H" 200 >"$T/app.out" 2>"$T/app.err"
rc=$?
# (a handler may run once more before the timer is off: the program says how many ran)
RAN=$(sed -n 's/^handlers=\([0-9]*\) loops=[0-9]*$/\1/p' "$T/app.out")
LOOPS=$(sed -n 's/^handlers=[0-9]* loops=\([0-9]*\)$/\1/p' "$T/app.out")
test "$rc" -eq 0 && test "${RAN:-0}" -ge "$H"
ok $? "the program ran ${RAN:-no} handlers (at least $H) and exited 0 (status $rc)"
"$ANALYZE" "$T/out" --summary=json >"$T/sum.json" 2>"$T/analyze.err"
check "the summary is written" test -s "$T/sum.json"
[ -s "$T/sum.json" ] || diag "$(cat "$T/analyze.err" "$T/app.err")"

# handlers: each made 3 records (mark, push, pop); kept + counted as reentered == 3 * H
py '
import json, sys
d = json.load(open(sys.argv[1]))
h, loops = int(sys.argv[2]), int(sys.argv[3] or -1)
marks = {r["name"]: r["count"] for r in d["marks"]["rows"]}
ranges = {r["name"]: r["calls"] for r in d["ranges"]["rows"]}
dr = d["header"]["dropped"]
lost = dr.get("reentered", 0)
kept = marks.get("signal", 0) + 2 * ranges.get("handler", 0)
print("# handlers %d: %d signal marks, %d handler ranges, %d counted as lost (%d in all lost)"
      % (h, marks.get("signal", 0), ranges.get("handler", 0), lost, dr["total"]))
ok = kept + lost == 3 * h and marks.get("signal", 0) <= h and ranges.get("handler", 0) <= h
ok = ok and dr["total"] == lost
sys.exit(0 if ok else 1)
' "$T/sum.json" "${RAN:-0}" "$LOOPS"
ok $? "every handler record is in the profile or counted as lost (reentered), nothing else lost"

py '
import json, sys
d = json.load(open(sys.argv[1]))
loops = int(sys.argv[2])
marks = {r["name"]: r["count"] for r in d["marks"]["rows"]}
ranges = {r["name"]: r["calls"] for r in d["ranges"]["rows"]}
print("# %d loops: %d work ranges, %d main marks" % (loops, ranges.get("work", 0), marks.get("main", 0)))
sys.exit(0 if ranges.get("work") == loops and marks.get("main") == loops and
         d["header"].get("cut", {"total": 0})["total"] == 0 and d["header"]["skipped"]["unmatched_pops"] == 0 else 1)
' "$T/sum.json" "${LOOPS:-0}"
ok $? "the main loop's ranges and marks are all there, none cut or unmatched"
finish
