"""gen-profile.py — the checks of func/t-gen-profile.sh: tools/gen-profile prints what a
synthetic profile holds (ranks, steps, messages and their bytes, collective instances), and the
analyzer's summary as JSON must find exactly that."""
import json

from checklib import fail, main


def _load(truth, summary_json):
    with open(truth) as f:
        t = json.loads(f.read().strip().splitlines()[-1])
    with open(summary_json) as f:
        return t, json.load(f)


def summary(truth, summary_json):
    """Every message matched with its bytes, none unmatched; every step of every rank; one
    MPI_Allreduce instance per step, none incomplete; the ranges of every step; with NCCL,
    one AllReduce instance per step over every rank, each rank's part timed on its GPU; with
    kernels, every one of them."""
    t, d = _load(truth, summary_json)
    m = d["mpi"]["messages"]
    if (m["matched"], m["matched_bytes"], m["unmatched_sends"], m["unmatched_receives"]) != \
            (t["messages"], t["message_bytes"], 0, 0):
        fail("messages %s, not %d matched (%d bytes)" % (m, t["messages"], t["message_bytes"]))
    if d["steps"]["count"] != t["ranks"] * t["steps"]:
        fail("%d steps, not %d" % (d["steps"]["count"], t["ranks"] * t["steps"]))
    rows = {r["name"]: r for r in d["mpi"]["collectives"]["rows"]}
    ar = rows.get("MPI_Allreduce")
    if not ar or ar["instances"] != t["collectives"] or ar["incomplete"]:
        fail("collectives %s, not %d complete instances" % (rows, t["collectives"]))
    ranges = {r["name"]: r["calls"] for r in d["ranges"]["rows"]}
    if ranges != {"forward": t["ranks"] * t["steps"], "backward": t["ranks"] * t["steps"]}:
        fail("ranges %s" % ranges)
    kernels = sum(r["calls"] for r in d["kernels"]["rows"])
    if kernels != t["kernels"] or d["kernels"].get("rows_omitted"):
        fail("%d kernels, not %d" % (kernels, t["kernels"]))
    nc = d["nccl"]["collectives"]
    if t["nccl_collectives"]:
        rows = nc["rows"]
        if (nc["instances"], nc["incomplete"], nc["unmatched_operations"]) != \
                (t["nccl_collectives"], 0, 0) or len(rows) != 1 or \
                (rows[0]["ranks"], rows[0]["size_bytes"], rows[0]["timed_parts"]) != \
                (t["ranks"], t["nccl_bytes"], t["ranks"] * t["nccl_collectives"]):
            fail("NCCL collectives %s, not %d instances of %d ranks, %d bytes, every part "
                 "timed" % (nc, t["nccl_collectives"], t["ranks"], t["nccl_bytes"]))
    elif nc.get("instances"):
        fail("NCCL collectives %s in a profile without any" % nc)
    print("%d messages, %d steps, %d collectives, %d NCCL instances" % (
        m["matched"], d["steps"]["count"], ar["instances"], nc.get("instances", 0)))


main(globals())
