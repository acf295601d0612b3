"""hang.py — the checks of func/t-hang.sh: tprof-analyze --live (JSON, and the text of
tprof-inspect --hang-report) against the truth apps/hang-job printed (the call each rank is
about to hang in, its peer, its collective)."""
import json
import re

from checklib import fail, main


def _live(path):
    d = json.load(open(path))
    if "live" not in d:
        fail("%s: no \"live\" object" % path)
    return d["live"]


def _truth(path):
    t = {}
    for line in open(path):
        if line.startswith('{"rank"'):
            x = json.loads(line)
            t[x["rank"]] = x
    if not t:
        fail("%s: no truth line" % path)
    return t


def _proc(live, rank):
    for p in live["processes"]:
        if p["rank"] == rank:
            return p
    fail("no process of rank %d in %s" % (rank, [p["rank"] for p in live["processes"]]))


def calls(truth_path, live_path):
    """Each rank is in the call it said it would hang in (the one that left: exited)."""
    t, live = _truth(truth_path), _live(live_path)
    for rank, x in sorted(t.items()):
        p = _proc(live, rank)
        if x["in"] == "exit":
            if p["state"] != "exited":
                fail("rank %d said it exits, the view says %s (%s)" % (rank, p["state"], p))
            continue
        got = [c["call"] for c in p["calls"]]
        if not got or got[0] != x["in"]:
            fail("rank %d said it is in %s, the view says %s" % (rank, x["in"], got))


def calls_unranked(truth_path, live_path):
    """Processes that have no rank (no MPI): as many in each call as the truth says."""
    t, live = _truth(truth_path), _live(live_path)
    want = sorted(x["in"] for x in t.values())
    got = sorted(p["calls"][0]["call"] if p["calls"] else p["state"] for p in live["processes"])
    if got != want:
        fail("the processes are in %s, the truth says %s" % (got, want))


def _first(live):
    if not live["findings"]:
        fail("no finding")
    return live["findings"][0]


def _kinds(live):
    return [f["kind"] for f in live["findings"]]


