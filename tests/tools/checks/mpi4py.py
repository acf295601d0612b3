"""mpi4py.py — the checks of func/t-mpi4py.sh on the records (tools/dump-records, one JSON
object a line) of an mpi4py program run on 2 ranks under tprof-inspect -- mpirun, and whether
Debian's own python3 has mpi4py at all."""
import collections
import importlib
import json
import os
import sys

from checklib import fail, main


def has_mpi4py():
    """Passes when this interpreter has the mpi4py module (not this file, which has its
    name)."""
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != here]
    importlib.import_module("mpi4py")


def _records(path):
    return [json.loads(ln) for ln in open(path)]


def calls(path):
    """Both ranks' MPI calls are recorded, with peers, tags, bytes and communicators."""
    by_rank = collections.defaultdict(list)
    for r in _records(path):
        if r["kind"] == "call" and r["flags"] == 2:
            by_rank[r["rank"]].append(r)
    if sorted(by_rank) != [0, 1]:
        fail("ranks %s" % sorted(by_rank))
    for k in (0, 1):
        names = [c["name"] for c in by_rank[k]]
        for want in ("MPI_Init_thread", "MPI_Send", "MPI_Recv", "MPI_Bcast", "MPI_Allreduce",
                     "MPI_Finalize"):
            if want not in names:
                fail("rank %d lacks %s: %s" % (k, want, names))
        m = {c["name"]: c["mpi"] for c in by_rank[k]}
        peer = 1 - k
        send_tag, recv_tag = (7, 8) if k == 0 else (8, 7)
        send, recv = m["MPI_Send"], m["MPI_Recv"]
        if (send["peer"], send["tag"], send["bytes"], send["comm"]) != (peer, send_tag, 16, 1):
            fail("rank %d send %s" % (k, send))
        if (recv["peer"], recv["tag"], recv["bytes"]) != (peer, recv_tag, 16):
            fail("rank %d recv %s" % (k, recv))
        if (m["MPI_Bcast"]["seq"], m["MPI_Allreduce"]["seq"],
                m["MPI_Allreduce"]["bytes"]) != (1, 2, 24):
            fail("rank %d collectives %s %s" % (k, m["MPI_Bcast"], m["MPI_Allreduce"]))


def world_and_clock(path):
    """WORLD is described on both ranks, and rank 1 measured its clock offset."""
    recs = _records(path)
    worlds = [r for r in recs if r["kind"] == "comm" and r["comm"]["id"] == 1]
    if (sorted(r["rank"] for r in worlds) != [0, 1] or
            any(r["comm"]["members"] != [0, 1] for r in worlds)):
        fail("WORLD %s" % worlds)
    cs = [r for r in recs if r["kind"] == "csync"]
    if sorted((r["rank"], r["flags"]) for r in cs) != [(1, 0), (1, 1)]:
        fail("csync %s" % cs)


main(globals())
