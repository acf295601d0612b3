"""nccl-record.py — the checks of func/t-nccl-record.sh on what the recorder wrote of an NCCL
job (apps/nccl-ranks or apps/rccl-ranks on 4 ranks under mpirun; tools/dump-records output, a
JSON object a line), against the program's own account of its calls (OUT: its output, whose
last line is the JSON rank 0 printed) and the stand-in's trace of what it ran (the files
trace.* in a directory), read with the helpers of lib-nccl.py."""
import collections
import importlib
import json

from checklib import fail, main

nccl = importlib.import_module("lib-nccl")
procs, standin, ops_of, corr = nccl.procs, nccl.standin, nccl.ops_of, nccl.corr
KIND, DTYPE, REDOP = nccl.KIND, nccl.DTYPE, nccl.REDOP
COMM_INIT, COMM_SPLIT, GROUP_START, GROUP_END = (nccl.COMM_INIT, nccl.COMM_SPLIT,
                                                 nccl.GROUP_START, nccl.GROUP_END)
SEND, RECV = nccl.SEND, nccl.RECV
F_GROUPED, F_RCCL, F_UNTIMED = nccl.F_GROUPED, nccl.F_RCCL, nccl.F_UNTIMED


class _Job:
    """What the checks share: ps, the profile's processes; truth, what rank 0 printed; n, the
    number of ranks; R, the processes by rank."""

    def __init__(self, dump, out):
        self.ps = procs(dump)
        self.truth = json.loads(open(out).read().strip().splitlines()[-1])
        self.n = self.truth["ranks"]
        self.R = {p.rank: p for p in self.ps.values()}

    def world_split(self, k):
        """The communicators of rank k: the world's and its half of the split."""
        init = [r for r in self.R[k].calls if r["nccl"]["op"] == COMM_INIT]
        split = [r for r in self.R[k].calls if r["nccl"]["op"] == COMM_SPLIT]
        if len(init) != 1 or len(split) != 1:
            fail("rank %d: %d inits, %d splits" % (k, len(init), len(split)))
        return init[0]["nccl"]["comm"], split[0]["nccl"]["comm"]

    def colls(self, k):
        """The collective calls of rank k (neither sends nor receives)."""
        return [r for r in self.R[k].calls
                if r["nccl"]["op"] >= 16 and r["nccl"]["op"] not in (SEND, RECV)]


def library(dump, out):
    """One profile per rank, each describing the library (libnccl, its version, HIP
    events)."""
    j = _Job(dump, out)
    R, n, truth = j.R, j.n, j.truth
    if sorted(R) != list(range(n)) or len(j.ps) != n:
        fail("ranks %s" % sorted(R))
    for k, p in R.items():
        if not p.props.get("nccl_library", "").endswith("libnccl.so.2"):
            fail("rank %d: %s" % (k, p.props))
        if p.props.get("nccl_version") != truth["version"] or p.props.get("nccl_events") != "HIP":
            fail("rank %d: %s" % (k, p.props))


def every_call_once(dump, out):
    """Every NCCL call is recorded once, with its end."""
    j = _Job(dump, out)
    R, n, truth = j.R, j.n, j.truth
    NAME = {"allreduce": "ncclAllReduce", "broadcast": "ncclBroadcast",
            "allgather": "ncclAllGather", "reducescatter": "ncclReduceScatter",
            "reduce": "ncclReduce"}
    for k in range(n):
        got = collections.Counter(r["name"] for r in R[k].calls)
        want = collections.Counter(NAME[c["op"]] for c in truth["collectives"])
        want.update({
            "ncclGetVersion": 1, "ncclCommInitRank": 1, "ncclCommSplit": 1,
            "ncclCommUserRank": 2, "ncclCommCount": 2, "ncclCommCuDevice": 2,
            "ncclCommDestroy": 2, "ncclSend": truth["p2p"] // 2, "ncclRecv": truth["p2p"] // 2,
            "ncclGetUniqueId": int(k == 0),
            # per iteration and communicator: a group of two all-reduces, a group of send and
            # receive
            "ncclGroupStart": 4 * truth["iterations"], "ncclGroupEnd": 4 * truth["iterations"]})
        want = +want
        if got != want:
            fail("rank %d: extra %s, missing %s" % (k, got - want, want - got))
        if any(r["t1"] < r["t0"] or r["t1"] == 0 or r["arg"] >> 48 for r in R[k].calls):
            fail("rank %d: a call without its end, or failed" % k)


