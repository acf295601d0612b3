"""mpi-synth.py — the checks of func/t-mpi-synth.sh on the Chrome traces that tprof-analyze
wrote of the synthetic 4-rank job of apps/mpi-synth (some checks also given the number of
messages or collective instances the job printed)."""
import collections

from checklib import fail, main
from chrome_trace import calls, enclosing, events, flows, load, ns


def processes_by_rank(trace):
    """Processes are named rank N (host, pid P), ordered by rank, the rankless one last."""
    d = load(trace)
    names = {e["pid"]: e["args"]["name"] for e in d["traceEvents"]
             if e["ph"] == "M" and e["name"] == "process_name"}
    order = {e["pid"]: e["args"]["sort_index"] for e in d["traceEvents"]
             if e["ph"] == "M" and e["name"] == "process_sort_index"}
    byorder = [names[p] for p in sorted(order, key=order.get)]
    want = ["rank 0 (hostA, pid 700)", "rank 1 (hostA, pid 701)", "rank 2 (hostB, pid 702)",
            "rank 3 (hostA, pid 703)"]
    if [n[:len(w)] for n, w in zip(byorder, want)] != want or len(byorder) != 5 or \
            not byorder[4].startswith("mpi-synth (hostA, pid 650)"):
        fail("processes in order: %s" % byorder)


def call_arguments(trace):
    """MPI calls carry their arguments (communicator, peer, rank in it, tag, bytes, root, seq,
    request)."""
    d = load(trace)
    ev = [e for e in events(d) if e["ph"] == "X" and e.get("cat") == "mpi"]

    def one(name, **kw):
        for e in ev:
            a = e.get("args", {})
            if e["name"] == name and all(a.get(k) == v for k, v in kw.items()):
                return a
        fail("no %s with %s" % (name, kw))
    a = one("MPI_Isend", comm="MPI_COMM_WORLD", peer=3, peer_in_comm=3, tag=10, bytes=64)
    if not a.get("request", "").startswith("0x"):
        fail("MPI_Isend without its request: %s" % a)
    one("MPI_Irecv", comm="MPI_COMM_WORLD", peer="ANY", tag=20)
    one("MPI_Bcast", comm="MPI_COMM_WORLD", root=0, root_in_comm=0, bytes=1024, seq=1)
    one("MPI_Barrier", comm="odd", seq=1)
    one("MPI_Allreduce", comm="even", seq=2, bytes=16, bytes_recv=16)
    one("MPI_Waitall", requests=3)


def message_flows(trace, messages):
    """One flow per message (MESSAGES), from the sending call to the call that completed the
    receive."""
    d = load(trace)
    want = int(messages)
    by = calls(d, "mpi")
    s, f = flows(d, "message")
    if len(s) != want or set(s) != set(f):
        fail("%d flow starts, %d ends, want %d" % (len(s), len(f), want))
    for i in s:
        a, b = s[i], f[i]
        cs, cf = enclosing(by, a), enclosing(by, b)
        if not cs or cs["name"] not in ("MPI_Isend", "MPI_Send"):
            fail("flow %s starts outside a send: %s" % (i, a))
        if b.get("bp") != "e" or not cf or cf["name"] not in ("MPI_Waitall", "MPI_Recv"):
            fail("flow %s ends outside the completing call: %s" % (i, b))
        if (a["pid"], a["tid"]) == (b["pid"], b["tid"]):
            fail("flow %s within one thread" % i)


def no_backward_messages(trace):
    """No message arrow points backwards in time (rank 2 aligned)."""
    d = load(trace)
    s, f = flows(d, "message")
    back = [(s[i], f[i]) for i in s if ns(f[i]["ts"]) < ns(s[i]["ts"])]
    if back:
        fail("%d arrows backwards, e.g. %s" % (len(back), back[0]))


def collectives_on_members(trace, collectives):
    """Every collective (COLLECTIVES instances) on all members of its communicator, arrows
    from the last to arrive."""
    d = load(trace)
    want = int(collectives)
    size = {"MPI_COMM_WORLD": 4, "even": 2, "odd": 2}
    inst = collections.defaultdict(list)
    for e in events(d):
        a = e.get("args", {})
        if e["ph"] == "X" and e.get("cat") == "mpi" and "seq" in a:
            inst[(a["comm"], a["seq"])].append((e["pid"], e["name"]))
    bad = [(k, v) for k, v in inst.items() if len(v) != size[k[0]] or
           len({n for _, n in v}) != 1 or len({p for p, _ in v}) != len(v)]
    if len(inst) != want or bad:
        fail("%d instances, want %d; not on every member: %s" % (len(inst), want, bad[:3]))
    by = calls(d, "mpi")
    s, f = flows(d, "collective")
    for i in s:
        cs, cf = enclosing(by, s[i]), enclosing(by, f[i])
        if not cs or not cf or "seq" not in cs["args"] or cs["args"]["seq"] != cf["args"]["seq"] \
                or ns(f[i]["ts"]) < ns(s[i]["ts"]):
            fail("collective flow %s: from %s to %s" % (i, cs, cf))
    if not s:
        fail("no collective flows")


def window_messages(trace):
    """A window (iteration 1, 109 to 209 us) keeps the 7 messages whose receive completed in
    it."""
    d = load(trace)
    s, f = flows(d, "message")
    if len(s) != 7 or len(f) != 7 or \
            any(not (109000 <= ns(e["ts"]) < 209000) for e in f.values()):
        fail("%d message flows in the window, want 7 ending in it" % len(s))


def domain_flows(trace, messages):
    """With --group-by domain, the flows (MESSAGES) bind to the calls in the API calls
    group."""
    d = load(trace)
    want = int(messages)
    by = calls(d, "mpi")
    s, f = flows(d, "message")
    bad = [i for i in s if not enclosing(by, s[i]) or not enclosing(by, f[i]) or
           s[i]["pid"] < 1000000]
    if len(s) != want or bad:
        fail("%d flows, %d not bound to calls in the API group" % (len(s), len(bad)))


main(globals())
