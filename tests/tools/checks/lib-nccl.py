"""lib-nccl.py — readers of a profile's NCCL records (through tools/dump-records) beside the
stand-in NCCL's own trace of what it ran (STANDIN_NCCL_TRACE_FILE: one line per operation,
with its start and end on the host's CLOCK_MONOTONIC, the clock of the DEVICE records), for
the NCCL recorder tests (func/lib-nccl.sh): their checkers import it
(importlib.import_module("lib-nccl")).

    procs(dump)      {pid: P} for each process of a profile (tools/dump-records output): P.rank,
                     P.calls (its NCCL CALL records in order), P.devs (its collective DEVICE
                     records), P.hip (its HIP CALLs), P.props ({key: last value}), P.drops
    standin(glob)    the stand-in's trace lines, each a dict (numbers as ints)
    ops_of(P, d, S)  the stand-in's operations (of S) that DEVICE record d of P stands for,
                     and the CALLs they came from: [(call, op)]
    corr(r)          the correlation id of a CALL
    fail(msg)        exits with msg
"""
import glob
import json

from checklib import fail, main

OTHER, COMM_INIT, COMM_SPLIT, COMM_END, GROUP_START, GROUP_END = 0, 1, 2, 3, 4, 5
KIND = {"allreduce": 16, "broadcast": 17, "reduce": 18, "allgather": 19, "reducescatter": 20,
        "alltoall": 21, "gather": 22, "scatter": 23, "send": 24, "recv": 25, "alltoallv": 26}
SEND, RECV = 24, 25
DTYPE = {"int8": 0, "uint8": 1, "int32": 2, "uint32": 3, "int64": 4, "uint64": 5,
         "float16": 6, "float32": 7, "float64": 8, "bfloat16": 9}
REDOP = {"sum": 0, "prod": 1, "max": 2, "min": 3, "avg": 4, "none": 255}
F_INPLACE, F_GROUPED, F_RCCL, F_UNTIMED = 1, 2, 4, 8
DOM_HIP, DOM_NCCL, COLLECTIVE = 1, 3, 5


def corr(r):
    return r["arg"] & ((1 << 48) - 1)


class P:
    def __init__(self, pid):
        self.pid, self.rank = pid, -1
        self.calls, self.devs, self.hip, self.drops, self.props = [], [], [], [], {}


def procs(path):
    out = {}
    for line in open(path):
        r = json.loads(line)
        p = out.setdefault(r["pid"], P(r["pid"]))
        p.rank = r["rank"]
        if r["kind"] == "call" and r["flags"] == DOM_NCCL:
            p.calls.append(r)
        elif r["kind"] == "call" and r["flags"] == DOM_HIP:
            p.hip.append(r)
        elif r["kind"] == "device" and r["flags"] == COLLECTIVE:
            p.devs.append(r)
        elif r["kind"] == "drop":
            p.drops.append(r)
        elif r["kind"] == "prop":
            p.props[r["name"]] = r["value"]
    return {pid: p for pid, p in out.items() if p.calls or p.devs}


def standin(pattern):
    ops = []
    for path in sorted(glob.glob(pattern)):
        for line in open(path):
            f = line.split()
            d = {"kind": f[0]}
            for kv in f[1:]:
                k, v = kv.split("=", 1)
                try:
                    d[k] = int(v, 16) if k in ("comm", "stream") else int(v)
                except ValueError:
                    d[k] = v
            ops.append(d)
    return ops


def ops_of(p, d, trace):
    c = d["dev"]["coll"]
    if c["group"]:
        calls = [r for r in p.calls if r["nccl"]["op"] >= 16 and r["nccl"]["aux"] == c["group"]
                 and r["nccl"]["stream"] == d["dev"]["stream"]]
    else:
        calls = [r for r in p.calls if corr(r) == d["arg"]]
    out = []
    for r in calls:
        a = r["nccl"]
        peer = a["peer"] if a["op"] in (SEND, RECV) else -1
        root = -1 if a["op"] in (SEND, RECV) else a["peer"]
        m = [o for o in trace if o["pid"] == p.pid and KIND[o["kind"]] == a["op"]
             and o["seq"] == a["seq"] and o["nranks"] == a["nranks"] and o["rank"] == a["rank"]
             and o["peer"] == peer and (root < 0 or o["root"] == root)]
        if len(m) != 1:
            fail("pid %d: %d stand-in operations for %s seq %d" %
                 (p.pid, len(m), r["name"], a["seq"]))
        out.append((r, m[0]))
    return out


if __name__ == "__main__":
    main(globals())