def collective_arguments(dump, out):
    """Collectives carry op, count, datatype, bytes, root, reduction, size and number as
    called."""
    j = _Job(dump, out)
    truth = j.truth
    for k in range(j.n):
        got = j.colls(k)
        if len(got) != len(truth["collectives"]):
            fail("rank %d: %d collectives" % (k, len(got)))
        for r, c in zip(got, truth["collectives"]):
            a = r["nccl"]
            want = (KIND[c["op"]], c["count"], DTYPE[c["dtype"]], c["bytes"], c["root"],
                    REDOP[c["redop"]], c["nranks"], c["seq"], bool(c["group"]))
            have = (a["op"], a["count"], a["dtype"], a["bytes"], a["peer"], a["redop"],
                    a["nranks"], a["seq"], bool(a["flags"] & F_GROUPED))
            if have != want:
                fail("rank %d %s: %s, want %s" % (k, r["name"], have, want))
            if a["flags"] & (F_RCCL | F_UNTIMED):
                fail("rank %d %s: flags %d" % (k, r["name"], a["flags"]))


def communicator_ids(dump, out):
    """Communicator ids: the world the same on every rank (as ncclGetUniqueId said), split
    halves apart."""
    j = _Job(dump, out)
    R, n = j.R, j.n
    ids = {k: j.world_split(k) for k in range(n)}
    uid = [r for r in R[0].calls if r["name"] == "ncclGetUniqueId"][0]["nccl"]["comm"]
    if any(ids[k][0] != uid for k in range(n)):
        fail("world ids %s, unique id %d" % (ids, uid))
    half = n // 2
    for k in range(n):
        if ids[k][1] != ids[0 if k < half else half][1]:
            fail("split ids %s" % ids)
    if ids[0][1] == ids[half][1] or ids[0][1] == uid or min(ids[0][1], ids[half][1], uid) < 16:
        fail("ids %s" % ids)
    for k in range(n):
        sp = [r for r in R[k].calls if r["nccl"]["op"] == COMM_SPLIT][0]["nccl"]
        if sp["aux"] != uid or (sp["rank"], sp["nranks"]) != (k % half, half):
            fail("rank %d split %s" % (k, sp))


def call_communicators(dump, out):
    """Each call names its communicator with this rank in it, size and device."""
    j = _Job(dump, out)
    R, n, truth = j.R, j.n, j.truth
    half = n // 2
    for k in range(n):
        w, s = j.world_split(k)
        for r in j.colls(k) + [r for r in R[k].calls if r["nccl"]["op"] in (SEND, RECV)]:
            a = r["nccl"]
            want = (w, k, n) if a["comm"] == w else (s, k % half, half)
            if (a["comm"], a["rank"], a["nranks"]) != want:
                fail("rank %d %s: %s" % (k, r["name"], a))
            if a["device"] < 0 or a["stream"] == 0:
                fail("rank %d %s: device/stream %s" % (k, r["name"], a))
        names = [("w" if r["nccl"]["comm"] == w else "s") for r in j.colls(k)]
        if names != [c["comm"][0] for c in truth["collectives"]]:
            fail("rank %d comms %s" % (k, names))


def same_numbers(dump, out):
    """The same collective has the same (communicator, number) on every rank."""
    j = _Job(dump, out)
    n = j.n
    seqs = {k: [(r["nccl"]["comm"], r["nccl"]["seq"], r["nccl"]["op"], r["nccl"]["bytes"])
                for r in j.colls(k)] for k in range(n)}
    half = n // 2
    for k in range(n):
        ref = seqs[0 if k < half else half]
        if [x[1:] for x in seqs[k]] != [x[1:] for x in seqs[0]] or seqs[k] != ref:
            fail("rank %d: %s" % (k, seqs[k]))
        for comm in set(x[0] for x in seqs[k]):
            nums = [x[1] for x in seqs[k] if x[0] == comm]
            if nums != list(range(1, len(nums) + 1)):
                fail("rank %d comm %d numbers %s" % (k, comm, nums))


