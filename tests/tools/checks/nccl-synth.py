"""nccl-synth.py — the checks of func/t-nccl-synth.sh on what tprof-analyze made of the trace
of the synthetic 4-rank NCCL job apps/nccl-synth wrote: the Chrome trace (by process, or
--group-by domain) and the text summary.  The NCCL helpers are lib-nccl-analyze.py's."""
import importlib

from checklib import fail, main
from chrome_trace import load, ns

nccl = importlib.import_module("lib-nccl-analyze")


def _thread_names(d):
    """{(pid, tid): name} of the thread_name metadata."""
    return {(m["pid"], m["tid"]): m["args"]["name"] for m in d["traceEvents"]
            if m["ph"] == "M" and m["name"] == "thread_name"}


def _process_names(d):
    """{pid: name} of the process_name metadata."""
    return {m["pid"]: m["args"]["name"] for m in d["traceEvents"]
            if m["ph"] == "M" and m["name"] == "process_name"}


def span_tracks(trace):
    """Every collective span is on its GPU stream track, with the arrow from its call
    (groups: ncclGroupEnd)."""
    d = load(trace)
    bad = nccl.launch_ok(d)
    names = _thread_names(d)
    for e in nccl.spans(d):
        if names.get((e["pid"], e["tid"])) != "GPU %d stream 1" % e["args"]["device"]:
            bad.append("span %s on track %s" % (e["name"], names.get((e["pid"], e["tid"]))))
    if bad or not nccl.spans(d):
        fail("\n".join(bad[:10]) or "no spans")


def instances(trace, want, complete):
    """WANT instances, each collective on every rank once, COMPLETE of them matched; the one
    rank 3 never called marked incomplete (3 of 4)."""
    d = load(trace)
    want, complete = int(want), int(complete)
    inst = nccl.instances(d)
    if len(inst) != want:
        fail("%d instances, want %d" % (len(inst), want))
    full = [v for v in inst.values() if all(e["args"]["matched"] for e in v)]
    if len(full) != complete:
        fail("%d complete instances, want %d" % (len(full), complete))
    for v in full:
        a0 = v[0]["args"]
        if (len(v) != a0["ranks_expected"] or len(v) != a0["ranks_seen"] or
                len({e["pid"] for e in v}) != len(v)):
            fail("instance %s: %d spans on %d processes, expected %s" %
                 (a0["nccl_instance"], len(v), len({e["pid"] for e in v}),
                  a0["ranks_expected"]))
        if sorted(e["args"]["rank"] for e in v) != list(range(len(v))):
            fail("instance %s: ranks %s" % (a0["nccl_instance"], [e["args"]["rank"] for e in v]))
        if "ops" not in a0 and len({(e["args"]["comm"], e["args"]["seq"], e["args"]["op"])
                                    for e in v}) != 1:
            fail("instance %s mixes collectives" % a0["nccl_instance"])
        lag = {e["args"]["rank"]: ns(e["args"]["entered_after_first_us"]) for e in v}
        last = max(lag, key=lambda k: (lag[k], -k))
        if min(lag.values()) != 0 or any(e["args"]["last_to_enter"] != "rank %d" % last
                                         for e in v):
            fail("instance %s: lags %s, last %s" % (a0["nccl_instance"], lag,
                                                    v[0]["args"]["last_to_enter"]))
    part = [v for v in inst.values() if v not in full]
    if len(part) != 1 or len(part[0]) != 3 or any(e["args"]["ranks_seen"] != 3 or
                                                  e["args"]["ranks_expected"] != 4
                                                  for e in part[0]):
        fail("the incomplete instance: %s" % [[e["args"] for e in v] for v in part])


