"""loadfault.py — the checks of func/t-loadfault.sh: the JSON summary of a profile
(tprof-analyze --summary=json) against COUNTS, the directory where apps/loadfault left a file
per process (named by its pid: its calls begun and its calls ended, two 64-bit little-endian
counts).  Each check prints a diagnostic line per process and fails with status 1 when one
is wrong."""
import json
import os
import sys

from checklib import main


def _made(counts, f):
    """The calls begun and the calls ended of the process whose counts file is F."""
    b = open(os.path.join(counts, f), "rb").read()
    return int.from_bytes(b[0:8], "little"), int.from_bytes(b[8:16], "little")


def every_record_counted(summary, counts, killed_file, tally):
    """For every process, recorded + counted as lost == made, exactly (a process killed in
    the middle of a call, its pid in KILLED_FILE, may or may not have made that call's record:
    between its calls ended and its calls begun).  Writes to TALLY the number of processes
    and the records lost to the full disk."""
    d = json.load(open(summary))
    killed = set()
    if os.path.exists(killed_file):
        killed = {int(x) for x in open(killed_file).read().split()}
    h = d["header"]
    got = {}
    for p in h["process_list"]:
        dr = p["dropped"]
        got.setdefault(p["pid"], []).append((p["records"],
                                             dr["total"] - dr["process_stream"]["total"], dr))
    for lp in h["lost_processes"]:
        got.setdefault(lp["pid"], []).append((0, lp["records_lost"], lp["dropped"]))
    bad = 0
    full = 0
    for f in sorted(os.listdir(counts), key=int):
        pid = int(f)
        begun, ended = _made(counts, f)
        entries = got.pop(pid, [])
        if len(entries) != 1 or entries[0][1] is None:
            print("# pid %d (made %d..%d): %s in the profile" %
                  (pid, ended, begun, entries or "not"))
            bad += 1
            continue
        rec, lost, dr = entries[0]
        full += dr["stopped"] + dr["no_files"]
        fine = ended <= rec + lost <= begun if pid in killed else begun == ended == rec + lost
        print("# pid %d%s: made %d%s, recorded %d + counted as lost %d = %d%s" %
              (pid, " (killed)" if pid in killed else "", ended,
               "" if begun == ended else "..%d" % begun, rec, lost, rec + lost,
               "" if fine else "  WRONG"))
        bad += not fine
    for pid, e in got.items():
        print("# pid %d in the profile made nothing: %s" % (pid, e))
        bad += 1
    print("# records lost to the full disk: %d" % full)
    open(tally, "w").write("%d %d\n" % (len(os.listdir(counts)), full))
    sys.exit(1 if bad else 0)


def markers_exact(summary, counts):
    """On the disk full from the start: every process left a marker file whose count is what
    it made, exactly (and there are 3 processes at least)."""
    h = json.load(open(summary))["header"]
    lost = {lp["pid"]: lp for lp in h["lost_processes"]}
    bad = len(h["process_list"]) != 0
    for f in os.listdir(counts):
        made = _made(counts, f)[1]
        lp = lost.pop(int(f), None)
        got = lp and lp["known"] and lp["records_lost"]
        print("# pid %s: made %d, its marker says %s lost" % (f, made, got))
        bad += got != made or not lp["marker"]
    sys.exit(1 if bad or lost or len(os.listdir(counts)) < 3 else 0)


main(globals())
