#!/bin/sh
# Polling MPI codes: apps/mpi-polls (2 ranks) polls with MPI_Test, MPI_Testany, MPI_Testsome,
# MPI_Testall, MPI_Iprobe and MPI_Improbe, alone and taking turns, in loops broken by other
# calls and by a tprof mark, once for a million unsuccessful tests, and prints what it did.
# By default each run of consecutive unsuccessful polls on a thread is one span with its count;
# the summary still has every function's exact number of calls; every poll that found
# something is recorded as before (its completions, its message arrows); the profile stays
# small.  TPROF_POLLS=each records every poll by itself.  Also with a second thread polling at
# the same time (MPI_THREAD_MULTIPLE), and in OTF2.
. "$(dirname "$0")/lib.sh"
need_mpi apps/mpi-polls
plan 20
# The ranks spin instead of yielding (need_mpi's default): a million unsuccessful tests that
# each yield hand the CPU to any other runnable task for a whole time slice, and on a loaded
# machine the test would take an hour.  Two ranks fit the two cores this runs on.
OMPI_MCA_mpi_yield_when_idle=0

APP="$top_builddir/tests/apps/mpi-polls"
"$INSPECT" -o "$T/runs" -- "$MPIRUN" $MPIRUN_FLAGS -np 2 "$APP" >"$T/truth.json" 2>"$T/rec.err"
ok $? "mpi-polls runs on 2 ranks under tprof-inspect"
"$ANALYZE" "$T/runs" -f chrome -o "$T/runs.json" -s >"$T/runs.txt" 2>"$T/runs.err"
ok $? "tprof-analyze writes the Chrome trace and the summary"

POLLS_PY='
FNS = ["MPI_Test", "MPI_Testany", "MPI_Testsome", "MPI_Testall", "MPI_Iprobe", "MPI_Improbe"]
truth = json.load(open(sys.argv[2]))
def summary_calls(path):
    rows = {}
    for line in open(path):
        f = line.split()
        if len(f) >= 10 and f[1] == "%" and f[-1] in FNS:
            rows[f[-1]] = int(f[4].replace(",", ""))
    return rows
def runs(d):
    by = collections.defaultdict(list)
    for e in sorted(events(d), key=lambda e: e["ts"]):
        if e["ph"] == "X" and "polls" in e.get("args", {}):
            by[str(e["tid"])].append(e)
    return by
'

pyc "$POLLS_PY"'
got = summary_calls(sys.argv[1])
want = truth["calls"]
if got != want:
    sys.exit("summary calls %s, the program made %s" % (got, want))
' "$T/runs.txt" "$T/truth.json"
ok $? "the summary has the exact number of calls of every polling function"

pyc "$POLLS_PY"'
d = load(sys.argv[1])
got = {tid: [[e["name"].split(" + "), e["args"]["polls"]] for e in v] for tid, v in runs(d).items()}
if got != truth["runs"]:
    sys.exit("runs in the trace %s\nthe program made %s" % (got, truth["runs"]))
' "$T/runs.json" "$T/truth.json"
ok $? "each run of unsuccessful polls is one span, named for its functions, with its count, in order"

pyc "$POLLS_PY"'
d = load(sys.argv[1])
bad = []
for v in runs(d).values():
    for e in v:
        a = e["args"]
        # (0 only for a lone poll that went untimed: its run ended as it began)
        tc = a["time in calls (us)"]
        if not (0 <= tc <= e["dur"] and (tc > 0 or a["polls"] == 1)):
            bad.append(e)
        if " + " in e["name"] and sum(f["polls"] for f in a["functions"].values()) != a["polls"]:
            bad.append(e)
if bad:
    sys.exit("spans whose time in calls or per-function counts are off: %s" % bad[:3])
' "$T/runs.json" "$T/truth.json"
ok $? "a run's time inside the calls lies within its span; the functions' counts add up"

pyc "$POLLS_PY"'
d = load(sys.argv[1])
single = collections.Counter(e["name"] for e in events(d) if e["ph"] == "X" and e.get("cat") == "mpi" and "polls" not in e.get("args", {}))
got = {f: single[f] for f in FNS}
want = {f: truth["calls"][f] - truth["misses"][f] for f in FNS}
if got != want:
    sys.exit("spans of single polls %s, polls that found something %s" % (got, want))
