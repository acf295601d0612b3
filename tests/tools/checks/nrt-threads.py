"""nrt-threads.py — the checks of func/t-nrt-threads.sh: apps/nrt-threads ran two models on
NeuronCores 0 and 1 from two threads through the stand-in libnrt.so.1.  They are given the
Chrome trace tprof-analyze wrote, the program's truth line (TRUTH: JSON, its first line: pid,
threads with their core, model, executions, tensors and own timing of each call, the calls
that failed on purpose) and the trace file the stand-in wrote of what it ran (STANDIN: one
JSON line per call); some also the summary, nrt_status.h, the host's name or what otf2-print
printed.  The NRT helpers are lib-nrt-analyze.py's."""
import collections
import importlib
import json
import re

from checklib import fail, main
import chrome_trace
from chrome_trace import backward, events, load, ns, procs, tracknames

nrt = importlib.import_module("lib-nrt-analyze")


class _Run:
    """The program's truth and the stand-in's executions, by thread."""

    def __init__(self, truth, standin):
        self.truth = json.loads(open(truth).readline())
        sn = [json.loads(line) for line in open(standin)]
        self.sn_exec = [x for x in sn if x["event"] == "exec" and x["pid"] == self.truth["pid"]]
        self.bytid = {t["tid"]: t for t in self.truth["threads"]}


def _tid_of(e):
    return int(re.search(r"\(tid (-?\d+)\)$", e["args"]["thread"]).group(1))


def _core_execs(d):
    return [e for e in nrt.core_spans(d) if e["args"]["call"].startswith("nrt_execute")]


def placement(trace, truth, standin):
    """Every execution of each thread on the nc track of its core, named by its model, with
    its tensors."""
    r = _Run(truth, standin)
    d = load(trace)
    names = tracknames(d)
    real = nrt.realpid(d)
    ex = [e for e in _core_execs(d) if _tid_of(e) in r.bytid]
    for tid, t in r.bytid.items():
        mine = [e for e in ex if _tid_of(e) == tid]
        if len(mine) != t["executions"]:
            fail("thread %d: %d executions on NeuronCore tracks, ran %d" %
                 (tid, len(mine), t["executions"]))
        for e in mine:
            track = names[(e["pid"], e["tid"])]
            if (real[e["pid"]] != r.truth["pid"] or track.split(" (")[0] != "nc %d" % t["nc"] or
                    e["args"]["nc"] != t["nc"]):
                fail("thread %d ran on nc %d; an execution is on %s: %s" %
                     (tid, t["nc"], track, e))
            a = e["args"]
            if e["name"] != t["model"] or a["model"] != t["model"] or a["status"] != "NRT_SUCCESS":
                fail("execution named %s (%s), model %s" % (e["name"], a["status"], t["model"]))
            if (a["input_bytes"], a["output_bytes"], a["input_tensors"], a["output_tensors"]) != \
               (t["in_bytes"], t["out_bytes"], t["in_tensors"], t["out_tensors"]):
                fail("execution args %s, truth %s" % (a, t))


def durations(trace, truth, standin):
    """Each execution lasts from the stand-in's own time for it to the program's timing of the
    call.  The hook is between the two: its span holds the stand-in's call and lies within the
    program's (a rounding of the clocks' conversion either side)."""
    r = _Run(truth, standin)
    d = load(trace)
    ex = _core_execs(d)
    worst = 0
    for tid in r.bytid:
        mine = sorted((e for e in ex if _tid_of(e) == tid), key=lambda e: e["ts"])
        ran = sorted((x for x in r.sn_exec if x["tid"] == tid), key=lambda x: x["entry_ns"])
        timed = r.bytid[tid]["spans_ns"]
        if not len(mine) == len(ran) == len(timed):
            fail("thread %d: %d spans, the stand-in ran %d, the program timed %d" %
                 (tid, len(mine), len(ran), len(timed)))
        for e, x, app in zip(mine, ran, timed):
            real = x["return_ns"] - x["entry_ns"]
            got = ns(e["dur"])
            slack = 20000 + 0.002 * real
            if not real - slack <= got <= app + slack:
                fail("thread %d: span %d ns; the stand-in took %d ns, the program timed %d ns" %
                     (tid, got, real, app))
            worst = max(worst, abs(got - real) / real)
    print("# worst difference from the stand-in's own time %.3f%%" % (100 * worst))


