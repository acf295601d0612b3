"""mpi-persist.py — the check of func/t-mpi-persist.sh: apps/mpi-persist prints, as one JSON
line, the instances of each persistent collective and the bytes all ranks sent in them, and
the partitioned messages with their bytes; the summary (--summary=json) must have each
collective's instances complete with those bytes and every message matched."""
import json

from checklib import fail, main


def summary(truth, summary_json):
    """Each MPI_Start of a persistent collective one instance on every member; each of a
    partitioned send and receive one message."""
    with open(truth) as f:
        t = json.loads(f.read().strip().splitlines()[-1])
    if not t["ok"]:
        fail("the program says it received other data than was sent")
    with open(summary_json) as f:
        mpi = json.load(f)["mpi"]
    colls = {r["name"]: r for r in mpi["collectives"]["rows"]}
    for name, (n, sent) in t["collectives"].items():
        c = colls.get(name)
        if not c or c["instances"] != n or c["incomplete"] or c["bytes"] != sent:
            fail("%s: %s, not %d complete instances of %d bytes" % (name, c, n, sent))
    m = mpi["messages"]
    if (m["matched"], m["matched_bytes"], m["unmatched_sends"], m["unmatched_receives"]) != \
            (t["messages"], t["message_bytes"], 0, 0):
        fail("messages %s, not %d of %d bytes, all matched" % (m, t["messages"],
                                                              t["message_bytes"]))


main(globals())