def linked_from_last(trace):
    """The ranks' spans of each instance are linked from the rank that started last."""
    d = load(trace)
    s, f = nccl.flows(d, "collective")
    inst = nccl.instances(d)
    if not s or set(s) != set(f):
        fail("%d starts, %d ends" % (len(s), len(f)))
    want = sum(len(v) - 1 for v in inst.values() if nccl.has_coll(v))
    if len(s) != want:
        fail("%d arrows, want %d" % (len(s), want))
    for i in s:
        a, b = s[i], f[i]
        v = inst[a["args"]["nccl_instance"]]
        src = [e for e in v if (e["pid"], e["tid"]) == (a["pid"], a["tid"]) and
               nccl.within(e, ns(a["ts"]))]
        dst = [e for e in v if (e["pid"], e["tid"]) == (b["pid"], b["tid"]) and
               nccl.within(e, ns(b["ts"]))]
        if not src or not dst or src[0]["pid"] == dst[0]["pid"]:
            fail("arrow %s: from %s to %s" % (i, a, b))
        if src[0]["args"]["started_after_first_us"] != max(e["args"]["started_after_first_us"]
                                                           for e in v):
            fail("arrow %s does not start at the rank that started last" % i)


def send_ring(trace):
    """Each send of the ring is an arrow from the sender's group span to the receiver's."""
    d = load(trace)
    s, f = nccl.flows(d, "send")
    if len(s) != 16 or set(s) != set(f):
        fail("%d send arrows" % len(s))
    sp = nccl.spans(d)
    for i in s:
        a, b = s[i], f[i]
        src = [e for e in sp if (e["pid"], e["tid"]) == (a["pid"], a["tid"]) and
               nccl.within(e, ns(a["ts"]))]
        dst = [e for e in sp if (e["pid"], e["tid"]) == (b["pid"], b["tid"]) and
               nccl.within(e, ns(b["ts"]))]
        if (not src or not dst or src[0]["args"]["rank"] != a["args"]["src"] or
                dst[0]["args"]["rank"] != a["args"]["dst"] or
                a["args"]["dst"] != (a["args"]["src"] + 1) % 4 or a["args"]["bytes"] != 16384):
            fail("send arrow %s: %s -> %s" % (i, a, b))


def call_args(trace):
    """NCCL calls carry op, count, dtype, bytes, reduction, root, communicator, rank, size, seq
    and group."""
    d = load(trace)
    calls = nccl.calls(d)
    c = [e for e in calls if e["name"] == "ncclBroadcast"]
    a = c[0]["args"] if c else {}
    want = {"op": "Broadcast", "count": 65536, "dtype": "bfloat16", "bytes": 131072, "root": 1,
            "comm": "0x1234abcd", "nranks": 4}
    if not c or any(a.get(k) != v for k, v in want.items()) or "seq" not in a or "rank" not in a:
        fail("ncclBroadcast args: %s" % a)
    g = [e for e in calls if e["name"] in ("ncclAllReduce", "ncclSend") and "group" in e["args"]]
    if len(g) != 32 or not all(e["args"]["group"].startswith("0x") for e in g):
        fail("%d grouped calls name their group" % len(g))
    r = [e for e in calls if e["name"] == "ncclAllReduce" and e["args"]["comm"] == "0x1234abcd"]
    if not r or r[0]["args"].get("redop") != "sum":
        fail("AllReduce without its reduction: %s" % (r and r[0]["args"]))


def summary_bandwidth(trace, summary):
    """Summary: algbw, busbw and the wait of every row are nccl-tests formulas on the recorded
    bytes and times (six rows)."""
    d = load(trace)
    with open(summary) as f:
        text = f.read()
    bad = nccl.bw_check(d, text)
    rows = nccl.sum_rows(text)
    if len(rows) != 6:
        bad.append("%d rows: %s" % (len(rows), rows))
    if bad:
        fail("\n".join(bad))


def by_domain(trace):
    """--group-by domain: the 83 spans in the GPU group, the 58 collective arrows kept."""
    d = load(trace)
    names = _process_names(d)
    sp = nccl.spans(d)
    if len(sp) != 83 or any(names.get(e["pid"]) != "GPU" for e in sp):
        fail("%d spans, in %s" % (len(sp), {names.get(e["pid"]) for e in sp}))
    if nccl.launch_ok(d) or len(nccl.flows(d, "collective")[0]) != 58:
        fail("arrows: %s" % nccl.launch_ok(d)[:3])


if __name__ == "__main__":
    main(globals())
