"""nccl-ranks.py — the checks of func/t-nccl-ranks.sh on what tprof-analyze made of the profiles
of 4 MPI ranks running NCCL collectives through the stand-in NCCL (apps/nccl-ranks; also
apps/nccl-fork and apps/rccl-ranks): the Chrome traces (by process, or --group-by domain), the
text summary and what the analyzer said (-v), against the truth rank 0 printed (a JSON line:
its collectives in call order, each with op, count, dtype, bytes, seq, nranks and whether it
was in a group, and the number of point-to-point sends, p2p).  The NCCL helpers are
lib-nccl-analyze.py's; the OTF2 archive's check is lib-otf2.py's."""
import collections
import importlib
import json
import re

from checklib import fail, main
from chrome_trace import backward, load, ns, overlaps

nccl = importlib.import_module("lib-nccl-analyze")

OPS = {"allreduce": "AllReduce", "broadcast": "Broadcast", "allgather": "AllGather",
       "reducescatter": "ReduceScatter", "reduce": "Reduce", "alltoall": "AlltoAll",
       "gather": "Gather", "scatter": "Scatter"}


def _truth(path):
    """The truth rank 0 printed."""
    with open(path) as f:
        return json.loads(f.read())


def _truth_check(d, truth, nprocs):
    """Problems with the instances the truth's entries are in, and the instances: for each
    entry its rank-0 span (the operation's arguments on a span of its own, or in the ops of a
    group span) and the instance's other spans, one on each rank of its communicator, all
    matched; no incomplete instance; spans on nprocs processes."""
    bad = []
    inst = nccl.instances(d)
    found = set()
    for c in truth["collectives"]:
        want = {"op": OPS[c["op"]], "count": c["count"], "dtype": c["dtype"],
                "bytes": c["bytes"], "seq": c["seq"]}
        hit = None
        for k, v in inst.items():
            for e in v:
                a = e["args"]
                if a.get("rank") != 0 or a.get("nranks") != c["nranks"]:
                    continue
                ops = a["ops"] if "ops" in a else [a]
                if (any(all(o.get(x) == y for x, y in want.items()) for o in ops) and
                        bool("ops" in a) == c["group"]):
                    hit = k
            if hit is not None:
                break
        if hit is None:
            bad.append("not found: %s" % c)
            continue
        v = inst[hit]
        found.add(hit)
        if (len(v) != c["nranks"] or len({e["pid"] for e in v}) != c["nranks"] or
                sorted(e["args"]["rank"] for e in v) != list(range(c["nranks"])) or
                any(not e["args"]["matched"] or e["args"]["ranks_seen"] != c["nranks"]
                    for e in v)):
            bad.append("%s: instance %s has %s" %
                       (c, hit, [(e["pid"], e["args"]["rank"], e["args"]["matched"])
                                 for e in v]))
    incomplete = [k for k, v in inst.items() if not all(e["args"]["matched"] for e in v)]
    if incomplete:
        bad.append("incomplete instances: %s" % incomplete[:5])
    if len({e["pid"] for e in nccl.spans(d)}) != nprocs:
        bad.append("spans on %d processes" % len({e["pid"] for e in nccl.spans(d)}))
    return bad, inst


def truth_linked(trace, truth, nprocs, verbose):
    """Every collective of the truth is on all the ranks of its communicator, one instance,
    linked (verbose: what the analyzer said with -v); prints the number of instances."""
    d = load(trace)
    bad, inst = _truth_check(d, _truth(truth), int(nprocs))
    s, f = nccl.flows(d, "collective")
    want = sum(len(v) - 1 for v in inst.values() if nccl.has_coll(v))
    # The stand-in runs the part of each rank on its own: under load one can end before the
    # last rank starts, an arrow the analyzer leaves out and counts (-v).
    with open(verbose) as g:
        m = re.search(r"NCCL: (\d+) arrows between ranks not drawn", g.read())
    want -= int(m.group(1)) if m else 0
    if len(s) != want or set(s) != set(f):
        bad.append("%d collective arrows (%d ends), want %d" % (len(s), len(f), want))
    if bad:
        fail("\n".join(bad[:10]))
    print("# %d instances" % len(inst))


def stream_tracks(trace):
    """Each device span on its (device, stream) track, with the arrow from its call (groups:
    ncclGroupEnd); one stream track per (process, device, stream)."""
    d = load(trace)
    bad = nccl.launch_ok(d)
    names = {(m["pid"], m["tid"]): m["args"]["name"] for m in d["traceEvents"]
             if m["ph"] == "M" and m["name"] == "thread_name"}
    bycorr = {(e["pid"], e["args"].get("correlation")): e for e in nccl.calls(d)}
    for e in nccl.spans(d):
        a = e["args"]
        if not re.fullmatch("GPU %d stream [0-9]+" % a["device"],
                            names.get((e["pid"], e["tid"]), "")):
            bad.append("span %s on track %s" % (e["name"], names.get((e["pid"], e["tid"]))))
        c = bycorr.get((e["pid"], a.get("correlation")))
        if c is None:
            bad.append("span %s: no call with correlation %s" % (e["name"],
                                                                 a.get("correlation")))
        elif "ops" not in a and (c["args"].get("stream") != a["stream"] or
                                 c["args"].get("device") != a["device"]):
            bad.append("span %s on stream %s device %s, its call says %s %s" %
                       (e["name"], a["stream"], a["device"], c["args"].get("stream"),
                        c["args"].get("device")))
        elif "ops" in a and c["name"] != "ncclGroupEnd":
            bad.append("group span launched by %s" % c["name"])
    # one stream track per (process, device, stream)
    tracks = collections.defaultdict(set)
    for e in nccl.spans(d):
        tracks[(e["pid"], e["args"]["device"], e["args"]["stream"])].add(e["tid"])
    if any(len(v) != 1 for v in tracks.values()):
        bad.append("a stream on several tracks")
    if bad:
        fail("\n".join(bad[:10]))