def sends_paired(dump, out):
    """Every send is paired with the receive of the same number on its peer."""
    j = _Job(dump, out)
    R, n, truth = j.R, j.n, j.truth
    msgs = collections.Counter()
    for k in range(n):
        for r in R[k].calls:
            a = r["nccl"]
            if a["op"] == SEND:
                msgs[(a["comm"], a["rank"], a["peer"], a["seq"], a["bytes"])] += 1
            if a["op"] == RECV:
                msgs[(a["comm"], a["peer"], a["rank"], a["seq"], a["bytes"])] -= 1
    if not msgs or any(msgs.values()):
        fail("unpaired %s" % {m: v for m, v in msgs.items() if v})
    sends = sum(1 for k in range(n) for r in R[k].calls if r["nccl"]["op"] == SEND)
    if sends != n * truth["p2p"] // 2:
        fail("%d sends" % sends)


def grouped_calls(dump, out):
    """Grouped calls carry their group: the correlation id of its ncclGroupStart."""
    j = _Job(dump, out)
    for k in range(j.n):
        group = 0
        for r in j.R[k].calls:
            a = r["nccl"]
            if a["op"] == GROUP_START:
                if group or a["aux"] != corr(r):
                    fail("rank %d start %s" % (k, a))
                group = corr(r)
            elif a["op"] == GROUP_END:
                if a["aux"] != group:
                    fail("rank %d end %s" % (k, a))
                group = 0
            elif a["op"] >= 16:
                if bool(a["flags"] & F_GROUPED) != bool(group) or a["aux"] != group:
                    fail("rank %d %s seq %d: flags %d aux %d in group %d" % (
                        k, r["name"], a["seq"], a["flags"], a["aux"], group))


def device_records_alone(dump, out):
    """Each collective outside a group: one DEVICE record on its stream, linked to its
    call."""
    j = _Job(dump, out)
    R = j.R
    for k in range(j.n):
        devs = {d["arg"]: d for d in R[k].devs if not d["dev"]["coll"]["group"]}
        alone = [r for r in R[k].calls
                 if r["nccl"]["op"] >= 16 and not r["nccl"]["flags"] & F_GROUPED]
        if len(devs) != len(alone) or \
                len(devs) != sum(1 for d in R[k].devs if not d["dev"]["coll"]["group"]):
            fail("rank %d: %d DEVICE records for %d calls" % (k, len(devs), len(alone)))
        for r in alone:
            a, d = r["nccl"], devs.get(corr(r))
            if not d:
                fail("rank %d: no DEVICE record for %s seq %d" % (k, r["name"], a["seq"]))
            c, o = d["dev"]["coll"], d["dev"]
            if (d["name"], o["stream"], o["bytes"], c["comm"], c["seq"], c["op"], c["dtype"],
                    c["nops"], c["rank"], c["nranks"]) != \
               (r["name"], a["stream"], a["bytes"], a["comm"], a["seq"], a["op"], a["dtype"],
                    1, a["rank"], a["nranks"]):
                fail("rank %d: %s for %s" % (k, d, r))
            if o["device"] != a["device"] or o["launch_t0"] != r["t0"] or \
                    o["end_ns"] < o["start_ns"]:
                fail("rank %d: %s for %s" % (k, o, r))


def device_records_groups(dump, out):
    """Each group: one DEVICE record per stream, linked to its ncclGroupEnd, counting its
    operations."""
    j = _Job(dump, out)
    R = j.R
    for k in range(j.n):
        ends = {r["nccl"]["aux"]: r for r in R[k].calls if r["nccl"]["op"] == GROUP_END}
        members = collections.defaultdict(list)
        for r in R[k].calls:
            if r["nccl"]["flags"] & F_GROUPED:
                members[(r["nccl"]["aux"], r["nccl"]["stream"])].append(r)
        devs = [d for d in R[k].devs if d["dev"]["coll"]["group"]]
        if sorted((d["dev"]["coll"]["group"], d["dev"]["stream"]) for d in devs) != \
                sorted(members):
            fail("rank %d: group records %s for %s" % (
                k, [(d["dev"]["coll"]["group"], d["dev"]["stream"]) for d in devs],
                list(members)))
        for d in devs:
            c = d["dev"]["coll"]
            ms = members[(c["group"], d["dev"]["stream"])]
            first = ms[0]["nccl"]
            want = (corr(ends[c["group"]]), len(ms),
                    ms[0]["name"] if len(ms) == 1 else "ncclGroupEnd",
                    first["op"] if len(ms) == 1 else GROUP_END, first["seq"], first["comm"],
                    sum(m["nccl"]["bytes"] for m in ms))
            have = (d["arg"], c["nops"], d["name"], c["op"], c["seq"], c["comm"],
                    d["dev"]["bytes"])
            if have != want:
                fail("rank %d: group record %s, want %s" % (k, have, want))


