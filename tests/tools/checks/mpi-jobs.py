"""mpi-jobs.py — for func/t-mpi-jobs.sh: the jobs of the chunk files (.tpf) under a profile
directory, and the check of the JSON summary of a directory that holds two launches."""
import collections
import json
import os
import struct

from checklib import main


def print_jobs(top):
    """Prints "COUNT COUNT ..." of chunk files per job under TOP, sorted, a job per word (the
    job id is at offset 40 of a chunk file's header); "job 0 found" when one has none."""
    c = collections.Counter()
    for root, _, files in os.walk(top):
        for f in files:
            if f.endswith(".tpf"):
                h = open(os.path.join(root, f), "rb").read(64)
                c[struct.unpack_from("<Q", h, 40)[0]] += 1
    print(" ".join(str(n) for n in sorted(c.values())) if 0 not in c else "job 0 found")


def latest_launch(summary):
    """The analyzer takes the latest launch: rank 0 and rank 1 once each, 2 processes."""
    h = json.load(open(summary))["header"]
    ranks = sorted(p["rank"] for p in h["process_list"])
    assert ranks == [0, 1] and h["processes"] == 2, (ranks, h["processes"])


main(globals())