def send_arrows(trace, truth, nprocs):
    """Each send is an arrow from the sender's span to the receiver's."""
    d = load(trace)
    n = int(nprocs)
    s, f = nccl.flows(d, "send")
    want = n * _truth(truth)["p2p"] // 2
    sp = nccl.spans(d)
    bad = []
    if len(s) != want or set(s) != set(f):
        bad.append("%d send arrows, want %d" % (len(s), want))
    for i in s:
        a, b = s[i], f[i]
        src = [e for e in sp if (e["pid"], e["tid"]) == (a["pid"], a["tid"]) and
               nccl.within(e, ns(a["ts"]))]
        dst = [e for e in sp if (e["pid"], e["tid"]) == (b["pid"], b["tid"]) and
               nccl.within(e, ns(b["ts"]))]
        if (not src or not dst or src[0]["args"]["rank"] != a["args"]["src"] or
                dst[0]["args"]["rank"] != a["args"]["dst"]):
            bad.append("send arrow %s" % i)
    if bad:
        fail("\n".join(bad[:10]))


def summary_bandwidth(trace, summary):
    """Summary: every row's algbw, busbw and wait are nccl-tests formulas on the recorded bytes
    and times."""
    d = load(trace)
    with open(summary) as f:
        text = f.read()
    bad = nccl.bw_check(d, text)
    if not nccl.sum_rows(text):
        bad.append("no rows")
    if bad:
        fail("\n".join(bad[:10]))


def truth_matched(trace, truth, nprocs):
    """Every collective of the truth is on all the ranks of its communicator, one instance
    (profiles of their own, one per rank, matched across them)."""
    d = load(trace)
    bad, _ = _truth_check(d, _truth(truth), int(nprocs))
    if bad:
        fail("\n".join(bad[:10]))


def fork_ranks(trace, nprocs, summary):
    """Ranks made by fork: every AllReduce found on all NPROCS processes, bandwidth as the
    formulas give."""
    d = load(trace)
    n = int(nprocs)
    inst = nccl.instances(d)
    bad = []
    if not inst:
        bad.append("no instance")
    # A child ends with _exit: device work it finished just before may never be resolved, so
    # a span can be missing; its call is still in the instance (ranks_seen), which is then
    # unmatched.
    for k, v in inst.items():
        if (len({e["pid"] for e in v}) != len(v) or
                any(e["args"]["ranks_seen"] != n for e in v) or
                all(e["args"]["matched"] for e in v) != (len(v) == n) or
                {e["args"]["op"] for e in v} != {"AllReduce"}):
            bad.append("instance %s: %s" % (k, [(e["pid"], e["args"].get("op"),
                                                 e["args"]["matched"], e["args"]["ranks_seen"])
                                                for e in v]))
    with open(summary) as f:
        bad += nccl.bw_check(d, f.read(), all(len(v) == n for v in inst.values()))
    if bad:
        fail("\n".join(bad[:10]))


def rccl(trace, truth, nprocs):
    """RCCL: every collective of the truth matched as with NCCL, the calls flagged RCCL."""
    d = load(trace)
    bad, _ = _truth_check(d, _truth(truth), int(nprocs))
    c = [e for e in nccl.calls(d) if e["args"].get("op") == "AllReduce"]
    if not c or any(e["args"].get("library") != "RCCL" for e in c):
        bad.append("RCCL calls not flagged")
    if bad:
        fail("\n".join(bad[:10]))


def by_domain(trace, by_process):
    """--group-by domain: the same spans as by process (the trace BY_PROCESS), in the GPU
    group, the same arrows."""
    d, d1 = load(trace), load(by_process)
    names = {m["pid"]: m["args"]["name"] for m in d["traceEvents"]
             if m["ph"] == "M" and m["name"] == "process_name"}
    sp = nccl.spans(d)
    if len(sp) != len(nccl.spans(d1)) or any(names.get(e["pid"]) != "GPU" for e in sp):
        fail("%d spans (want %d) in %s" % (len(sp), len(nccl.spans(d1)),
                                           {names.get(e["pid"]) for e in sp}))
    bad = nccl.launch_ok(d)
    if bad or len(nccl.flows(d, "collective")[0]) != len(nccl.flows(d1, "collective")[0]):
        fail("\n".join(bad[:5]) or "collective arrows differ")


def no_overlap(trace):
    """No two spans on one stream overlap; no arrow ends before it starts (groups: none before
    ncclGroupEnd)."""
    d = load(trace)
    bad = overlaps(d) + backward(d)
    if bad:
        fail("\n".join(bad[:10]))


main(globals())
