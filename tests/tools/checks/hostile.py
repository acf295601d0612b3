"""hostile.py — the checks of func/t-hostile.sh on hostile and damaged profiles (written by
tools/mk-hostile) and what tprof-analyze made of them: Chrome traces and a JSON summary (on
standard input).  bounded is not a check: it runs the analyzer and prints what it cost."""
import json
import os
import resource
import subprocess
import sys

from checklib import main
from chrome_trace import events, load


def bounded(d, analyze, out, *formats):
    """Runs the analyzer ANALYZE on the profile directory D once per format (summary or a
    --format, the outputs in OUT), each within a hang guard (TPROF_TEST_HANG_S, 600 s unless
    set); prints "status peak-KiB input-bytes".  The input's size is what its files hold (a
    sparse file's blocks, not its holes)."""
    size = 0
    for root, _, files in os.walk(d):
        for f in files:
            st = os.lstat(os.path.join(root, f))
            size += min(st.st_size, st.st_blocks * 512)
    status, peak = 0, 0
    for fmt in formats:
        args = [analyze, d, "--summary"] if fmt == "summary" else \
               [analyze, d, "--format", fmt, "-o", os.path.join(out, fmt)]
        try:
            r = subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               timeout=int(os.environ.get("TPROF_TEST_HANG_S", "600")))
            if r.returncode:
                status = r.returncode
                sys.stderr.write(r.stderr.decode(errors="replace")[-2000:])
        except subprocess.TimeoutExpired:
            status = 124
        peak = max(peak, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
    print(status, peak, size)


def _count(trace, keep):
    """How many events (not metadata) of the Chrome trace KEEP keeps."""
    return sum(1 for e in events(load(trace)) if keep(e))


def barriers_2000(trace):
    """A world of 2^24 - 1 ranks: the 2000 collectives of its one rank are there."""
    if _count(trace, lambda e: e["name"] == "MPI_Barrier") != 2000:
        sys.exit(1)


def marks_3(trace):
    """The 3 marks of the buffer after the hole are read."""
    if _count(trace, lambda e: e["ph"] == "i") != 3:
        sys.exit(1)


def json_valid():
    """The JSON on standard input parses."""
    json.load(sys.stdin)


def chrome_valid(trace):
    """The Chrome trace parses."""
    load(trace)


main(globals())