' "$T/runs.json" "$T/truth.json"
ok $? "every poll that found something is a span of its own"

"$DUMP" "$T/runs" >"$T/runs.rec" && py '
import collections, json, sys
truth = json.load(open(sys.argv[2]))
got = collections.Counter()
for line in open(sys.argv[1]):
    r = json.loads(line)
    for f in r.get("polls", []) if r["kind"] == "poll" else []:
        got[f["name"]] += f["count"]
want = {f: n for f, n in truth["misses"].items() if n}
if dict(got) != want:
    sys.exit("POLL records count %s, the program missed %s" % (dict(got), want))
' "$T/runs.rec" "$T/truth.json"
ok $? "the recorder's POLL records count every unsuccessful poll (dump-records)"

# Past its first 16 polls, a run times one poll in 17 and counts the others alone: a
# function's busy time, min and max are those of its timed polls (the analyzer scales the
# time by count / timed).
py '
import json, sys
bad, long_runs = [], 0
for line in open(sys.argv[1]):
    r = json.loads(line)
    for f in r.get("polls", []) if r["kind"] == "poll" else []:
        n, k = f["count"], f["timed"]
        if not (1 <= k <= n and k <= 16 + n // 17 + 1 and f["min"] * k <= f["busy"] <= f["max"] * k):
            bad.append(f)
        long_runs += n >= 1000
if bad or not long_runs:
    sys.exit("%d runs of 1000 polls or more; out of bounds: %s" % (long_runs, bad[:3]))
' "$T/runs.rec"
ok $? "long runs of polls time no more than one in 17, their busy time within timed x min and timed x max"

# Since one in 127: a run of N polls times its first 16 and then one in 127, all its
# functions together.
py '
import json, sys
bad, long_runs = [], 0
for line in open(sys.argv[1]):
    r = json.loads(line)
    fs = r.get("polls", []) if r["kind"] == "poll" else []
    n, k = sum(f["count"] for f in fs), sum(f["timed"] for f in fs)
    if fs and not (1 <= k <= 16 + max(n - 16, 0) // 127 + 1):
        bad.append(fs)
    long_runs += n >= 1000
if bad or not long_runs:
    sys.exit("%d runs of 1000 polls or more; timed out of bounds: %s" % (long_runs, bad[:3]))
' "$T/runs.rec"
ok $? "a run times its first 16 polls and then one in 127"

grep -q "unmatched:   0 sends, 0 receives" "$T/runs.txt" &&
	! grep -q "[1-9][0-9,]* receives never completed" "$T/runs.txt"
ok $? "every message is matched: the completing polls keep their completions"

size=$(du -sb "$T/runs" | cut -f1)
misses=$(py 'import json, sys; print(sum(json.load(open(sys.argv[1]))["misses"].values()))' "$T/truth.json")
[ "$size" -lt 1000000 ] && [ "$misses" -ge 1000000 ]
ok $? "the profile of $misses unsuccessful polls takes $size bytes (under 1 MB)"

# Every poll recorded by itself.
TPROF_POLLS=each "$INSPECT" -o "$T/each" -- "$MPIRUN" $MPIRUN_FLAGS -np 2 "$APP" >"$T/each-truth.json" 2>"$T/each.err" &&
	"$ANALYZE" "$T/each" -f chrome -o "$T/each.json" -s >"$T/each.txt" 2>>"$T/each.err"
ok $? "TPROF_POLLS=each: recorded and analyzed"
pyc "$POLLS_PY"'
d = load(sys.argv[1])
n = collections.Counter(e["name"] for e in events(d) if e["ph"] == "X" and e.get("cat") == "mpi")
folded = [e for e in events(d) if "polls" in e.get("args", {})]
got = {f: n[f] for f in FNS}
if got != truth["calls"] or folded or summary_calls(sys.argv[3]) != truth["calls"]:
    sys.exit("spans %s (%d folded), calls made %s" % (got, len(folded), truth["calls"]))
' "$T/each.json" "$T/each-truth.json" "$T/each.txt"
ok $? "TPROF_POLLS=each: one span per call, the same counts ($(du -sb "$T/each" | cut -f1) bytes)"

TPROF_POLLS=sometimes "$INSPECT" -o "$T/bad" -- "$MPIRUN" $MPIRUN_FLAGS -np 2 "$APP" >"$T/bad.json" 2>"$T/bad.err" &&
	grep -q 'TPROF_POLLS="sometimes" is not one of runs, each; using runs' "$T/bad.err"
ok $? "a bad TPROF_POLLS is named in a warning, and runs are kept"

# Killed while polling: the run so far is in the profile (its record lives in the mapped
# buffer, updated in place, and the kernel keeps it).
"$INSPECT" -o "$T/kill" -- "$MPIRUN" $MPIRUN_FLAGS -np 2 "$APP" forever >"$T/kill.out" 2>"$T/kill.err" &
for _i in $(seq 1 300); do grep -q "^polling" "$T/kill.out" && break; sleep 0.1; done
read -r _w kpid kn <"$T/kill.out"
# (Without its line in 30 s, every rank of it goes, so that the test cannot hang.)
[ -n "$kpid" ] && kill -9 "$kpid" 2>/dev/null || pkill -9 -f "$APP forever"
wait
"$ANALYZE" "$T/kill" -f chrome -o "$T/kill.json" 2>"$T/kill-an.err" && pyc '
d = load(sys.argv[1])
runs = [e for e in events(d) if e["ph"] == "X" and e["name"] == "MPI_Test" and "polls" in e.get("args", {})]
if len(runs) != 1 or runs[0]["args"]["polls"] < int(sys.argv[2]):
    sys.exit("runs %s after %s misses were reported" % (runs, sys.argv[2]))
' "$T/kill.json" "${kn:-1}"
ok $? "rank 0 killed (SIGKILL) while polling: its run is in the profile with at least the ${kn:-?} polls it reported"

# A second thread polls while the first one does.
"$INSPECT" -o "$T/thr" -- "$MPIRUN" $MPIRUN_FLAGS -np 2 "$APP" threads >"$T/thr-truth.json" 2>"$T/thr.err" &&
	"$ANALYZE" "$T/thr" -f chrome -o "$T/thr.json" -s >"$T/thr.txt" 2>>"$T/thr.err"
ok $? "mpi-polls threads (MPI_THREAD_MULTIPLE) recorded and analyzed"
pyc "$POLLS_PY"'
d = load(sys.argv[1])
got = {tid: [[e["name"].split(" + "), e["args"]["polls"]] for e in v] for tid, v in runs(d).items()}
if len(truth["runs"]) != 2 or got != truth["runs"] or summary_calls(sys.argv[3]) != truth["calls"]:
    sys.exit("runs in the trace %s\nthe program made %s" % (got, truth["runs"]))
' "$T/thr.json" "$T/thr-truth.json" "$T/thr.txt"
ok $? "two threads polling at once: each thread's runs and the counts are exact"
grep -q "unmatched:   0 sends, 0 receives" "$T/thr.txt"
ok $? "two threads polling at once: every message is matched"

# OTF2: a run is one region visit with its count.
if [ "${OTF2_PRINT:-no}" != no ] && [ -x "$OTF2_PRINT" ]; then
	. "$(dirname "$0")/lib-otf2.sh"
	"$ANALYZE" "$T/runs" -f otf2 -o "$T/otf2" 2>"$T/otf2.err" && otf2_print "$T/otf2/traces.otf2" "$T/otf2.txt"
	ok $? "OTF2: otf2-print reads the archive without complaint"
	pyo '
import json
truth = json.load(open(sys.argv[2]))
ev = events(sys.argv[1])
polls = sum(int(m) for r, l, t, x in ev if r == "ENTER" for m in re.findall(r"\(.polls. <\d+>; UINT64; (\d+)\)", x))
bad = nesting(ev)
if bad or polls != sum(truth["misses"].values()):
    sys.exit("nesting %s; polls attributes add up to %d, the program missed %d" % (bad[:3], polls, sum(truth["misses"].values())))
' "$T/otf2.txt" "$T/truth.json"
	ok $? "OTF2: regions nest, and their polls attributes add up to every unsuccessful poll"
else
	skip "otf2-print not found (on Debian: apt-get install otf2-tools)"
	skip "otf2-print not found (on Debian: apt-get install otf2-tools)"
fi
