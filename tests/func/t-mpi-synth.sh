#!/bin/sh
# tprof-analyze's MPI outputs end to end, on the trace of a synthetic 4-rank job written by
# apps/mpi-synth (ring of MPI_Isend/MPI_Irecv + MPI_Waitall, MPI_ANY_SOURCE receives,
# collectives on MPI_COMM_WORLD and on a split communicator, one rank on a host whose clocks
# are 5 ms ahead): the Chrome trace names and orders the ranks, gives MPI calls their
# arguments, draws one flow per message from the sending call to the call that completed
# the receive, never backwards in time, lines collectives up on every member; the summary
# counts the same; a window keeps the messages that completed in it.
. "$(dirname "$0")/lib.sh"
SYNTH="$APPS/mpi-synth"
[ -x "$SYNTH" ] || skip_all "apps/mpi-synth was not built"
plan 13

truth=$("$SYNTH" "$T/job") && [ -n "$truth" ]
ok $? "the synthetic job is written ($truth)"
MSGS=$(echo "$truth" | sed -n 's/.*messages=\([0-9]*\).*/\1/p')
COLLS=$(echo "$truth" | sed -n 's/.*collectives=\([0-9]*\).*/\1/p')

"$ANALYZE" "$T/job" -f chrome -o "$T/t.json" -s >"$T/sum.txt" 2>"$T/err.txt"
ok $? "tprof-analyze writes the Chrome trace and the summary"

# Helpers: MPI calls by track, the call enclosing a flow event.
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
'

pyc "$MPI_PY"'
d = load(sys.argv[1])
names = {e["pid"]: e["args"]["name"] for e in d["traceEvents"] if e["ph"] == "M" and e["name"] == "process_name"}
order = {e["pid"]: e["args"]["sort_index"] for e in d["traceEvents"] if e["ph"] == "M" and e["name"] == "process_sort_index"}
byorder = [names[p] for p in sorted(order, key=order.get)]
want = ["rank 0 (hostA, pid 700)", "rank 1 (hostA, pid 701)", "rank 2 (hostB, pid 702)", "rank 3 (hostA, pid 703)"]
if [n[:len(w)] for n, w in zip(byorder, want)] != want or len(byorder) != 5 or not byorder[4].startswith("mpi-synth (hostA, pid 650)"):
    sys.exit("processes in order: %s" % byorder)
' "$T/t.json"
ok $? "processes are named rank N (host, pid P), ordered by rank, the rankless one last"

pyc "$MPI_PY"'
d = load(sys.argv[1])
ev = [e for e in events(d) if e["ph"] == "X" and e.get("cat") == "mpi"]
def one(name, **kw):
    for e in ev:
        a = e.get("args", {})
        if e["name"] == name and all(a.get(k) == v for k, v in kw.items()):
            return a
    sys.exit("no %s with %s" % (name, kw))
a = one("MPI_Isend", comm="MPI_COMM_WORLD", peer=3, peer_in_comm=3, tag=10, bytes=64)
if not a.get("request", "").startswith("0x"):
    sys.exit("MPI_Isend without its request: %s" % a)
one("MPI_Irecv", comm="MPI_COMM_WORLD", peer="ANY", tag=20)
one("MPI_Bcast", comm="MPI_COMM_WORLD", root=0, root_in_comm=0, bytes=1024, seq=1)
one("MPI_Barrier", comm="odd", seq=1)
one("MPI_Allreduce", comm="even", seq=2, bytes=16, bytes_recv=16)
one("MPI_Waitall", requests=3)
' "$T/t.json"
ok $? "MPI calls carry their arguments (communicator, peer, rank in it, tag, bytes, root, seq, request)"

pyc "$MPI_PY"'
d = load(sys.argv[1]); want = int(sys.argv[2])
by = calls(d)
s, f = flows(d, "message")
if len(s) != want or set(s) != set(f):
    sys.exit("%d flow starts, %d ends, want %d" % (len(s), len(f), want))
for i in s:
    a, b = s[i], f[i]
    cs, cf = enclosing(by, a), enclosing(by, b)
    if not cs or cs["name"] not in ("MPI_Isend", "MPI_Send"):
        sys.exit("flow %s starts outside a send: %s" % (i, a))
    if b.get("bp") != "e" or not cf or cf["name"] not in ("MPI_Waitall", "MPI_Recv"):
        sys.exit("flow %s ends outside the completing call: %s" % (i, b))
    if (a["pid"], a["tid"]) == (b["pid"], b["tid"]):
        sys.exit("flow %s within one thread" % i)
