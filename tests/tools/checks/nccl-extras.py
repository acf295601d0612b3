"""nccl-extras.py — the checks of func/t-nccl-extras.sh on what the recorder wrote of
apps/nccl-extras (and rccl-extras, nccl-cuda) on 3 forked ranks and of apps/nccl-fork
(tools/dump-records output, a JSON object a line), beside the stand-in NCCL's trace of what
it ran (OUT.tr/trace.*, for the profile OUT.json) and the stand-in libcudart's log of its
calls (OUT.tr/cudart.PID), read with the helpers of lib-nccl.py."""
import collections
import importlib
import re

from checklib import fail, main

nccl = importlib.import_module("lib-nccl")
procs, standin, ops_of, corr = nccl.procs, nccl.standin, nccl.ops_of, nccl.corr
SEND, RECV, GROUP_END = nccl.SEND, nccl.RECV, nccl.GROUP_END
F_INPLACE, F_GROUPED, F_RCCL, F_UNTIMED = (nccl.F_INPLACE, nccl.F_GROUPED, nccl.F_RCCL,
                                           nccl.F_UNTIMED)

# The ranks of nccl-extras.
n = 3


def _ranks(dump):
    """The processes of the profile, the parent (the one that made the unique id before it
    forked) first, then by pid: pids wrap, so the parent's need not be the least."""
    ps = procs(dump)
    return sorted(ps.values(), key=lambda p: (not _by_name(p, "ncclGetUniqueId"), p.pid))


def _by_name(p, name):
    return [r for r in p.calls if r["name"] == name]


def calls_once(dump, want_calls, alltoall):
    """Every rank makes its calls once, in order (WANT_CALLS, with ALLTOALL standing for the
    name of its all-to-all call), ncclBcast without ncclBroadcast."""
    R = _ranks(dump)
    want = want_calls.replace("ALLTOALL", alltoall).split()
    if len(R) != n:
        fail("%d processes" % len(R))
    for i, p in enumerate(R):
        got = [r["name"] for r in p.calls]
        if got != (["ncclGetUniqueId"] if i == 0 else []) + want:
            fail("pid %d: %s" % (p.pid, got))


def ranks_agree(dump):
    """Ranks, communicator and numbers agree across ranks; ncclBcast in place, root 0."""
    R = _ranks(dump)
    uid = _by_name(R[0], "ncclGetUniqueId")[0]["nccl"]["comm"]
    for p in R:
        coll = [r["nccl"] for r in p.calls
                if r["nccl"]["op"] >= 16 and r["nccl"]["op"] not in (SEND, RECV)]
        if [(a["seq"], a["comm"], a["nranks"]) for a in coll] != [(i, uid, n) for i in range(1, 7)]:
            fail("pid %d: %s" % (p.pid, coll))
        b = _by_name(p, "ncclBcast")[0]["nccl"]
        if (b["op"], b["count"], b["bytes"], b["dtype"], b["peer"], b["redop"],
                b["flags"] & ~F_RCCL) != (17, 1024, 4096, 7, 0, 255, F_INPLACE):
            fail("pid %d bcast %s" % (p.pid, b))
    ranks = sorted(_by_name(p, "ncclCommInitRank")[0]["nccl"]["rank"] for p in R)
    if ranks != list(range(n)):
        fail("ranks %s" % ranks)


def group_records(dump):
    """Groups: one DEVICE record per stream of the two-stream group, one for the nested
    groups."""
    for p in _ranks(dump):
        starts = [corr(r) for r in _by_name(p, "ncclGroupStart")]
        ends = [corr(r) for r in _by_name(p, "ncclGroupEnd")]
        g1 = [d for d in p.devs if d["dev"]["coll"]["group"] == starts[0]]
        g2 = [d for d in p.devs if d["dev"]["coll"]["group"] == starts[1]]
        ar = _by_name(p, "ncclAllReduce")
        if len(g1) != 2 or len(set(d["dev"]["stream"] for d in g1)) != 2:
            fail("pid %d: first group %s" % (p.pid, g1))
        for d, r in zip(sorted(g1, key=lambda d: d["dev"]["bytes"]), ar[:2]):
            c = d["dev"]["coll"]
            if (d["arg"], d["name"], c["nops"], c["op"], c["seq"], d["dev"]["stream"],
                    d["dev"]["bytes"]) != \
               (ends[0], "ncclAllReduce", 1, 16, r["nccl"]["seq"], r["nccl"]["stream"],
                    r["nccl"]["bytes"]):
                fail("pid %d: %s for %s" % (p.pid, d, r))
        if len(g2) != 1:
            fail("pid %d: nested groups %s" % (p.pid, g2))
        c = g2[0]["dev"]["coll"]
        if (g2[0]["arg"], g2[0]["name"], c["nops"], c["op"], g2[0]["dev"]["bytes"]) != \
                (ends[2], "ncclGroupEnd", 3, GROUP_END, 2048 + 2048 + 256 * 4):
            fail("pid %d: nested %s (ends %s)" % (p.pid, g2, ends))
        i = p.calls.index(_by_name(p, "ncclGroupStart")[1])
        inner = [(r["name"], r["nccl"]["aux"]) for r in p.calls[i:i + 7]]
        if [a for _, a in inner] != [starts[1]] * 7 or inner[-1][0] != "ncclGroupEnd":
            fail("pid %d: nested %s" % (p.pid, inner))


