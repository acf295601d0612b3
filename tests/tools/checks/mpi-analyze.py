"""mpi-analyze.py — the checks of func/t-mpi-analyze.sh on the Chrome trace tprof-analyze
wrote of apps/mpi-pattern on 4 ranks, against the truth the program printed (JSON: the
messages it sent, the collectives on the world and on each half of the split communicator);
messages and collective-instances print the numbers the shell looks for in the summary."""
import collections
import json

from checklib import fail, main
from chrome_trace import calls, enclosing, events, flows, load, ns

SENDS = ("MPI_Send", "MPI_Isend", "MPI_Sendrecv", "MPI_Start")
COMPLETIONS = ("MPI_Recv", "MPI_Sendrecv", "MPI_Wait", "MPI_Waitall", "MPI_Waitany",
               "MPI_Waitsome", "MPI_Test", "MPI_Testall", "MPI_Testany", "MPI_Testsome")


def _load(trace, truth):
    """The Chrome trace and the truth, parsed."""
    return load(trace), json.load(open(truth))


def rank_order(trace, truth):
    """The four processes are named rank 0..3 (host, pid) in rank order."""
    d, _ = _load(trace, truth)
    names = {e["pid"]: e["args"]["name"] for e in d["traceEvents"]
             if e["ph"] == "M" and e["name"] == "process_name"}
    order = {e["pid"]: e["args"]["sort_index"] for e in d["traceEvents"]
             if e["ph"] == "M" and e["name"] == "process_sort_index"}
    got = [names[p].split(" (")[0] for p in sorted(order, key=order.get)]
    if got != ["rank %d" % k for k in range(4)]:
        fail("processes: %s" % [names[p] for p in sorted(order, key=order.get)])


def messages_matched(trace, truth):
    """Every message matched: one flow each, from its sending call to the call completing its
    receive."""
    d, truth = _load(trace, truth)
    by = calls(d, "mpi")
    s, f = flows(d, "message")
    want = truth["messages"]
    if len(s) != want or set(s) != set(f):
        fail("%d flow starts and %d ends, the program sent %d messages" % (len(s), len(f), want))
    for i in s:
        cs, cf = enclosing(by, s[i]), enclosing(by, f[i])
        if not cs or cs["name"] not in SENDS:
            fail("flow %s starts outside a sending call: %s in %s" % (i, s[i], cs))
        if f[i].get("bp") != "e" or not cf or cf["name"] not in COMPLETIONS:
            fail("flow %s ends outside the call completing its receive: %s in %s" % (i, f[i], cf))


def forward_arrows(trace, truth):
    """No message arrow points backwards in time."""
    d, _ = _load(trace, truth)
    s, f = flows(d, "message")
    back = [(s[i]["ts"], f[i]["ts"]) for i in s if ns(f[i]["ts"]) < ns(s[i]["ts"])]
    if back:
        fail("%d arrows point backwards: %s" % (len(back), back[:3]))


def collectives_complete(trace, truth):
    """Every collective is found on all members of its communicator (world and both halves)."""
    d, truth = _load(trace, truth)
    inst = collections.defaultdict(list)
    for e in events(d):
        a = e.get("args", {})
        if e["ph"] == "X" and e.get("cat") == "mpi" and "seq" in a:
            inst[(a["comm"], a["seq"])].append(e["pid"])
    world = [k for k in inst if k[0] == "MPI_COMM_WORLD"]
    split = [k for k in inst if k[0] != "MPI_COMM_WORLD"]
    bad = [(k, v) for k, v in inst.items()
           if sorted(v) != sorted(set(v)) or len(v) != (4 if k in world else 2)]
    if (bad or len(world) != truth["collectives"]["world"] or
            len(split) != 2 * truth["collectives"]["split"]):
        fail("world %d, split %d instances; not on every member: %s" %
             (len(world), len(split), bad))


def messages(truth):
    """Prints the number of messages the program sent."""
    print(json.load(open(truth))["messages"])


def collective_instances(truth):
    """Prints the number of collective instances: the world's, and each half's of the split."""
    t = json.load(open(truth))
    print(t["collectives"]["world"] + 2 * t["collectives"]["split"])


main(globals())
