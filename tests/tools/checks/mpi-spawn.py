"""mpi-spawn.py — the check of func/t-mpi-spawn.sh: apps/mpi-spawn prints how many parents and
children it ran; the summary (--summary=json) must list them all as processes, the parents'
MPI_Comm_spawn calls and every process's MPI_Init."""
import json

from checklib import fail, main


def summary(truth, summary_json):
    """A process for each parent and child; MPI_Comm_spawn once per parent."""
    with open(truth) as f:
        t = json.loads(f.read().strip().splitlines()[-1])
    with open(summary_json) as f:
        s = json.load(f)
    n = t["parents"] + t["children"]
    if s["header"]["processes"] != n:
        fail("%d processes, not %d" % (s["header"]["processes"], n))
    calls = {r["name"]: r["calls"] for r in s["mpi"]["calls"]["rows"]}
    want = {"MPI_Comm_spawn": t["parents"], "MPI_Init": n, "MPI_Comm_disconnect": n,
            "MPI_Comm_get_parent": n}
    got = {k: calls.get(k) for k in want}
    if got != want:
        fail("calls %s, not %s" % (got, want))


main(globals())