def calls_and_flows(trace, truth, standin):
    """Each span on a core is its call's, which stays on its thread, with a flow; no track
    overlaps."""
    d = load(trace)
    names = tracknames(d)
    calls = {(e["pid"], e["tid"], e["ts"], e["dur"]): e for e in events(d)
             if e["ph"] == "X" and e.get("cat") == "nrt"}
    s = {e["id"]: e for e in events(d) if e["ph"] == "s" and e["name"] == "nrt"}
    f = {e["id"]: e for e in events(d) if e["ph"] == "f" and e["name"] == "nrt"}
    spans = nrt.core_spans(d)
    if len(s) != len(spans) or set(s) != set(f):
        fail("%d flows for %d spans on NeuronCores" % (len(s), len(spans)))
    for e in spans:
        twin = [c for c in calls.values() if c["name"] == e["args"]["call"] and
                c["ts"] == e["ts"] and c["dur"] == e["dur"]]
        if len(twin) != 1 or names[(twin[0]["pid"], twin[0]["tid"])].startswith("nc "):
            fail("no call on a thread for %s" % e)
    if nrt.overlaps(d):
        fail(nrt.overlaps(d))


def failures(trace, truth, standin, summary, status_h):
    """The calls that failed on purpose carry their NRT_STATUS names (as nrt_status.h names
    them), the failed execution is marked, the summary counts them."""
    r = _Run(truth, standin)
    d = load(trace)
    text = open(summary).read()
    status = dict((int(v), k) for k, v in
                  re.findall(r"^\s*(NRT_\w+) = (\d+),", open(status_h).read(), re.M))
    calls = [e for e in events(d) if e["ph"] == "X" and e.get("cat") == "nrt"]
    for err in r.truth["errors"]:
        name = status[err["status"]]
        hit = [e for e in calls if e["name"] == err["call"] and
               e["args"].get("status") == name and e["args"].get("failed") is True]
        if not hit:
            fail("no failed %s with status %s" % (err["call"], name))
        if not re.search(r"\n +1  %s +%s\n" % (name, err["call"]), text):
            fail("the summary has no row for %s %s" % (err["call"], name))
    bad = [e for e in _core_execs(d) if e["args"].get("failed")]
    if len(bad) != 1 or bad[0].get("cname") != "terrible" or \
            bad[0]["args"]["status"] != status[1002]:
        fail("failed executions on cores: %s" % bad)


def model_table(trace, summary):
    """The NRT models table equals its recomputation from the Chrome trace."""
    err = nrt.model_table_errors(load(trace), open(summary).read())
    if err:
        fail(err)


def cores_table(trace, truth, standin, summary):
    """The NeuronCores table: each core's executions and busy share."""
    r = _Run(truth, standin)
    d = load(trace)
    text = open(summary).read()
    cov = re.search(r"\nNeuronCores: busy share of the covered time \(([\d.]+ \w+)\)\n(.*?)\n\n",
                    text, re.S)
    covered = nrt.dur_of(cov.group(1))
    rows = cov.group(2).splitlines()[1:]
    for t in r.truth["threads"]:
        ex = sorted((e for e in _core_execs(d) if e["args"]["nc"] == t["nc"]),
                    key=lambda e: e["ts"])
        busy = sum(ns(e["dur"]) for e in ex)   # one execution at a time on a core
        mine = r"  nc %d of .*pid %d\)" % (t["nc"], r.truth["pid"])
        row = [x for x in rows if re.search(mine, x)]
        m = re.match(r"\s*([\d.]+) % +([\d.]+ \w+) +(\d+)  nc", row[0]) if len(row) == 1 else None
        if not m or int(m.group(3)) != len(ex) or \
                abs(nrt.dur_of(m.group(2)) - busy) > 0.0005 * busy + 1 or \
                abs(float(m.group(1)) - 100.0 * busy / covered) > 0.051:
            fail("nc %d: %s; want %d executions, busy %d ns of %d" %
                 (t["nc"], row, len(ex), busy, covered))


