"""mpi-complete.py — the check of func/t-mpi-complete.sh on the records (tools/dump-records,
one JSON object a line) of apps/mpi-polls completions 3000 on 2 ranks with tiny buffers."""
import collections
import json

from checklib import fail, main


def call_ends(path):
    """Every call has its end and its completions (6000)."""
    calls, ends, reqs = collections.Counter(), collections.Counter(), 0
    for line in open(path):
        r = json.loads(line)
        if r["kind"] == "call" and r["flags"] == 2:
            calls[r["name"]] += 1
            ends[r["name"]] += r["t1"] != 0
        reqs += r["kind"] == "mpireq"
    want = {"MPI_Irecv": 3000, "MPI_Isend": 3000, "MPI_Waitall": 1500, "MPI_Testall": 1500}
    if any(calls[n] != c for n, c in want.items()) or reqs != 6000:
        fail("calls %s, %d completions" % (dict(calls), reqs))
    if calls != ends:
        fail("calls without their end: %s" % dict(calls - ends))


main(globals())
