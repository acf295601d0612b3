#!/bin/sh
# TPROF_TEST_CLOCK_SKEW_NS makes one process look as if it ran on a host whose clocks are off:
# here rank 2 of apps/mpi-pattern (an MPMD command line gives it the variable alone) is 50 ms
# ahead.  Its CLOCK records say so against the other ranks', its clock offset measurement
# against rank 0 (CSYNC) finds it, and the program runs as without it.
. "$(dirname "$0")/lib.sh"
need_mpi apps/mpi-pattern
plan 5

APP="$APPS/mpi-pattern"
SKEW=50000000
MPMD="-np 2 $APP : -np 1 env TPROF_TEST_CLOCK_SKEW_NS=$SKEW $APP : -np 1 $APP"
"$MPIRUN" $MPIRUN_FLAGS $MPMD >"$T/plain.out" 2>"$T/plain.err"
ok $? "mpi-pattern runs on 4 ranks, rank 2 given TPROF_TEST_CLOCK_SKEW_NS=$SKEW"
"$INSPECT" -o "$T/out" -- "$MPIRUN" $MPIRUN_FLAGS $MPMD >"$T/rec.out" 2>"$T/rec.err"
ok $? "and under tprof-inspect -- mpirun"
check "its output is unchanged" cmp -s "$T/plain.out" "$T/rec.out"
"$DUMP" "$T/out" >"$T/dump.json"

# Each process's ticks -> ns from its first and last CLOCK records (monotonic and realtime).
PY_SKEW='
import collections, json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
skew = int(sys.argv[2])
clocks = collections.defaultdict(list)
csyncs = collections.defaultdict(list)
for r in recs:
    if r["kind"] == "clock": clocks[r["rank"]].append((r["t0"], r["t1"], r["arg"]))
    if r["kind"] == "csync": csyncs[r["rank"]].append(r)
def conv(k, ticks, which):
    pts = sorted(clocks[k])
    (a, ma, ra), (b, mb, rb) = pts[0], pts[-1]
    lo, hi = (ma, mb) if which == "mono" else (ra, rb)
    return lo + (ticks - a) * (hi - lo) / (b - a)
def ns_per_tick(k):
    pts = sorted(clocks[k])
    return (pts[-1][1] - pts[0][1]) / (pts[-1][0] - pts[0][0])
want = lambda k: skew if k == 2 else 0
'
check "rank 2's CLOCK records are 50 ms ahead of rank 0's, the others' are not" py "$PY_SKEW"'
if sorted(clocks) != [0, 1, 2, 3]: sys.exit("ranks %s" % sorted(clocks))
t = sorted(clocks[0])[-1][0]
for k in (1, 2, 3):
    for which in ("mono", "real"):
        off = conv(k, t, which) - conv(0, t, which)
        if abs(off - want(k)) > 1e6: sys.exit("rank %d %s offset %.0f ns, want %d" % (k, which, off, want(k)))
' "$T/dump.json" "$SKEW"
check "and its clock offset measurements against rank 0 find those 50 ms, within their round trip" py "$PY_SKEW"'
for k in (1, 2, 3):
    if len(csyncs[k]) != 2: sys.exit("rank %d: %d measurements" % (k, len(csyncs[k])))
    for c in csyncs[k]:
        off = conv(k, c["t0"], "mono") - conv(0, c["t1"], "mono")
        slack = c["arg"] * ns_per_tick(k) / 2 + 1e6
        if abs(off - want(k)) > slack:
            sys.exit("rank %d: offset %.0f ns, want %d within %.0f" % (k, off, want(k), slack))
' "$T/dump.json" "$SKEW"
finish
