#!/bin/sh
# The OTF2 archive of a real MPI job: apps/mpi-pattern on 4 ranks under tprof-inspect, then
# tprof-analyze --format otf2.  otf2-print reads it without a word on stderr; its MPI send
# records (MPI_SEND, MPI_ISEND) and receive records (MPI_RECV, MPI_IRECV) each number the
# messages the program reports sending, and pair up by (communicator, sender, receiver, tag,
# order) with equal sizes; every member's collective is there; every location keeps time order
# and nests Enter/Leave; the definitions hold one location group per rank, in rank order, and
# the communicators (MPI_COMM_WORLD, the two halves of the split).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-otf2.sh"
need_mpi apps/mpi-pattern
plan 8

"$INSPECT" -o "$T/out" -- "$MPIRUN" $MPIRUN_FLAGS -np 4 "$APPS/mpi-pattern" >"$T/truth.json" 2>"$T/rec.err"
ok $? "mpi-pattern runs on 4 ranks under tprof-inspect ($(cat "$T/truth.json"))"

"$ANALYZE" "$T/out" --format otf2 -o "$T/otf2" 2>"$T/an.err"
ok $? "tprof-analyze --format otf2 writes the archive"

otf2_print "$T/otf2/traces.otf2" "$T/p"
ok $? "otf2-print reads it, events and definitions, and says nothing on stderr"

check "MPI send and receive records each number the program's messages, and pair up" pyo '
import json
truth = json.load(open(sys.argv[2]))
ev = events(sys.argv[1])
sends = [x for x in ev if x[0] in ("MPI_SEND", "MPI_ISEND")]
recvs = [x for x in ev if x[0] in ("MPI_RECV", "MPI_IRECV")]
if len(sends) != truth["messages"] or len(recvs) != truth["messages"]:
    sys.exit("%d send and %d receive records; the program sent %d messages" % (len(sends), len(recvs), truth["messages"]))
# Receiver: 1 ("mpi-pattern" <1>), Communicator: "MPI_COMM_WORLD" <0>, Tag: 1, Length: 16:
# the peer is a rank in the communicator, followed by its location.
group = {}
for d, i, text in defs(sys.argv[1] + ".defs"):
    m = re.search(r"Group: .*<(\d+)>$", text)
    if d == "LOCATION" and m: group[int(i)] = int(m.group(1))
def key(l, text, peer):
    m = re.search(peer + r": \d+ \(.*?<(\d+)>\), Communicator: .*?<(\d+)>, Tag: (\d+), Length: (\d+)", text)
    if not m: sys.exit("cannot read %r" % text)
    return group[l], group[int(m.group(1))], int(m.group(2)), int(m.group(3)), int(m.group(4))
chan, got = collections.defaultdict(list), collections.defaultdict(list)
for r, l, t, x in sorted(sends, key=lambda e: e[2]):
    me, peer, comm, tag, n = key(l, x, "Receiver")
    chan[(comm, me, peer, tag)].append(n)
for r, l, t, x in sorted(recvs, key=lambda e: e[2]):
    me, peer, comm, tag, n = key(l, x, "Sender")
    got[(comm, peer, me, tag)].append(n)
if chan != got:
    sys.exit("channels differ:\nsends %s\nreceives %s" % (dict(chan), dict(got)))
' "$T/p" "$T/truth.json"

check "every member's collectives: world 4 x world count, split 4 x split count" pyo '
import json
truth = json.load(open(sys.argv[2]))
ev = events(sys.argv[1])
n = sum(1 for x in ev if x[0] in ("MPI_COLLECTIVE_END", "NON_BLOCKING_COLLECTIVE_COMPLETE"))
want = truth["ranks"] * (truth["collectives"]["world"] + truth["collectives"]["split"])
if n != want: sys.exit("%d collective records, want %d" % (n, want))
' "$T/p" "$T/truth.json"

check "every location keeps time order and nests Enter/Leave" pyo '
bad = nesting(events(sys.argv[1]))
if bad: sys.exit("\n".join(bad[:10]))
' "$T/p"

check "one location group per rank, in rank order, and the communicators defined" pyo '
d = defs(sys.argv[1] + ".defs")
groups = sorted((int(x[1]), x) for x in d if x[0] == "LOCATION_GROUP" and "Type: PROCESS" in x[2])
groups = [x for i, x in groups]
names = [name(x[2]) for x in groups]
if [n.split(" (")[0] for n in names[:4]] != ["rank %d" % k for k in range(4)]:
    sys.exit("groups %s" % names)
comms = [name(x[2]) for x in d if x[0] == "COMM"]
if "MPI_COMM_WORLD" not in comms or len(comms) < 3:
    sys.exit("communicators %s" % comms)
' "$T/p"

# Tools that key on location names (the OTF2 Python reader's users do) must not find one
# name for the threads of several ranks.
check "every location has a name of its own, its rank first (rank 2: mpi-pattern (tid N))" pyo '
d = defs(sys.argv[1] + ".defs")
names = [name(x[2]) for x in d if x[0] == "LOCATION"]
twice = sorted({n for n in names if names.count(n) > 1})
ranks = sorted(n.split(":")[0] for n in names if "mpi-pattern (tid " in n)
if twice or ranks != ["rank %d" % k for k in range(4)]:
    sys.exit("names %s; given more than once: %s" % (names, twice))
' "$T/p"
finish
