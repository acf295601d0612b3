"""mpi-neighbor.py — the check of func/t-mpi-neighbor.sh: apps/mpi-neighbor prints, as one JSON
line, the bytes each neighbourhood collective moved over all ranks and how often each rank
called it; the summary (--summary=json) must have the same calls and bytes in its MPI table,
and each call as a collective found on every member of its communicator."""
import json

from checklib import fail, main


def summary(truth, summary_json):
    """Calls and bytes of every neighbourhood collective, each instance complete."""
    with open(truth) as f:
        t = json.loads(f.read().strip().splitlines()[-1])
    if not t["ok"]:
        fail("the program says it received other data than its neighbours sent")
    with open(summary_json) as f:
        mpi = json.load(f)["mpi"]
    calls = {r["name"]: r for r in mpi["calls"]["rows"]}
    colls = {r["name"]: r for r in mpi["collectives"]["rows"]}
    for name, n in t["calls"].items():
        if name not in calls or calls[name]["calls"] != n * t["ranks"]:
            fail("%s: %s calls, not %d" % (name, calls.get(name, {}).get("calls"),
                                           n * t["ranks"]))
        if calls[name]["bytes"] != t["bytes"][name]:
            fail("%s: %d bytes, not %d" % (name, calls[name]["bytes"], t["bytes"][name]))
        c = colls.get(name)
        if not c or c["instances"] != n or c["incomplete"]:
            fail("%s: collectives %s, not %d complete instances" % (name, c, n))


main(globals())
