"""scan-links.py — the checks of func/t-scan-links.sh on what tprof-analyze made of a
directory with links, a link to nothing and a directory too deep: its JSON summary and its
Chrome trace."""
import json

from checklib import fail, main
from chrome_trace import load, procs


def unreadable_listed(summary):
    """The JSON summary (SUMMARY, /dev/stdin when piped) names the 2 files not read: the
    link to nothing and the directory too deep."""
    u = json.load(open(summary))["header"]["unreadable"]
    paths = [x["path"] for x in u["list"]]
    if not (u["files"] == 2 and any(p.endswith("gone.1.2.tpf") for p in paths) and
            any(p.endswith("/g/h") for p in paths)):
        fail("unreadable %s" % u)


def two_processes(trace):
    """The Chrome trace has the 2 processes once each."""
    n = len(procs(load(trace)))
    if n != 2:
        fail("%d processes" % n)


main(globals())
