#!/bin/sh
# Clock alignment on a real MPI job: rank 2 of apps/mpi-pattern runs with
# TPROF_TEST_CLOCK_SKEW_NS=50000000, which makes its clock samples claim a clock 50 ms ahead
# (as on a host whose clocks are off).  tprof-analyze must find that offset from the ranks'
# measurements against rank 0, to within the measured round trip, apply it, leave the ranks
# that share rank 0's clock alone, and then no message arrow may point backwards (one to or
# from rank 2 by no more than that round trip, the alignment's uncertainty).  Then the
# same with every rank recording CLOCK_MONOTONIC (TPROF_CLOCK=monotonic), where the skew
# shows only in the clock samples.
. "$(dirname "$0")/lib.sh"
need_mpi apps/mpi-pattern
plan 8

APP="$APPS/mpi-pattern"
SKEW=50000000
MPMD="-np 2 $APP : -np 1 env TPROF_TEST_CLOCK_SKEW_NS=$SKEW $APP : -np 1 $APP"
"$INSPECT" -o "$T/out" -- "$MPIRUN" $MPIRUN_FLAGS $MPMD >"$T/truth.json" 2>"$T/rec.err"
ok $? "mpi-pattern runs on 4 ranks, rank 2 with its clock skewed by 50 ms"

"$ANALYZE" "$T/out" -v -s -f chrome -o "$T/t.json" >"$T/sum.txt" 2>"$T/notes.txt"
ok $? "tprof-analyze writes the summary and the Chrome trace"

# The -v notes give each offset and round trip in ns.
RANK2='
import re, sys
skew = int(sys.argv[2])
got = {}
for l in open(sys.argv[1]):
    m = re.search(r"rank (\d+) \(.*clock offset ([+-]\d+) ns against rank 0 at (\w+) \(round trip (\d+) ns.*\); (.*)$", l)
    if m:
        got[(int(m.group(1)), m.group(3))] = (int(m.group(2)), int(m.group(4)), m.group(5))
r2 = [v for k, v in got.items() if k[0] == 2]
if len(r2) != 2 or len(got) != 6:
    sys.exit("measurements: %s" % got)
for off, rtt, verdict in r2:
    if abs(off - skew) > rtt or verdict != "applied":
        sys.exit("rank 2: offset %d ns, round trip %d ns, %s (want %d within the round trip, applied)" % (off, rtt, verdict, skew))
print("# rank 2 (offset, round trip): %s" % [v[:2] for v in r2])
'
"$PY" -c "$RANK2" "$T/notes.txt" "$SKEW"
ok $? "rank 2's offset is 50 ms to within the measured round trip, at MPI_Init and MPI_Finalize, and applied"

"$PY" -c '
import re, sys
for l in open(sys.argv[1]):
    m = re.search(r"rank ([013]) \(.*clock offset ([+-]\d+) ns .*round trip (\d+) ns.*\); (.*)$", l)
    if m and not m.group(4).startswith("not applied: same host"):
        sys.exit("rank %s: %s" % (m.group(1), l.strip()))
' "$T/notes.txt"
ok $? "ranks 1 and 3 share rank 0's clock and are left alone"

# The summary's table must show rank 2's two measurements as the notes give them (the same
# offsets, to the ns), marked applied, and ranks 1 and 3 as sharing rank 0's clock.  How close
# the offset is to 50 ms is the round trip's business (checked above), not the table's.
"$PY" -c '
import re, sys
notes = {}
for l in open(sys.argv[1]):
    m = re.search(r"rank (\d+) \(.*clock offset ([+-]\d+) ns against rank 0 at (\w+) ", l)
    if m:
        notes[(int(m.group(1)), m.group(3))] = int(m.group(2))
rows = {}
for l in open(sys.argv[2]):
    m = re.match(r"^ +(\d+) (MPI_Init|MPI_Finalize) +([+-]\d+) +\S+ \S+  (yes|no \(shared clock\)) ", l)
    if m:
        rows[(int(m.group(1)), m.group(2))] = (int(m.group(3)), m.group(4))
want = {k: (v, "yes" if k[0] == 2 else "no (shared clock)") for k, v in notes.items()}
if rows != want or len(rows) != 6:
    sys.exit("summary rows %s, want %s" % (rows, want))
' "$T/notes.txt" "$T/sum.txt"
ok $? "the summary's clock alignment section shows it"

# No arrow may point backwards in time, but one to or from rank 2 by no more than the
# uncertainty of its alignment: the round trip of its measurement (a message between
# processes of one host can take less than that).
FWD='
d = load(sys.argv[1])
truth = json.load(open(sys.argv[2]))
tol = int(sys.argv[3])
r2 = {p for p, (n, _) in procs(d).items() if n.startswith("rank 2 ")}
s = {e["id"]: e for e in events(d) if e["ph"] == "s" and e["name"] == "message"}
f = {e["id"]: e for e in events(d) if e["ph"] == "f" and e["name"] == "message"}
slack = lambda i: tol if {s[i]["pid"], f[i]["pid"]} & r2 else 0
back = [(s[i]["pid"], f[i]["pid"], s[i]["ts"], f[i]["ts"]) for i in s if i in f and ns(f[i]["ts"]) < ns(s[i]["ts"]) - slack(i)]
if len(s) != truth["messages"] or set(s) != set(f) or back or len(r2) != 1:
    sys.exit("%d messages matched of %d; backwards: %s; rank 2: %s" % (len(s), truth["messages"], back[:3], r2))
'
RTT='
import re, sys
print(max([int(m.group(1)) for l in open(sys.argv[1])
           for m in [re.search(r"rank 2 \(.*round trip (\d+) ns", l)] if m] or [0]))
'
pyc "$FWD" "$T/t.json" "$T/truth.json" "$("$PY" -c "$RTT" "$T/notes.txt")" 2>"$T/fwd.err"
ok $? "every message matched; no arrow points backwards in time (to or from rank 2: by less than its round trip)"
[ -s "$T/fwd.err" ] && diag "$(tail -n 3 "$T/fwd.err")" "$(grep -i 'rank 2' "$T/notes.txt" | head -n 4)"

TPROF_CLOCK=monotonic "$INSPECT" -o "$T/mono" -- "$MPIRUN" $MPIRUN_FLAGS -x TPROF_CLOCK $MPMD \
	>"$T/truth2.json" 2>"$T/rec2.err" &&
	"$ANALYZE" "$T/mono" -v -f chrome -o "$T/m.json" 2>"$T/notes2.txt" &&
	"$PY" -c "$RANK2" "$T/notes2.txt" "$SKEW"
ok $? "with TPROF_CLOCK=monotonic, rank 2's offset is 50 ms to within the round trip, and applied"
pyc "$FWD" "$T/m.json" "$T/truth2.json" "$("$PY" -c "$RTT" "$T/notes2.txt")" 2>"$T/fwd2.err"
ok $? "and again every message matched, no arrow backwards"
[ -s "$T/fwd2.err" ] && diag "$(tail -n 3 "$T/fwd2.err")" "$(grep -i 'rank 2' "$T/notes2.txt" | head -n 4)"
finish
