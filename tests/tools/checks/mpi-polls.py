"""mpi-polls.py — the checks of func/t-mpi-polls.sh: apps/mpi-polls prints what it did (the
truth, a JSON file: the calls it made and the polls that missed per function, its runs of
unsuccessful polls per thread); each check reads it beside what tprof made of the run: the
summary text, the Chrome trace, the records as tools/dump-records prints them (one JSON
object a line) or otf2-print's event listing."""
import collections
import json
import re
from importlib import import_module

from checklib import fail, main
from chrome_trace import events, load

otf2 = import_module("lib-otf2")

FNS = ["MPI_Test", "MPI_Testany", "MPI_Testsome", "MPI_Testall", "MPI_Iprobe", "MPI_Improbe"]


def _json(path):
    with open(path) as f:
        return json.load(f)


def _summary_calls(path):
    """{function: calls} of the polling functions in the summary text."""
    rows = {}
    for line in open(path):
        f = line.split()
        if len(f) >= 10 and f[1] == "%" and f[-1] in FNS:
            rows[f[-1]] = int(f[4].replace(",", ""))
    return rows


def _runs(d):
    """{tid: [span]} of the spans of runs of polls in the Chrome trace, in time order."""
    by = collections.defaultdict(list)
    for e in sorted(events(d), key=lambda e: e["ts"]):
        if e["ph"] == "X" and "polls" in e.get("args", {}):
            by[str(e["tid"])].append(e)
    return by


def _poll_records(path):
    """The functions of every POLL record of the records, a list per record."""
    out = []
    for line in open(path):
        r = json.loads(line)
        out.append(r.get("polls", []) if r["kind"] == "poll" else [])
    return out


def summary_calls(summary, truth_path):
    """The summary has the exact number of calls of every polling function."""
    truth = _json(truth_path)
    got = _summary_calls(summary)
    want = truth["calls"]
    if got != want:
        fail("summary calls %s, the program made %s" % (got, want))


def runs_exact(trace, truth_path):
    """Each run of unsuccessful polls is one span, named for its functions, with its count,
    in order."""
    truth = _json(truth_path)
    d = load(trace)
    got = {tid: [[e["name"].split(" + "), e["args"]["polls"]] for e in v]
           for tid, v in _runs(d).items()}
    if got != truth["runs"]:
        fail("runs in the trace %s\nthe program made %s" % (got, truth["runs"]))


def runs_time(trace, truth_path):
    """A run's time inside the calls lies within its span; the functions' counts add up."""
    _json(truth_path)
    d = load(trace)
    bad = []
    for v in _runs(d).values():
        for e in v:
            a = e["args"]
            # (0 only for a lone poll that went untimed: its run ended as it began)
            tc = a["time in calls (us)"]
            if not (0 <= tc <= e["dur"] and (tc > 0 or a["polls"] == 1)):
                bad.append(e)
            if (" + " in e["name"] and
                    sum(f["polls"] for f in a["functions"].values()) != a["polls"]):
                bad.append(e)
    if bad:
        fail("spans whose time in calls or per-function counts are off: %s" % bad[:3])


def single_polls(trace, truth_path):
    """Every poll that found something is a span of its own."""
    truth = _json(truth_path)
    d = load(trace)
    single = collections.Counter(e["name"] for e in events(d)
                                 if e["ph"] == "X" and e.get("cat") == "mpi" and
                                 "polls" not in e.get("args", {}))
    got = {f: single[f] for f in FNS}
    want = {f: truth["calls"][f] - truth["misses"][f] for f in FNS}
    if got != want:
        fail("spans of single polls %s, polls that found something %s" % (got, want))


def poll_records(records, truth_path):
    """The recorder's POLL records count every unsuccessful poll."""
    truth = _json(truth_path)
    got = collections.Counter()
    for fs in _poll_records(records):
        for f in fs:
            got[f["name"]] += f["count"]
    want = {f: n for f, n in truth["misses"].items() if n}
    if dict(got) != want:
        fail("POLL records count %s, the program missed %s" % (dict(got), want))


def timed_per_function(records):
    """Past its first 16 polls, a run times one poll in 17 and counts the others alone: a
    function's busy time, min and max are those of its timed polls (the analyzer scales the
    time by count / timed)."""
    bad, long_runs = [], 0
    for fs in _poll_records(records):
        for f in fs:
            n, k = f["count"], f["timed"]
            if not (1 <= k <= n and k <= 16 + n // 17 + 1 and
                    f["min"] * k <= f["busy"] <= f["max"] * k):
                bad.append(f)
            long_runs += n >= 1000
    if bad or not long_runs:
        fail("%d runs of 1000 polls or more; out of bounds: %s" % (long_runs, bad[:3]))


def timed_per_run(records):
    """Since one in 127: a run of N polls times its first 16 and then one in 127, all its
    functions together."""
    bad, long_runs = [], 0
    for fs in _poll_records(records):
        n, k = sum(f["count"] for f in fs), sum(f["timed"] for f in fs)
        if fs and not (1 <= k <= 16 + max(n - 16, 0) // 127 + 1):
            bad.append(fs)
        long_runs += n >= 1000
    if bad or not long_runs:
        fail("%d runs of 1000 polls or more; timed out of bounds: %s" % (long_runs, bad[:3]))


def print_misses(truth_path):
    """Prints how many polls missed, all functions together."""
    print(sum(_json(truth_path)["misses"].values()))


def each_poll_spans(trace, truth_path, summary):
    """TPROF_POLLS=each: one span per call, the same counts."""
    truth = _json(truth_path)
    d = load(trace)
    n = collections.Counter(e["name"] for e in events(d)
                            if e["ph"] == "X" and e.get("cat") == "mpi")
    folded = [e for e in events(d) if "polls" in e.get("args", {})]
    got = {f: n[f] for f in FNS}
    if got != truth["calls"] or folded or _summary_calls(summary) != truth["calls"]:
        fail("spans %s (%d folded), calls made %s" % (got, len(folded), truth["calls"]))


def killed_run(trace, reported):
    """Killed while polling: the run so far is in the profile (its record lives in the
    mapped buffer, updated in place, and the kernel keeps it), with at least the polls the
    program reported."""
    d = load(trace)
    runs = [e for e in events(d) if e["ph"] == "X" and e["name"] == "MPI_Test" and
            "polls" in e.get("args", {})]
    if len(runs) != 1 or runs[0]["args"]["polls"] < int(reported):
        fail("runs %s after %s misses were reported" % (runs, reported))


def thread_runs(trace, truth_path, summary):
    """Two threads polling at once: each thread's runs and the counts are exact."""
    truth = _json(truth_path)
    d = load(trace)
    got = {tid: [[e["name"].split(" + "), e["args"]["polls"]] for e in v]
           for tid, v in _runs(d).items()}
    if (len(truth["runs"]) != 2 or got != truth["runs"] or
            _summary_calls(summary) != truth["calls"]):
        fail("runs in the trace %s\nthe program made %s" % (got, truth["runs"]))


def otf2_polls(listing, truth_path):
    """OTF2: a run is one region visit with its count; regions nest, and their polls
    attributes add up to every unsuccessful poll."""
    truth = _json(truth_path)
    ev = otf2.events(listing)
    polls = sum(int(m) for r, l, t, x in ev if r == "ENTER"
                for m in re.findall(r"\(.polls. <\d+>; UINT64; (\d+)\)", x))
    bad = otf2.nesting(ev)
    if bad or polls != sum(truth["misses"].values()):
        fail("nesting %s; polls attributes add up to %d, the program missed %d" % (
            bad[:3], polls, sum(truth["misses"].values())))


main(globals())
