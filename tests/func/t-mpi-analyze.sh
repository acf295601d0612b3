#!/bin/sh
# tprof-analyze on a real MPI job: apps/mpi-pattern on 4 ranks under tprof-inspect (ring,
# Isend/Irecv + Waitall, ANY_SOURCE and ANY_TAG receives, Sendrecv, Probe, persistent
# requests, collectives on MPI_COMM_WORLD and on a split communicator, MPI_Iallreduce).
# Every message the program reports sending is matched and drawn as one flow arrow from the
# sending call to the call that completed its receive, none backwards in time; every
# collective is found on all members of its communicator; the summary agrees.
. "$(dirname "$0")/lib.sh"
need_mpi apps/mpi-pattern
plan 8

APP="$APPS/mpi-pattern"
"$INSPECT" -o "$T/out" -- "$MPIRUN" $MPIRUN_FLAGS -np 4 "$APP" >"$T/truth.json" 2>"$T/rec.err"
ok $? "mpi-pattern runs on 4 ranks under tprof-inspect ($(cat "$T/truth.json"))"

"$ANALYZE" "$T/out" -f chrome -o "$T/t.json" -s >"$T/sum.txt" 2>"$T/err.txt"
ok $? "tprof-analyze writes the Chrome trace and the summary"

MPI_PY='
def calls(d):
    by = collections.defaultdict(list)
    for e in events(d):
        if e["ph"] == "X" and e.get("cat") == "mpi":
            by[(e["pid"], e["tid"])].append(e)
    return by
def enclosing(by, e):
    t = ns(e["ts"])
    for c in by[(e["pid"], e["tid"])]:
        if ns(c["ts"]) <= t <= ns(c["ts"]) + ns(c["dur"]):
            return c
    return None
def flows(d, name):
    s = {e["id"]: e for e in events(d) if e["ph"] == "s" and e["name"] == name}
    f = {e["id"]: e for e in events(d) if e["ph"] == "f" and e["name"] == name}
    return s, f
truth = json.load(open(sys.argv[2]))
'

pyc "$MPI_PY"'
d = load(sys.argv[1])
names = {e["pid"]: e["args"]["name"] for e in d["traceEvents"] if e["ph"] == "M" and e["name"] == "process_name"}
order = {e["pid"]: e["args"]["sort_index"] for e in d["traceEvents"] if e["ph"] == "M" and e["name"] == "process_sort_index"}
got = [names[p].split(" (")[0] for p in sorted(order, key=order.get)]
if got != ["rank %d" % k for k in range(4)]:
    sys.exit("processes: %s" % [names[p] for p in sorted(order, key=order.get)])
' "$T/t.json" "$T/truth.json"
ok $? "the four processes are named rank 0..3 (host, pid) in rank order"

pyc "$MPI_PY"'
d = load(sys.argv[1])
by = calls(d)
s, f = flows(d, "message")
want = truth["messages"]
if len(s) != want or set(s) != set(f):
    sys.exit("%d flow starts and %d ends, the program sent %d messages" % (len(s), len(f), want))
for i in s:
    cs, cf = enclosing(by, s[i]), enclosing(by, f[i])
    if not cs or cs["name"] not in ("MPI_Send", "MPI_Isend", "MPI_Sendrecv", "MPI_Start"):
        sys.exit("flow %s starts outside a sending call: %s in %s" % (i, s[i], cs))
    if f[i].get("bp") != "e" or not cf or cf["name"] not in ("MPI_Recv", "MPI_Sendrecv", "MPI_Wait", "MPI_Waitall", "MPI_Waitany", "MPI_Waitsome", "MPI_Test", "MPI_Testall", "MPI_Testany", "MPI_Testsome"):
        sys.exit("flow %s ends outside the call completing its receive: %s in %s" % (i, f[i], cf))
' "$T/t.json" "$T/truth.json"
ok $? "every message matched: one flow each, from its sending call to the call completing its receive"

pyc "$MPI_PY"'
d = load(sys.argv[1])
s, f = flows(d, "message")
back = [(s[i]["ts"], f[i]["ts"]) for i in s if ns(f[i]["ts"]) < ns(s[i]["ts"])]
if back:
    sys.exit("%d arrows point backwards: %s" % (len(back), back[:3]))
' "$T/t.json" "$T/truth.json"
ok $? "no message arrow points backwards in time"

pyc "$MPI_PY"'
d = load(sys.argv[1])
inst = collections.defaultdict(list)
for e in events(d):
    a = e.get("args", {})
    if e["ph"] == "X" and e.get("cat") == "mpi" and "seq" in a:
        inst[(a["comm"], a["seq"])].append(e["pid"])
world = [k for k in inst if k[0] == "MPI_COMM_WORLD"]
split = [k for k in inst if k[0] != "MPI_COMM_WORLD"]
bad = [(k, v) for k, v in inst.items() if sorted(v) != sorted(set(v)) or len(v) != (4 if k in world else 2)]
if bad or len(world) != truth["collectives"]["world"] or len(split) != 2 * truth["collectives"]["split"]:
    sys.exit("world %d, split %d instances; not on every member: %s" % (len(world), len(split), bad))
' "$T/t.json" "$T/truth.json"
ok $? "every collective is found on all members of its communicator (world and both halves)"

M=$("$PY" -c 'import json, sys; print(json.load(open(sys.argv[1]))["messages"])' "$T/truth.json")
C=$("$PY" -c 'import json, sys; t = json.load(open(sys.argv[1])); print(t["collectives"]["world"] + 2 * t["collectives"]["split"])' "$T/truth.json")
grep -q "^  matched:     $M messages" "$T/sum.txt" && grep -q "^  unmatched:   0 sends, 0 receives" "$T/sum.txt" &&
	! grep -q "^  incomplete:" "$T/sum.txt"
ok $? "the summary: $M messages matched, none unmatched, no incomplete collective"
awk '/^MPI collectives/ {c = 1; next} c && /^$/ {c = 0} c && $1 ~ /^[0-9]+$/ {n += $1} END {print n + 0}' \
	"$T/sum.txt" >"$T/n.txt"
[ "$(cat "$T/n.txt")" = "$C" ]
ok $? "and $C collective instances ($(cat "$T/n.txt") in its table)"
finish
