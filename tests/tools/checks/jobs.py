"""jobs.py — the checks of func/t-jobs.sh, and the helpers it runs on a profile directory:
the job counts of its chunk files, the zeroing of their job fields (a profile as written
before jobs existed), and a framework trace of a chunk file's job.  The checks are given the
JSON summaries (tprof-analyze --summary=json) or the Chrome trace a run wrote."""
import collections
import glob
import json
import os
import struct
import time
import zlib

from checklib import fail, main
from chrome_trace import events, load


def _job_of(path):
    """The job id in the header of the chunk file at path, as 16 hex digits."""
    with open(path, "rb") as f:
        return "%016x" % struct.unpack_from("<Q", f.read(64), 40)[0]


def job_counts(root):
    """Prints "ID:COUNT ..." of the chunk files under root, by the job in their headers."""
    c = collections.Counter()
    for d, _, files in os.walk(root):
        for f in files:
            if f.endswith(".tpf"):
                c[_job_of(os.path.join(d, f))] += 1
    print(" ".join("%s:%d" % kv for kv in sorted(c.items())))


def zero_jobs(directory):
    """Makes the files of directory a profile from before jobs: zeroes the job field of each
    header and redoes its CRC."""
    for f in glob.glob(os.path.join(directory, "*")):
        with open(f, "r+b") as fh:
            h = bytearray(fh.read(64))
            h[40:48] = bytes(8)
            struct.pack_into("<I", h, 60, zlib.crc32(bytes(h[:60])))
            fh.seek(0)
            fh.write(h)


def framework_trace(chunk):
    """Prints a framework trace of one op now, named op-JOB by the job of the chunk file."""
    ts = time.time() * 1e6
    print("""{"traceEvents": [{"name": "op-%s", "ph": "X", "ts": %.0f, "dur": 1, """
          """"pid": 1, "tid": 1}]}""" % (_job_of(chunk), ts))


def both_jobs_json(path, *ids):
    """header.jobs lists the jobs ids (id, start, processes, command)."""
    h = json.load(open(path))["header"]
    want = sorted(ids)
    got = sorted(j["id"] for j in h["jobs"])
    if got != want:
        fail(str((got, want)))
    if not all(j["processes"] == 1 and j["start_unix_ns"] > 0 and "threads" in j["command"]
               for j in h["jobs"]):
        fail(str(h["jobs"]))
    if not (h["jobs_in_dir"] == 2 and h["jobs_not_analyzed"] == 0 and h["processes"] == 2):
        fail(str(h))


def old_job_null(path):
    """The one job of an old profile has a null id and both processes."""
    j = json.load(open(path))["header"]["jobs"]
    if not (len(j) == 1 and j[0]["id"] is None and j[0]["processes"] == 2):
        fail(str(j))


def framework_of_job(path):
    """Only the framework op of the job analyzed, abcd000000000001, is in the trace."""
    d = load(path)
    ops = sorted(e["name"] for e in events(d) if e["name"].startswith("op-"))
    if ops != ["op-abcd000000000001"]:
        fail(str(ops))


main(globals())
