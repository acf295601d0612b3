"""standin-nccl.py — the checks of stand-ins/tests/t-nccl.sh on the stand-in NCCL/RCCL: the
symbols each library exports (`nm -D` lines "KIND NAME"), what test-nccl printed (the
groupend and event lines) against the stand-in's trace file (STANDIN_NCCL_TRACE_FILE, one
line per operation and rank), and the truth apps/nccl-ranks and apps/rccl-ranks print (JSON)
against the trace of their run under mpirun."""
import collections
import json

from checklib import fail, main

COMMON = """ncclGetVersion ncclGetUniqueId ncclCommInitRank ncclCommInitRankConfig ncclCommInitAll
ncclCommSplit ncclCommFinalize ncclCommDestroy ncclCommAbort ncclCommGetAsyncError ncclCommCount
ncclCommCuDevice ncclCommUserRank ncclGetErrorString ncclGetLastError ncclAllReduce ncclBroadcast
ncclBcast ncclReduce ncclAllGather ncclReduceScatter ncclGather ncclScatter ncclSend ncclRecv
ncclGroupStart ncclGroupEnd ncclRedOpCreatePreMulSum ncclRedOpDestroy ncclMemAlloc ncclMemFree
ncclCommRegister ncclCommDeregister""".split()


def _syms(path):
    return {name: kind for kind, name in (line.split() for line in open(path))}


def exports(nccl_syms, rccl_syms):
    """Each library exports its API, ncclX weak and pncclX strong, and nothing else."""
    want = {"nccl": COMMON + ["ncclAlltoAll", "ncclCommInitRankScalable"],
            "rccl": COMMON + ["ncclAllToAll", "ncclAllToAllv"]}
    bad = []
    for lib, path in (("nccl", nccl_syms), ("rccl", rccl_syms)):
        s = _syms(path)
        for n in want[lib]:
            if s.get(n) != "W" or s.get("p" + n) != "T":
                bad.append("%s: %s is %s, p%s is %s" % (lib, n, s.get(n), n, s.get("p" + n)))
        extra = sorted(n for n in s if n.lstrip("p") not in want[lib])
        if extra:
            bad.append("%s exports more: %s" % (lib, " ".join(extra)))
    if bad:
        fail("; ".join(bad))


def group_launch(out, grouptrace):
    """NCCL launches a group's work at its outermost ncclGroupEnd: each rank waits 20 ms before
    calling it, and none of its operations may start before."""
    end = {}
    for line in open(out):
        if line.startswith("groupend "):
            d = dict(kv.split("=") for kv in line.split()[1:])
            end[int(d["pid"])] = int(d["ns"])
    ops = [dict(kv.split("=", 1) for kv in line.split()[1:]) for line in open(grouptrace)]
    if len(end) != 4 or len(ops) != 16 or {int(o["pid"]) for o in ops} != set(end):
        fail("%d ranks said when they ended the group, %d operations traced" %
             (len(end), len(ops)))
    early = [(o["pid"], o["seq"], (end[int(o["pid"])] - int(o["start_ns"])) / 1e3) for o in ops
             if int(o["start_ns"]) < end[int(o["pid"])]]
    if early:
        fail("operations started before their ncclGroupEnd (pid, seq, us early): %s" % early)


def event_times(events, evtrace):
    """What a profiler sees: runtime events recorded around each all-reduce on its stream
    measure at least what the stand-in says the operation took (the event interval also holds
    the stream's own delay in starting it) and at least the model (300 us + bytes / 5 GB/s)."""
    ev = {}
    for line in open(events):
        if line.startswith("event "):
            d = dict(kv.split("=") for kv in line.split()[1:])
            ev[(int(d["pid"]), int(d["seq"]))] = int(d["ns"])
    tr = {}
    for line in open(evtrace):
        d = dict(kv.split("=", 1) for kv in line.split()[1:])
        tr[(int(d["pid"]), int(d["seq"]))] = d
    if len(ev) != 24 or set(ev) != set(tr):
        fail("%d events, %d trace lines, keys differ: %s" % (len(ev), len(tr), set(ev) ^ set(tr)))
    worst = 0
    for k, ns in ev.items():
        d = tr[k]
        dur = int(d["end_ns"]) - int(d["start_ns"])
        model = 300000 + int(d["bytes"]) / 5
        if ns + 1000 < dur or ns < model:
            fail("%s: events %d ns, trace %d ns, model %d ns" % (k, ns, dur, model))
        worst = max(worst, ns - dur)
    print("# events exceed the trace by at most %.0f us" % (worst / 1000))


class _Trace:
    """The truth apps/nccl-ranks printed and the trace of its run: ops (every line, its numbers
    as integers, op its kind), p2p (the sends and receives), colls (the rest), n (the ranks);
    gbps and lat (ns) are the bandwidth and latency the stand-in was given."""

    def __init__(self, truth, trace, gbps, lat_us):
        self.truth = json.loads(open(truth).read())
        self.gbps, self.lat = float(gbps), float(lat_us) * 1000
        self.ops = []
        for line in open(trace):
            f = line.split()
            d = dict(kv.split("=", 1) for kv in f[1:])
            d["op"] = f[0]
            for k in ("rank", "nranks", "seq", "count", "bytes", "start_ns", "end_ns",
                      "ready_ns", "root", "peer", "nops", "pid", "device"):
                d[k] = int(d[k])
            self.ops.append(d)
        self.p2p = [o for o in self.ops if o["op"] in ("send", "recv")]
        self.colls = [o for o in self.ops if o["op"] not in ("send", "recv")]
        self.n = self.truth["ranks"]


