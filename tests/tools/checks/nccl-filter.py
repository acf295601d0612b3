"""nccl-filter.py — the checks of func/t-nccl-filter.sh on what the recorder wrote of
apps/nccl-extras on 2 ranks under TPROF_NCCL_API_FILTER or _FILTER_OUT (tools/dump-records
output, a JSON object a line), read with the helpers of lib-nccl.py."""
import collections
import importlib

from checklib import fail, main

nccl = importlib.import_module("lib-nccl")
procs, F_GROUPED = nccl.procs, nccl.F_GROUPED


def _load(dump):
    """The two processes of the profile, {pid: P}."""
    ps = procs(dump)
    if len(ps) != 2:
        fail("%d processes" % len(ps))
    return ps


def _devices_intact(p):
    # 3 collectives alone (1, 5, 6), the two-stream group (2, 3), the nested groups (the
    # first send: 1)
    if len(p.devs) != 6 or p.drops:
        fail("pid %d: %d device records" % (p.pid, len(p.devs)))
    if sorted(x["dev"]["coll"]["seq"] for x in p.devs) != [1, 1, 2, 3, 5, 6]:
        fail("pid %d: numbers %s" % (p.pid, [x["dev"]["coll"]["seq"] for x in p.devs]))


def allreduce_and_groups(dump):
    """Only the all-reduces and the group calls are recorded, numbered as if all were."""
    for p in _load(dump).values():
        names = collections.Counter(r["name"] for r in p.calls)
        if set(names) != {"ncclAllReduce", "ncclGroupStart", "ncclGroupEnd"} or \
                names["ncclAllReduce"] != 3:
            fail("pid %d: %s" % (p.pid, names))
        if [r["nccl"]["seq"] for r in p.calls if r["name"] == "ncclAllReduce"] != [2, 3, 6]:
            fail("pid %d: numbers" % p.pid)


def devices_intact(dump):
    """Every collective still has its device span."""
    for p in _load(dump).values():
        _devices_intact(p)


def no_comm_or_group(dump):
    """No communicator or group call is recorded; grouped calls still name their group."""
    for p in _load(dump).values():
        names = set(r["name"] for r in p.calls)
        if any("Comm" in x or "Group" in x for x in names) or "ncclBcast" not in names:
            fail("pid %d: %s" % (p.pid, names))
        grouped = [r["nccl"] for r in p.calls if r["nccl"]["flags"] & F_GROUPED]
        if len(grouped) != 5 or any(not a["aux"] for a in grouped) or \
                len(set(a["aux"] for a in grouped)) != 2:
            fail("pid %d: grouped %s" % (p.pid, grouped))
        comms = set(r["nccl"]["comm"] for r in p.calls)
        if len(comms) != 1 or min(comms) < 16:
            fail("pid %d: communicators %s" % (p.pid, comms))


if __name__ == "__main__":
    main(globals())
