"""mpi-align.py — the checks of func/t-mpi-align.sh on the clock alignment of an MPI job
whose rank 2 claims a clock 50 ms ahead: tprof-analyze's -v notes (NOTES), its text summary,
and its Chrome trace with what apps/mpi-pattern said it did (TRUTH, JSON)."""
import json
import re

from checklib import fail, main
from chrome_trace import events, load, ns, procs


def rank2_offset(notes, skew):
    """The -v notes give each offset and round trip in ns: rank 2's is skew to within the
    round trip, at MPI_Init and MPI_Finalize, and applied."""
    skew = int(skew)
    got = {}
    for ln in open(notes):
        m = re.search(r"rank (\d+) \(.*clock offset ([+-]\d+) ns against rank 0 at (\w+) "
                      r"\(round trip (\d+) ns.*\); (.*)$", ln)
        if m:
            got[(int(m.group(1)), m.group(3))] = (int(m.group(2)), int(m.group(4)), m.group(5))
    r2 = [v for k, v in got.items() if k[0] == 2]
    if len(r2) != 2 or len(got) != 6:
        fail("measurements: %s" % got)
    for off, rtt, verdict in r2:
        if abs(off - skew) > rtt or verdict != "applied":
            fail("rank 2: offset %d ns, round trip %d ns, %s (want %d within the round trip, "
                 "applied)" % (off, rtt, verdict, skew))
    print("# rank 2 (offset, round trip): %s" % [v[:2] for v in r2])


def others_alone(notes):
    """Ranks 1 and 3 share rank 0's clock and are left alone."""
    for ln in open(notes):
        m = re.search(r"rank ([013]) \(.*clock offset ([+-]\d+) ns .*round trip (\d+) ns.*\); "
                      r"(.*)$", ln)
        if m and not m.group(4).startswith("not applied: same host"):
            fail("rank %s: %s" % (m.group(1), ln.strip()))


def summary_table(notes, summary):
    """The summary's table must show rank 2's two measurements as the notes give them (the
    same offsets, to the ns), marked applied, and ranks 1 and 3 as sharing rank 0's clock.
    How close the offset is to 50 ms is the round trip's business (rank2_offset), not the
    table's."""
    found = {}
    for ln in open(notes):
        m = re.search(r"rank (\d+) \(.*clock offset ([+-]\d+) ns against rank 0 at (\w+) ", ln)
        if m:
            found[(int(m.group(1)), m.group(3))] = int(m.group(2))
    rows = {}
    for ln in open(summary):
        m = re.match(r"^ +(\d+) (MPI_Init|MPI_Finalize) +([+-]\d+) +\S+ \S+  "
                     r"(yes|no \(shared clock\)) ", ln)
        if m:
            rows[(int(m.group(1)), m.group(2))] = (int(m.group(3)), m.group(4))
    want = {k: (v, "yes" if k[0] == 2 else "no (shared clock)") for k, v in found.items()}
    if rows != want or len(rows) != 6:
        fail("summary rows %s, want %s" % (rows, want))


def rank2_round_trip(notes):
    """Prints the longest round trip of rank 2's measurements in the notes (0 if none)."""
    print(max([int(m.group(1)) for ln in open(notes)
               for m in [re.search(r"rank 2 \(.*round trip (\d+) ns", ln)] if m] or [0]))


def forward(trace, truth, tol):
    """No arrow may point backwards in time, but one to or from rank 2 by no more than the
    uncertainty of its alignment (tol, ns): the round trip of its measurement (a message
    between processes of one host can take less than that)."""
    d = load(trace)
    truth = json.load(open(truth))
    tol = int(tol)
    r2 = {p for p, (n, _) in procs(d).items() if n.startswith("rank 2 ")}
    s = {e["id"]: e for e in events(d) if e["ph"] == "s" and e["name"] == "message"}
    f = {e["id"]: e for e in events(d) if e["ph"] == "f" and e["name"] == "message"}

    def slack(i):
        return tol if {s[i]["pid"], f[i]["pid"]} & r2 else 0
    back = [(s[i]["pid"], f[i]["pid"], s[i]["ts"], f[i]["ts"]) for i in s
            if i in f and ns(f[i]["ts"]) < ns(s[i]["ts"]) - slack(i)]
    if len(s) != truth["messages"] or set(s) != set(f) or back or len(r2) != 1:
        fail("%d messages matched of %d; backwards: %s; rank 2: %s" %
             (len(s), truth["messages"], back[:3], r2))


main(globals())