def trace_lines(*args):
    """One trace line per operation per rank, all ok, on 3 communicators."""
    t = _Trace(*args)
    truth, n = t.truth, t.n
    if len(t.colls) != n * len(truth["collectives"]):
        fail("%d collective lines, want %d ranks x %d" %
             (len(t.colls), n, len(truth["collectives"])))
    if len(t.p2p) != n * truth["p2p"]:
        fail("%d send/recv lines, want %d x %d" % (len(t.p2p), n, truth["p2p"]))
    bad = [o for o in t.ops if o["status"] != "ok"]
    if bad:
        fail("not ok: %s" % bad[0])
    comms = collections.Counter(o["comm"] for o in t.colls)
    if len(comms) != 3:
        fail("%d communicators, want 3 (world and two halves): %s" % (len(comms), comms))


def collectives_agree(*args):
    """Every collective is found on all of its ranks with the same number, op, size and ready
    time (the latest start)."""
    t = _Trace(*args)
    groups = collections.defaultdict(list)
    for o in t.colls:
        groups[(o["comm"], o["seq"])].append(o)
    for key, g in groups.items():
        if sorted(o["rank"] for o in g) != list(range(g[0]["nranks"])):
            fail("collective %s: ranks %s" % (key, sorted(o["rank"] for o in g)))
        for f in ("op", "count", "dtype", "bytes", "root", "redop", "ready_ns"):
            if len({o[f] for o in g}) != 1:
                fail("collective %s: %s differs between ranks: %s" % (key, f, [o[f] for o in g]))
        if g[0]["ready_ns"] != max(o["start_ns"] for o in g):
            fail("collective %s: ready_ns is not the latest start" % (key,))
    # each rank numbers its collectives 1, 2, ... on each communicator
    per = collections.defaultdict(list)
    for o in t.colls:
        per[(o["comm"], o["rank"])].append(o["seq"])
    for k, seqs in per.items():
        if sorted(seqs) != list(range(1, len(seqs) + 1)):
            fail("%s: numbers %s" % (k, sorted(seqs)))


def program_order(*args):
    """The trace has the program's collectives in order, bytes = the nccl-tests size."""
    t = _Trace(*args)
    w = [c for c in t.truth["collectives"] if c["comm"] == "world"]
    mine = sorted((o for o in t.colls if o["rank"] == 0 and o["nranks"] == t.n),
                  key=lambda o: o["seq"])
    if ([(c["op"], c["count"], c["dtype"], c["seq"]) for c in w] !=
            [(o["op"], o["count"], o["dtype"], o["seq"]) for o in mine]):
        fail("rank 0 world: trace %s, truth %s" % ([(o["op"], o["count"]) for o in mine],
                                                   [(c["op"], c["count"]) for c in w]))
    for o in t.colls:
        size = 4 if o["dtype"] in ("float32", "int32") else 0
        want = o["count"] * size * (o["nranks"] if o["op"] in ("allgather", "reducescatter")
                                    else 1)
        if o["bytes"] != want:
            fail("%s count %d on %d ranks: bytes %d, want %d" %
                 (o["op"], o["count"], o["nranks"], o["bytes"], want))


def model_durations(*args):
    """Every operation ends no earlier than latency + bytes / bandwidth after it was ready."""
    t = _Trace(*args)
    for o in t.ops:
        model = t.lat + o["bytes"] / t.gbps
        if o["end_ns"] - o["ready_ns"] < model:
            fail("%s #%d of rank %d lasted %d ns after ready, model %d" %
                 (o["op"], o["seq"], o["rank"], o["end_ns"] - o["ready_ns"], model))
        if not o["start_ns"] <= o["ready_ns"] <= o["end_ns"]:
            fail("%s: start %d, ready %d, end %d" %
                 (o["op"], o["start_ns"], o["ready_ns"], o["end_ns"]))


def sends_meet(*args):
    """Every send meets its receive: same number, bytes and ready time (the later start)."""
    t = _Trace(*args)
    sends = {(o["comm"], o["rank"], o["peer"], o["seq"]): o for o in t.p2p if o["op"] == "send"}
    recvs = {(o["comm"], o["peer"], o["rank"], o["seq"]): o for o in t.p2p if o["op"] == "recv"}
    if set(sends) != set(recvs):
        fail("unmatched: %s" % (set(sends) ^ set(recvs)))
    for k, s in sends.items():
        r = recvs[k]
        if s["bytes"] != r["bytes"] or s["ready_ns"] != r["ready_ns"]:
            fail("send %s and its receive differ: %s / %s" % (k, s, r))
        if s["ready_ns"] != max(s["start_ns"], r["start_ns"]):
            fail("send %s: ready is not the later start" % (k,))


def nccl_truth(truth):
    """The truth line: 4 ranks, the documented sequence on both communicators, NCCL 2.28.3."""
    t = json.loads(open(truth).read())
    c = t["collectives"]
    want = (["allreduce"] * 3 +
            ["broadcast", "allgather", "reducescatter", "reduce", "allreduce", "allreduce"])
    got = [x["op"] for x in c if x["comm"] == "world"]
    if t["ranks"] != 4 or got != want or [x["op"] for x in c if x["comm"] == "split"] != want:
        fail("truth: %s" % t)
    if t["version"] != 22803 or t["p2p"] != 4:
        fail("version %d, p2p %d" % (t["version"], t["p2p"]))


def rccl_version(truth):
    """apps/rccl-ranks sees RCCL 2.21.5."""
    version = json.load(open(truth))["version"]
    if version != 22105:
        fail("version %d" % version)


main(globals())