' "$T/t.json" "$MSGS"
ok $? "one flow per message ($MSGS), from the sending call to the call that completed the receive"

pyc "$MPI_PY"'
d = load(sys.argv[1])
s, f = flows(d, "message")
back = [(s[i], f[i]) for i in s if ns(f[i]["ts"]) < ns(s[i]["ts"])]
if back:
    sys.exit("%d arrows backwards, e.g. %s" % (len(back), back[0]))
' "$T/t.json"
ok $? "no message arrow points backwards in time (rank 2 aligned)"

pyc "$MPI_PY"'
d = load(sys.argv[1]); want = int(sys.argv[2])
size = {"MPI_COMM_WORLD": 4, "even": 2, "odd": 2}
inst = collections.defaultdict(list)
for e in events(d):
    a = e.get("args", {})
    if e["ph"] == "X" and e.get("cat") == "mpi" and "seq" in a:
        inst[(a["comm"], a["seq"])].append((e["pid"], e["name"]))
bad = [(k, v) for k, v in inst.items() if len(v) != size[k[0]] or len({n for _, n in v}) != 1 or len({p for p, _ in v}) != len(v)]
if len(inst) != want or bad:
    sys.exit("%d instances, want %d; not on every member: %s" % (len(inst), want, bad[:3]))
by = calls(d)
s, f = flows(d, "collective")
for i in s:
    cs, cf = enclosing(by, s[i]), enclosing(by, f[i])
    if not cs or not cf or "seq" not in cs["args"] or cs["args"]["seq"] != cf["args"]["seq"] or ns(f[i]["ts"]) < ns(s[i]["ts"]):
        sys.exit("collective flow %s: from %s to %s" % (i, cs, cf))
if not s:
    sys.exit("no collective flows")
' "$T/t.json" "$COLLS"
ok $? "every collective ($COLLS) on all members of its communicator, arrows from the last to arrive"

grep -q "^  matched:     $MSGS messages" "$T/sum.txt" && grep -q "^  unmatched:   0 sends, 0 receives" "$T/sum.txt"
ok $? "the summary counts $MSGS messages matched, none unmatched"
awk '/^MPI collectives/ {c = 1; next} c && /^$/ {c = 0} c' "$T/sum.txt" >"$T/colls.txt"
grep -Eq '^ +5 .* MPI_Bcast$' "$T/colls.txt" && grep -Eq '^ +15 .* MPI_Allreduce$' "$T/colls.txt" &&
	grep -Eq '^ +10 .* MPI_Barrier$' "$T/colls.txt"
ok $? "collectives by call: 5 MPI_Bcast, 15 MPI_Allreduce, 10 MPI_Barrier instances"
grep -Eq '^ +2 MPI_Init +\+4999800 .* yes +rank 2 \(hostB' "$T/sum.txt" &&
	grep -Eq '^MPI by rank' "$T/sum.txt" && grep -q 'imbalance (max/mean of time in MPI over 4 processes)' "$T/sum.txt"
ok $? "the summary shows rank 2's clock offset, applied, and time in MPI by rank"

"$ANALYZE" "$T/job" -v -s >/dev/null 2>"$T/verbose.txt" &&
	grep -q 'rank 2 (hostB, pid 702).*clock offset +4999800 ns against rank 0 at MPI_Init (round trip 1.5\?[0-9]* ns' "$T/verbose.txt"
ok $? "-v notes the clock offsets"

# Iteration 1 runs from 110000 to 210000 ticks: 109 to 209 us from the trace start.
"$ANALYZE" "$T/job" --start 109 --end 209 -o "$T/w.json" 2>/dev/null &&
	pyc "$MPI_PY"'
d = load(sys.argv[1])
s, f = flows(d, "message")
if len(s) != 7 or len(f) != 7 or any(not (109000 <= ns(e["ts"]) < 209000) for e in f.values()):
    sys.exit("%d message flows in the window, want 7 ending in it" % len(s))
' "$T/w.json"
ok $? "a window keeps the 7 messages whose receive completed in it"

"$ANALYZE" "$T/job" --group-by domain -o "$T/d.json" 2>/dev/null &&
	pyc "$MPI_PY"'
d = load(sys.argv[1]); want = int(sys.argv[2])
by = calls(d)
s, f = flows(d, "message")
bad = [i for i in s if not enclosing(by, s[i]) or not enclosing(by, f[i]) or s[i]["pid"] < 1000000]
if len(s) != want or bad:
    sys.exit("%d flows, %d not bound to calls in the API group" % (len(s), len(bad)))
' "$T/d.json" "$MSGS"
ok $? "with --group-by domain, the flows bind to the calls in the API calls group"
finish
