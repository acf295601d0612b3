"""mpi-otf2.py — the checks of func/t-mpi-otf2.sh on the OTF2 archive tprof-analyze wrote of
apps/mpi-pattern run on 4 ranks: what otf2-print printed of it, its events (OUT) and global
definitions (OUT.defs), read with the helpers of lib-otf2.py, against the program's own
account of its job (TRUTH: the JSON it printed: ranks, messages, collectives)."""
import collections
import importlib
import json
import re

from checklib import fail, main

otf2 = importlib.import_module("lib-otf2")
events, defs, name = otf2.events, otf2.defs, otf2.name


def messages_pair_up(path, truth):
    """MPI send and receive records each number the program's messages, and pair up by
    (communicator, sender, receiver, tag, order) with equal sizes."""
    truth = json.load(open(truth))
    ev = events(path)
    sends = [x for x in ev if x[0] in ("MPI_SEND", "MPI_ISEND")]
    recvs = [x for x in ev if x[0] in ("MPI_RECV", "MPI_IRECV")]
    if len(sends) != truth["messages"] or len(recvs) != truth["messages"]:
        fail("%d send and %d receive records; the program sent %d messages" % (
            len(sends), len(recvs), truth["messages"]))
    # Receiver: 1 ("mpi-pattern" <1>), Communicator: "MPI_COMM_WORLD" <0>, Tag: 1, Length: 16:
    # the peer is a rank in the communicator, followed by its location.
    group = {}
    for d, i, text in defs(path + ".defs"):
        m = re.search(r"Group: .*<(\d+)>$", text)
        if d == "LOCATION" and m:
            group[int(i)] = int(m.group(1))

    def key(loc, text, peer):
        m = re.search(peer + r": \d+ \(.*?<(\d+)>\), Communicator: .*?<(\d+)>, Tag: (\d+), "
                      r"Length: (\d+)", text)
        if not m:
            fail("cannot read %r" % text)
        return (group[loc], group[int(m.group(1))], int(m.group(2)), int(m.group(3)),
                int(m.group(4)))
    chan, got = collections.defaultdict(list), collections.defaultdict(list)
    for r, loc, t, x in sorted(sends, key=lambda e: e[2]):
        me, peer, comm, tag, n = key(loc, x, "Receiver")
        chan[(comm, me, peer, tag)].append(n)
    for r, loc, t, x in sorted(recvs, key=lambda e: e[2]):
        me, peer, comm, tag, n = key(loc, x, "Sender")
        got[(comm, peer, me, tag)].append(n)
    if chan != got:
        fail("channels differ:\nsends %s\nreceives %s" % (dict(chan), dict(got)))


def collectives(path, truth):
    """Every member's collectives: world 4 x world count, split 4 x split count."""
    truth = json.load(open(truth))
    ev = events(path)
    n = sum(1 for x in ev if x[0] in ("MPI_COLLECTIVE_END", "NON_BLOCKING_COLLECTIVE_COMPLETE"))
    want = truth["ranks"] * (truth["collectives"]["world"] + truth["collectives"]["split"])
    if n != want:
        fail("%d collective records, want %d" % (n, want))


def groups_and_communicators(path):
    """One location group per rank, in rank order, and the communicators defined."""
    d = defs(path + ".defs")
    groups = sorted((int(x[1]), x) for x in d
                    if x[0] == "LOCATION_GROUP" and "Type: PROCESS" in x[2])
    groups = [x for i, x in groups]
    names = [name(x[2]) for x in groups]
    if [n.split(" (")[0] for n in names[:4]] != ["rank %d" % k for k in range(4)]:
        fail("groups %s" % names)
    comms = [name(x[2]) for x in d if x[0] == "COMM"]
    if "MPI_COMM_WORLD" not in comms or len(comms) < 3:
        fail("communicators %s" % comms)


def location_names(path):
    """Every location has a name of its own, its rank first (rank 2: mpi-pattern (tid N)).
    Tools that key on location names (the OTF2 Python reader's users do) must not find one
    name for the threads of several ranks."""
    d = defs(path + ".defs")
    names = [name(x[2]) for x in d if x[0] == "LOCATION"]
    twice = sorted({n for n in names if names.count(n) > 1})
    ranks = sorted(n.split(":")[0] for n in names if "mpi-pattern (tid " in n)
    if twice or ranks != ["rank %d" % k for k in range(4)]:
        fail("names %s; given more than once: %s" % (names, twice))


if __name__ == "__main__":
    main(globals())