def finding(scenario, truth_path, live_path):
    """The first finding names the right rank, call, collective and peer."""
    t, live = _truth(truth_path), _live(live_path)
    f = _first(live)
    text = f["text"]

    def want(cond, what):
        if not cond:
            fail("%s: %s; first finding: %s" % (scenario, what, f))

    if scenario == "nccl-skip":
        late = [r for r, x in t.items() if x["in"] == "MPI_Barrier"]
        seq = [x["seq"] for x in t.values() if x["in"] == "hipStreamSynchronize"][0]
        want(f["kind"] == "not_entered", "not a collective some rank never entered")
        want(f["call"] == "ncclAllReduce" and f["seq"] == seq, "not ncclAllReduce #%d" % seq)
        want(f["missing_ranks"] == late and f["waiting"] == len(t) - 1,
             "not rank %s missing, the others waiting" % late)
        want("rank %d is in MPI_Barrier" % late[0] in text, "does not say where it is")
    elif scenario == "device-stuck":
        late = [r for r, x in t.items() if x["in"] == "hipStreamSynchronize"]
        seq = [x["seq"] for x in t.values() if x["in"] == "MPI_Allreduce"][0]
        want(f["kind"] == "not_entered" and f["call"] == "MPI_Allreduce" and f["seq"] == seq,
             "not MPI_Allreduce #%d that some rank never entered" % seq)
        want(f["missing_ranks"] == late, "not rank %s missing" % late)
        want("rank %d is in hipStreamSynchronize" % late[0] in text and
             "never_ends launched" in text and "not finished" in text,
             "does not say the rank waits for its kernel never_ends")
    elif scenario in ("deadlock", "send-deadlock", "posted-deadlock"):
        call = "MPI_Ssend" if scenario == "send-deadlock" else "MPI_Recv"
        pairs = sorted((r, x["peer"]) for r, x in t.items() if x["in"] == call)
        want(f["kind"] == "cycle", "not a deadlock")
        got = sorted((w["rank"], w["for_rank"]) for w in f["waits"])
        want(got == pairs and all(w["call"] == call for w in f["waits"]),
             "not the cycle %s in %s" % (pairs, call))
    elif scenario == "mismatch":
        seq = list(t.values())[0]["seq"]
        m = [x for x in live["findings"] if x["kind"] == "mismatch"]
        want(m, "no mismatched collective")
        m = m[0]
        want(m["seq"] == seq and sorted([m["size"], m["other_size"]]) == [1024, 2048] and
             3 in (m["rank"], m["other_rank"]),
             "not #%d with 1024 against 2048 elements, rank 3 one of the two" % seq)
        want(f["kind"] in ("mismatch", "none_left") and "none_left" in _kinds(live),
             "the all-reduce every rank entered and none finished is not said first")
    elif scenario == "early-exit":
        gone = [r for r, x in t.items() if x["in"] == "exit"]
        seq = [x["seq"] for x in t.values() if x["in"] == "MPI_Allreduce"][0]
        want(f["kind"] == "not_entered" and f["call"] == "MPI_Allreduce" and f["seq"] == seq,
             "not MPI_Allreduce #%d that some rank never entered" % seq)
        want(f["missing_ranks"] == gone and "rank %d exited" % gone[0] in text,
             "does not say rank %s exited" % gone)
    elif scenario == "icoll-skip":
        late = [r for r, x in t.items() if x["in"] == "MPI_Recv"]
        seq = [x["seq"] for x in t.values() if x["in"] == "MPI_Wait"][0]
        want(f["kind"] == "not_entered" and f["call"] == "MPI_Iallreduce" and f["seq"] == seq,
             "not MPI_Iallreduce #%d that some rank never posted" % seq)
        want(f["missing_ranks"] == late and f["waiting"] == len(t) - 1,
             "not rank %s missing, the others waiting" % late)
        want("rank %d is in MPI_Recv" % late[0] in text, "does not say where it is")
        if scenario == "posted-deadlock":
            # one deadlock, not one for each receive posted; the posted operations said as
            # one line each side, with their number
            want(_kinds(live).count("cycle") == 1,
                 "%d deadlocks, not one" % _kinds(live).count("cycle"))
            lines = sorted((m["rank"], m["kind"], m["peer"], m["tag"], m["count"])
                           for m in live["messages"] if m["tag"] in (11, 12))
            want(lines == [(0, "send", 1, 11, 3000), (1, "receive", 0, 12, 3000)],
                 "the posted operations are said as %s" % lines)
    else:
        fail("unknown scenario %s" % scenario)
    bad = [k for k in _kinds(live) if k not in ("not_entered", "none_left", "cycle",
                                                  "mismatch")]
    if bad:
        fail("%s: findings of kinds %s" % (scenario, bad))
    said = [(m["kind"], m["rank"], m["peer"], m["tag"], m["since_ns"]) for m in live["messages"]]
    if len(said) != len(set(said)):
        fail("%s: a message said twice: %s" % (scenario, live["messages"]))


def quiet(live_path):
    """A job that is slow, not stuck: no deadlock, no mismatch, nobody gone, every wait short.
    A live view says what each rank waits for now: a collective some have not entered yet, or
    its device (the job's steps sync on a kernel), never for long."""
    live = _live(live_path)
    for f in live["findings"]:
        if f["kind"] not in ("not_entered", "device"):
            fail("a finding of kind %s in a job that is only slow: %s" % (f["kind"], f))
        if live["now_ns"] - f["since_ns"] > 5e9:
            fail("a wait of %.1f s in a job whose waits last 0.3 s: %s" %
                 ((live["now_ns"] - f["since_ns"]) / 1e9, f))


_TIMES = re.compile(r"\d\d:\d\d:\d\d|\d[\d.,]* (ns|us|ms|s|min|h)\b")


def _findings_text(path):
    out, on = [], False
    for line in open(path):
        if line.startswith("Findings"):
            on = True
            continue
        if on and not line.strip():
            break
        if on:
            out.append(_TIMES.sub("T", line.rstrip("\n")))
    if not out:
        fail("%s: no findings" % path)
    return out


def same(report_path, text_path):
    """The report written while the job hung and the killed job's profile say the same
    (times and durations aside)."""
    a, b = _findings_text(report_path), _findings_text(text_path)
    if a != b:
        fail("the hang report says\n  %s\nthe profile afterwards\n  %s" %
             ("\n  ".join(a), "\n  ".join(b)))


main(globals())