def group_starts_at_end(dump, out, tol):
    """The two-stream group's spans start at the ncclGroupEnd that launches it, not at its
    calls 20 ms earlier (the stand-in's trace of the profile OUT in OUT.tr/, TOL in ns)."""
    trace = standin(out + ".tr/trace.*")
    tol = int(tol)
    for p in _ranks(dump):
        first = corr(_by_name(p, "ncclGroupStart")[0])
        g = [d for d in p.devs if d["dev"]["coll"]["group"] == first]
        # ncclGroupEnd comes at least 20 ms after the broadcast before the group ended
        bcast = [o for o in trace if o["pid"] == p.pid and o["kind"] == "broadcast"]
        if len(g) != 2 or len(bcast) != 1:
            fail("pid %d: %d spans, %d broadcasts" % (p.pid, len(g), len(bcast)))
        for d in g:
            early = bcast[0]["end_ns"] + 20000000 - d["dev"]["start_ns"]
            if early > tol:
                fail("pid %d %s: starts %d us before its ncclGroupEnd can have been called" % (
                    p.pid, d["name"], early // 1000))


def device_spans(dump, out, tol):
    """Every collective outside a group has its DEVICE record; spans hold the stand-in's runs
    (its trace of the profile OUT in OUT.tr/, TOL in ns)."""
    trace = standin(out + ".tr/trace.*")
    tol = int(tol)
    seen = 0
    for p in _ranks(dump):
        alone = [r for r in p.calls if r["nccl"]["op"] >= 16 and not r["nccl"]["flags"] & F_GROUPED]
        devs = {d["arg"]: d for d in p.devs if not d["dev"]["coll"]["group"]}
        if sorted(devs) != sorted(corr(r) for r in alone) or len(p.devs) != len(alone) + 3:
            fail("pid %d: %d records for %d calls" % (p.pid, len(p.devs), len(alone)))
        if p.drops or any(r["nccl"]["flags"] & F_UNTIMED for r in p.calls):
            fail("pid %d: untimed or lost" % p.pid)
        for d in p.devs:
            ops = ops_of(p, d, trace)
            s, e = min(o["start_ns"] for _, o in ops), max(o["end_ns"] for _, o in ops)
            o = d["dev"]
            if o["end_ns"] - o["start_ns"] < e - s - 2000 or o["start_ns"] > s + tol or \
                    o["end_ns"] < e - tol:
                fail("pid %d %s: [%d, %d] for the run [%d, %d]" % (
                    p.pid, d["name"], o["start_ns"], o["end_ns"], s, e))
            seen += len(ops)
    if seen != len(trace):
        fail("%d operations checked, the stand-in ran %d" % (seen, len(trace)))


def nccl_hip_events(dump):
    """NCCL: timed with HIP events, no call flagged RCCL."""
    for p in _ranks(dump):
        if p.props.get("nccl_events") != "HIP" or \
                not p.props.get("nccl_library", "").endswith("libnccl.so.2"):
            fail("%s" % p.props)
        if any(r["nccl"]["flags"] & F_RCCL for r in p.calls):
            fail("pid %d: RCCL flag" % p.pid)


def rccl_flagged(dump):
    """RCCL: every call flagged, the library is librccl, timed with HIP events."""
    for p in _ranks(dump):
        if p.props.get("nccl_events") != "HIP" or \
                not p.props.get("nccl_library", "").endswith("librccl.so.1"):
            fail("%s" % p.props)
        if any(not r["nccl"]["flags"] & F_RCCL for r in p.calls):
            fail("pid %d: a call not flagged" % p.pid)
        a2a = _by_name(p, "ncclAllToAll")[0]["nccl"]
        if (a2a["op"], a2a["count"], a2a["bytes"], a2a["nranks"]) != (21, 128, 512, n):
            fail("%s" % a2a)


def cuda_events(dump, out):
    """CUDA: timed with the CUDA runtime's events: two cudaEventRecord per DEVICE record on
    its stream (the stand-in libcudart's log of the profile OUT in OUT.tr/cudart.PID)."""
    for p in _ranks(dump):
        if p.props.get("nccl_events") != "CUDA":
            fail("pid %d: %s" % (p.pid, p.props))
        rec = collections.Counter()
        for line in open(out + ".tr/cudart.%d" % p.pid):
            m = re.search(r"\] cudaEventRecord\(event=\S+, stream=(0x[0-9a-f]+|\(nil\))\) = 0$",
                          line)
            if m and m.group(1) != "(nil)":
                rec[int(m.group(1), 16)] += 1
        want = collections.Counter()
        for d in p.devs:
            want[d["dev"]["stream"]] += 2
        # the anchor events go on a private stream of the recorder
        extra = {s: c for s, c in rec.items() if s not in want}
        if any(rec[s] != c for s, c in want.items()) or len(extra) > 1:
            fail("pid %d: records %s, want %s" % (p.pid, rec, want))


def cuda_no_hip(dump):
    """CUDA: no HIP call is recorded (the stand-in CUDA runtime is not HIP to the
    profiler)."""
    R = _ranks(dump)
    if any(p.hip for p in R):
        fail("%s" % [r["name"] for p in R for r in p.hip][:10])


def fork_allreduces(dump):
    """nccl-fork: each rank's all-reduces matched by communicator and number, each with its
    device span."""
    ps = procs(dump)
    if len(ps) != 4:
        fail("%d processes" % len(ps))
    seqs = set()
    for p in ps.values():
        ar = [r["nccl"] for r in p.calls if r["name"] == "ncclAllReduce"]
        seqs.add(tuple((a["comm"], a["seq"], a["count"], a["dtype"]) for a in ar))
        if sorted(d["arg"] for d in p.devs) != \
                sorted(corr(r) for r in p.calls if r["name"] == "ncclAllReduce"):
            fail("pid %d" % p.pid)
    if len(seqs) != 1 or [s[1] for s in list(seqs)[0]] != [1, 2, 3]:
        fail("%s" % seqs)


if __name__ == "__main__":
    main(globals())