def no_overlap(trace):
    """No two spans on one NeuronCore track overlap; no arrow ends before it starts."""
    d = load(trace)
    bad = chrome_trace.overlaps(d) + backward(d)
    if bad:
        fail("\n".join(bad[:10]))


def by_neuroncore(trace, truth, standin):
    """--group-by neuroncore: groups nc 0 and nc 1, the process a track in each, its threads
    with it."""
    r = _Run(truth, standin)
    d = load(trace)
    groups = nrt.groupnames(d)
    names = tracknames(d)
    cores = {p: n for p, n in groups.items() if re.match(r"nc \d+$", n)}
    if sorted(cores.values()) != ["nc 0", "nc 1"]:
        fail("core groups %s" % groups)
    me = [n for p, (n, real) in procs(d).items() if real == r.truth["pid"]][0]
    for t in r.truth["threads"]:
        g = [p for p, n in cores.items() if n == "nc %d" % t["nc"]][0]
        tracks = {n for (p, tid), n in names.items() if p == g}
        if tracks != {me}:
            fail("tracks of nc %d: %s, want %s" % (t["nc"], tracks, me))
        ex = [e for e in _core_execs(d) if e["pid"] == g]
        if len(ex) < t["executions"] or \
                any(e["name"] != t["model"] for e in ex if not e["args"].get("failed")):
            fail("nc %d holds %s" % (t["nc"], sorted({e["name"] for e in ex})))
    for tid in r.bytid:
        if not any(p not in cores and t == tid for (p, t) in names):
            fail("thread %d not with its process" % tid)


def by_instance(trace, truth, standin, host):
    """--group-by instance: the host's group, named with its instance family, holds the
    process's threads and NeuronCores."""
    r = _Run(truth, standin)
    d = load(trace)
    groups = nrt.groupnames(d)
    names = tracknames(d)
    hg = [p for p, n in groups.items() if n == host + " (trn2)"]
    if len(hg) != 1:
        fail("no group for host %s: %s" % (host, groups))
    me = [n for p, (n, real) in procs(d).items() if real == r.truth["pid"]][0]
    tracks = sorted(n for (p, t), n in names.items() if p == hg[0])
    want = {"%s: nc 0" % me, "%s: nc 1" % me}
    if not want <= set(tracks) or sum(1 for n in tracks if n.startswith(me + ": ")) < 4:
        fail("tracks of %s: %s" % (groups[hg[0]], tracks))
    if any(e["pid"] != hg[0] for e in events(d)
           if e["ph"] == "X" and e.get("cat") in ("nrt", "neuroncore")):
        fail("NRT spans outside the host group")


def otf2(defs, printed, truth):
    """OTF2: each thread's executions on its NeuronCore's location, named by model (defs and
    printed: what otf2-print -G and otf2-print printed)."""
    defs = open(defs).read()
    truth = json.loads(open(truth).readline())
    locs = {int(m.group(1)): m.group(2) for m in re.finditer(
        r'^LOCATION +(\d+) +Name: "(?:pid \d+(?: on [^:"]*)?: )?([^"]*)" <\d+>, '
        r'Type: ACCELERATOR_STREAM', defs, re.M)}
    enters = collections.Counter()
    for line in open(printed):
        m = re.match(r'ENTER +(\d+) +\d+ +Region: "([^"]*)"', line)
        if m and int(m.group(1)) in locs:
            enters[(locs[int(m.group(1))], m.group(2))] += 1
    for t in truth["threads"]:
        if enters[("nc %d" % t["nc"], t["model"])] < t["executions"]:
            fail("OTF2: %d executions of %s on nc %d, want %d: %s" %
                 (enters[("nc %d" % t["nc"], t["model"])], t["model"], t["nc"],
                  t["executions"], dict(enters)))


main(globals())
