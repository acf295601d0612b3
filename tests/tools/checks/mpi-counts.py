"""mpi-counts.py — the checks of func/t-mpi-counts.sh: the calls tprof recorded (its summary,
as JSON) against those an independent interposer counted (tools/mpi-count-gen.py), per MPI
function, the Fortran and C spellings folded onto the C name."""
import collections
import glob
import json
import re
import sys

from checklib import fail, main

# Calls tprof does not record, on purpose: timers, address arithmetic, handle conversions.
NOT_RECORDED = re.compile(r"mpi_(wtime|wtick|aint_add|aint_diff|\w+_(f2c|c2f|f082c|c2f08))$")


def _counted(count_dir):
    calls = collections.Counter()
    for path in glob.glob(count_dir + "/count.*"):
        for line in open(path):
            name, n = line.split()
            # MPICH's use mpi_f08 bindings with a buffer: mpi_send_f08ts_, and with large
            # counts mpi_send_f08ts_large_ (MPI_Send_c)
            key = name.lower()
            if name.islower():
                key = re.sub(r"_f08ts_large_$", "_c", key)
                key = re.sub(r"(_f08ts_|_f08_|_)$", "", key)
            calls[key] += int(n)
    return calls


def _recorded(summary_json):
    d = json.load(open(summary_json))
    if d["mpi"]["calls"].get("rows_omitted"):
        fail("the summary left rows out")
    return {r["name"].lower(): r["calls"] for r in d["mpi"]["calls"]["rows"]}


def same_counts(count_dir, summary_json):
    """Every MPI function the program called was recorded as often as the interposer counted."""
    c, r = _counted(count_dir), _recorded(summary_json)
    if not c:
        fail("the interposer counted no call")
    diffs = ["%s: counted %d, recorded %d" % (k, c.get(k, 0), r.get(k, 0))
             for k in sorted(set(c) | set(r))
             if c.get(k, 0) != r.get(k, 0) and not NOT_RECORDED.match(k)]
    if diffs:
        fail("; ".join(diffs))
    print("%d functions, %d calls" % (len(c), sum(c.values())))


main(globals())