def no_hip_inside(dump, out):
    """No HIP call is recorded inside an NCCL call (the library's own runtime calls)."""
    j = _Job(dump, out)
    R = j.R
    for k in range(j.n):
        spans = [(r["stream"], r["t0"], r["t1"]) for r in R[k].calls]
        inside = [h["name"] for h in R[k].hip
                  if any(h["stream"] == st and a <= h["t0"] <= b for st, a, b in spans)]
        if inside:
            fail("rank %d: %s" % (k, inside[:5]))
        if not R[k].hip:
            fail("rank %d: no HIP call at all (the program makes some)" % k)


def nothing_lost(dump, out):
    """Nothing untimed, nothing lost."""
    j = _Job(dump, out)
    R = j.R
    for k in range(j.n):
        if R[k].drops:
            fail("rank %d drops %s" % (k, R[k].drops))
        if any(r["nccl"]["flags"] & F_UNTIMED for r in R[k].calls):
            fail("rank %d: untimed calls" % k)


def device_spans(dump, out, tracedir, tol):
    """Each device span lasts at least what the stand-in ran (its trace files in TRACEDIR),
    and holds it in time, to TOL ns."""
    j = _Job(dump, out)
    R = j.R
    trace = standin(tracedir + "/trace.*")
    tol = int(tol)
    checked = 0
    for k in range(j.n):
        for d in R[k].devs:
            ops = ops_of(R[k], d, trace)
            if not ops:
                fail("rank %d: no stand-in operation for %s" % (k, d))
            s, e = min(o["start_ns"] for _, o in ops), max(o["end_ns"] for _, o in ops)
            o = d["dev"]
            if o["end_ns"] - o["start_ns"] < e - s - 2000:
                fail("rank %d %s: device span %d ns, the stand-in ran %d ns" % (
                    k, d["name"], o["end_ns"] - o["start_ns"], e - s))
            if o["start_ns"] > s + tol or o["end_ns"] < e - tol:
                fail("rank %d %s: span [%d, %d] misses the run [%d, %d]" % (
                    k, d["name"], o["start_ns"], o["end_ns"], s, e))
            if any(op["stream"] != o["stream"] or op["status"] != "ok" for _, op in ops):
                fail("rank %d: %s" % (k, ops))
            checked += len(ops)
    if checked != len(trace):
        fail("%d operations checked, the stand-in ran %d" % (checked, len(trace)))


def rccl_flagged(dump, out):
    """Every call is flagged RCCL, the library is librccl, timed with HIP events."""
    j = _Job(dump, out)
    R = j.R
    for k in range(j.n):
        if not R[k].props.get("nccl_library", "").endswith("librccl.so.1") or \
                R[k].props.get("nccl_events") != "HIP":
            fail("rank %d: %s" % (k, R[k].props))
        if not R[k].calls or any(not r["nccl"]["flags"] & F_RCCL for r in R[k].calls):
            fail("rank %d: a call not flagged" % k)


def rccl_collectives(dump, out):
    """Its collectives match across ranks, each with its device span."""
    j = _Job(dump, out)
    R, n, truth = j.R, j.n, j.truth
    half = n // 2
    for k in range(n):
        mine = [(r["nccl"]["seq"], r["nccl"]["op"], r["nccl"]["bytes"]) for r in j.colls(k)]
        if mine != [(c["seq"], KIND[c["op"]], c["bytes"]) for c in truth["collectives"]]:
            fail("rank %d: %s" % (k, mine))
        if j.world_split(k) != (j.world_split(0)[0], j.world_split(0 if k < half else half)[1]):
            fail("rank %d: communicator ids" % k)
        alone = sum(1 for r in R[k].calls
                    if r["nccl"]["op"] >= 16 and not r["nccl"]["flags"] & F_GROUPED)
        if sum(1 for d in R[k].devs if not d["dev"]["coll"]["group"]) != alone:
            fail("rank %d: device records" % k)


if __name__ == "__main__":
    main(globals())
