"""nccl-ctypes.py — the checks of func/t-nccl-ctypes.sh on what the recorder wrote of
apps/nccl-ctypes.py (tools/dump-records output, a JSON object a line) and the stand-in
NCCL's trace of what it ran (the files trace.* in a directory), read with the helpers of
lib-nccl.py."""
import importlib

from checklib import fail, main

nccl = importlib.import_module("lib-nccl")
procs, standin, ops_of, corr = nccl.procs, nccl.standin, nccl.ops_of, nccl.corr
F_INPLACE, F_GROUPED = nccl.F_INPLACE, nccl.F_GROUPED


def calls_in_order(dump):
    """Every NCCL call, in order, with its arguments, numbers and group."""
    ps = list(procs(dump).values())
    if len(ps) != 1:
        fail("%d processes" % len(ps))
    p = ps[0]
    names = [r["name"] for r in p.calls]
    want = ["ncclGetVersion", "ncclGetUniqueId", "ncclCommInitRank", "ncclAllReduce",
            "ncclBroadcast", "ncclGroupStart", "ncclAllReduce", "ncclAllReduce", "ncclGroupEnd",
            "ncclCommDestroy"]
    if names != want:
        fail("calls %s" % names)
    a = [r["nccl"] for r in p.calls]
    uid = a[1]["comm"]
    if a[2]["comm"] != uid or (a[2]["rank"], a[2]["nranks"]) != (0, 1) or uid < 16:
        fail("init %s" % a[2])
    got = [(x["op"], x["count"], x["bytes"], x["seq"], x["comm"], x["peer"], x["flags"])
           for x in (a[3], a[4], a[6], a[7])]
    if got != [(16, 4096, 16384, 1, uid, -1, F_INPLACE), (17, 4096, 16384, 2, uid, 0, F_INPLACE),
               (16, 2048, 8192, 3, uid, -1, F_INPLACE | F_GROUPED),
               (16, 1024, 4096, 4, uid, -1, F_INPLACE | F_GROUPED)]:
        fail("collectives %s" % got)
    g = corr(p.calls[5])
    if [x["aux"] for x in a[5:9]] != [g] * 4:
        fail("group %s" % a[5:9])
    if p.props.get("nccl_events") != "HIP" or \
            not p.props.get("nccl_library", "").endswith("libnccl.so.2"):
        fail("%s" % p.props)


def device_spans(dump, tracedir):
    """The collectives and the group ran on the device, each span holding the stand-in's
    run."""
    p = list(procs(dump).values())[0]
    trace = standin(tracedir + "/trace.*")
    d = sorted((x["name"], x["arg"], x["dev"]["coll"]["nops"]) for x in p.devs)
    c = {r["name"] + str(i): corr(r) for i, r in enumerate(p.calls)}
    if d != sorted([("ncclAllReduce", c["ncclAllReduce3"], 1),
                    ("ncclBroadcast", c["ncclBroadcast4"], 1),
                    ("ncclGroupEnd", c["ncclGroupEnd8"], 2)]):
        fail("device records %s" % d)
    for x in p.devs:
        ops = ops_of(p, x, trace)
        s, e = min(o["start_ns"] for _, o in ops), max(o["end_ns"] for _, o in ops)
        o = x["dev"]
        if o["end_ns"] - o["start_ns"] < e - s - 2000 or o["start_ns"] > s + 1000000 or \
                o["end_ns"] < e - 1000000:
            fail("%s: [%d, %d] for the run [%d, %d]" % (x["name"], o["start_ns"], o["end_ns"],
                                                        s, e))


if __name__ == "__main__":
    main(globals())
