"""python-torch.py — the checks of func/t-python-torch.sh on what apps/python-torch.py did:
its facts (a JSON file: host, pid, the loop's thread, the steps, the paths of the traces it
was told of, ...), the PyTorch trace tprof.torch wrote, and tprof-analyze's summaries and
Chrome trace of the profile.  schedule-cycles runs PyTorch itself (Debian's python3, with
tprof.torch found through PYTHONPATH)."""
import collections
import json
import os
import socket
import subprocess
import sys

from checklib import fail, main
from chrome_trace import events, load, ns


def _json(path):
    with open(path) as f:
        return json.load(f)


def print_trace_path(facts, outdir):
    """Prints the trace's path, named as tprof.torch names it: OUTDIR/<host>.<pid>.pt.trace.json."""
    f = _json(facts)
    print("%s/%s.%d.pt.trace.json" % (outdir, f["host"].replace("/", "_"), f["pid"]))


def trace_alone(facts, outdir, trace, cwd):
    """The trace is in the profile directory as <host>.<pid>.pt.trace.json, and nothing else
    is (nothing in the current directory either)."""
    f = _json(facts)
    files = sorted(os.listdir(outdir))
    others = [n for n in files if not n.endswith(".tpf") and n != os.path.basename(trace)]
    if f["paths"] != [trace] or not os.path.isfile(trace) or others:
        fail("paths %s; files %s" % (f["paths"], files))
    if not f["enabled"] or os.listdir(cwd):
        fail("enabled %s; cwd %s" % (f["enabled"], os.listdir(cwd)))


def tprof_key(facts, trace):
    """One JSON object: "tprof" (host, pid, the loop's tid, source, torch, base_us, threads),
    traceEvents."""
    f = _json(facts)
    d = _json(trace)
    if list(d) != ["tprof", "traceEvents"]:
        fail("keys %s" % list(d))
    t = d["tprof"]
    want = {"host": f["host"], "pid": f["pid"], "tid": f["main_tid"],
            "source": "torch.profiler", "torch": f["torch"]}
    if {k: t.get(k) for k in want} != want:
        fail("tprof %s, want %s" % (t, want))
    if not isinstance(t.get("base_us"), int) or t["threads"].get("1") != f["main_tid"]:
        fail("tprof %s" % t)


def profiler_steps(facts, trace):
    """ProfilerStep#0 to #6, once each, in order, on the loop's thread."""
    f = _json(facts)
    ev = _json(trace)["traceEvents"]
    steps = sorted((e["ts"], e["name"], e["pid"], e["tid"]) for e in ev
                   if e["name"].startswith("ProfilerStep#"))
    names = [s[1] for s in steps]
    if names != ["ProfilerStep#%d" % n for n in range(f["steps"] + 1)]:
        fail("steps %s" % names)
    if any((p, t) != (f["pid"], f["main_tid"]) for _, _, p, t in steps):
        fail("steps on %s" % steps)


def pids_tids(facts, trace):
    """Events have the process id; the loop thread its native tid, the inter-op thread minus
    its number."""
    f = _json(facts)
    d = _json(trace)
    ev, threads = d["traceEvents"], d["tprof"]["threads"]
    if any(e["pid"] != f["pid"] for e in ev):
        fail("pids %s" % {e["pid"] for e in ev})
    tids = collections.Counter(e["tid"] for e in ev)
    if set(tids) != set(threads.values()):
        fail("tids %s, threads %s" % (dict(tids), threads))
    other = [t for t in tids if t != f["main_tid"]]
    if not other or any(int(k) != -v for k, v in threads.items() if v != f["main_tid"]):
        fail("no event of another thread, or not minus its number: %s %s" % (dict(tids), threads))
    mm = {e["tid"] for e in ev if e["name"] == "aten::mm"}
    if not mm & set(other):
        fail("aten::mm (the forks) on %s only" % mm)


def odd_name(facts, trace):
    """The record_function named with a quote, a backslash and a tab is there once a step."""
    f = _json(facts)
    ev = _json(trace)["traceEvents"]
    n = sum(e["name"] == f["odd_name"] for e in ev)
    if n != f["steps"]:
        fail("%d events named %r" % (n, f["odd_name"]))


def merged(summary_json, trace, summary_text, compare):
    """One process, its PyTorch trace merged into it (not counted as one more); the text
    summary and the JSON one agree (COMPARE: tools/summary-compare.py)."""
    h = _json(summary_json)["header"]
    p = h["process_list"]
    if (h["processes"] != 1 or len(p) != 1 or p[0]["index"] != 1 or
            p[0]["imported"] != [{"file": os.path.basename(trace)}]):
        fail("processes %d: %s" % (h["processes"],
                                   [(x["index"], x["label"], x["imported"]) for x in p]))
    if "[with %s imported]" % os.path.basename(trace) not in open(summary_text).read():
        fail("the text does not say it")
    subprocess.check_call([sys.executable, compare, summary_text, summary_json])


def dated_alone(summary_json, trace, stderr):
    """The PyTorch trace alone: on the date its base_us gives, and said to be placed by it."""
    h = _json(summary_json)["header"]
    base = _json(trace)["tprof"]["base_us"] * 1000
    if (not h["dated"] or abs(h["trace_start_unix_ns"] - base) > 60e9 or
            "placed by the realtime its writer gave (tprof.base_us)" not in open(stderr).read()):
        fail("starts %s (%s), base_us %d; %s" % (h["trace_start_utc"], h["dated"], base,
                                                 open(stderr).read()))


def tprof_steps(summary_json):
    """tprof's steps 0 to 6 are in the profile."""
    s = _json(summary_json)["steps"]
    if s is None or s["count"] != 7 or sorted(x["step"] for x in s["slowest"]) != list(range(7)):
        fail("steps %s" % s)


def steps_together(chrome_path, trace_path):
    """The helper begins ProfilerStep#N right before tprof.step(N); a busy machine may
    preempt the thread in between, which delays a step of tprof's by a time slice.  PyTorch's
    trace is dated by its trace_start_us, read apart from the base of its timestamps: a
    preemption between the two moves the whole of it by a time slice (seen: every step 9 to
    11 ms late).  So the clocks' agreement is judged on the median step, within 30 ms (a time
    slice or two, where a wrong date would be off by seconds), and every ProfilerStep#N must
    lie before tprof's step N+1 begins (steps last 20 ms)."""
    chrome, trace = load(chrome_path), load(trace_path)
    base = chrome["otherData"]["trace_start_realtime_ns"]
    tp = {e["args"]["step"]: base + ns(e["ts"]) for e in events(chrome) if e.get("cat") == "step"}
    pt = {int(e["name"][13:]): trace["tprof"]["base_us"] * 1000 + ns(e["ts"])
          for e in trace["traceEvents"] if e["name"].startswith("ProfilerStep#")}
    if sorted(tp) != sorted(pt):
        fail("steps %s and %s" % (sorted(tp), sorted(pt)))
    off = {n: (pt[n] - tp[n]) / 1e6 for n in tp}
    mid = sorted(off.values())[len(off) // 2]
    late = [n for n in tp if n + 1 in tp and pt[n] >= tp[n + 1]]
    if abs(mid) > 30 or late:
        fail("ProfilerStep#N - step N, ms: %s; after step N+1: %s" % (off, late))
    print("# ProfilerStep#N - step N, ms: %s" % {n: round(v, 3) for n, v in off.items()})


def last_step_end(chrome_path):
    """tprof's last step ends when profiling stops (before the mark made after it), not at
    the exit."""
    ev = events(load(chrome_path))
    last = max((e for e in ev if e.get("cat") == "step"), key=lambda e: e["args"]["step"])
    mark = [e for e in ev if e["name"] == "profiling stopped"]
    if len(mark) != 1 or ns(last["ts"]) + ns(last["dur"]) > ns(mark[0]["ts"]):
        fail("step %d ends at %s; the mark %s" % (last["args"]["step"], last["ts"] + last["dur"],
                                                [e["ts"] for e in mark]))


def plain_cwd(facts, cwd):
    """Without the profiler the trace lands in the current directory, in the same form;
    tprof.enabled() is False."""
    f = _json(facts)
    want = os.path.join(cwd, "%s.%d.pt.trace.json" % (f["host"].replace("/", "_"), f["pid"]))
    if f["enabled"] or f["paths"] != [want] or os.listdir(cwd) != [os.path.basename(want)]:
        fail("facts %s; files %s" % (f, os.listdir(cwd)))
    d = _json(want)
    if d["tprof"]["pid"] != f["pid"] or d["tprof"]["tid"] != f["main_tid"]:
        fail("tprof %s" % d["tprof"])
    if sum(e["name"].startswith("ProfilerStep#") for e in d["traceEvents"]) != 7:
        fail("steps")


def given_dir(facts, where):
    """Or in the directory given, created if missing."""
    f = _json(facts)
    if (len(f["paths"]) != 1 or os.path.dirname(f["paths"][0]) != where or
            not os.path.isfile(f["paths"][0])):
        fail("paths %s" % f["paths"])


def schedule_cycles(outdir):
    """A schedule of two cycles: traces <host>.<pid> and <host>.<pid>.2 in OUTDIR, with the
    steps each recorded (run by the python3 that has torch)."""
    import torch
    import tprof.torch
    seen = []
    sched = torch.profiler.schedule(wait=1, warmup=1, active=2, repeat=2)
    model = torch.nn.Linear(4, 2)

    def ready(p):
        seen.append(p.step_num)
    with tprof.torch.profile(outdir, schedule=sched, on_trace_ready=ready) as prof:
        for i in range(10):
            model(torch.ones(2, 4))
            prof.step()
    stem = os.path.join(outdir, "%s.%d" % (socket.gethostname().replace("/", "_"), os.getpid()))
    want = [stem + ".pt.trace.json", stem + ".2.pt.trace.json"]
    if (prof.paths != want or
            sorted(os.listdir(outdir)) != sorted(os.path.basename(p) for p in want)):
        fail("paths %s, files %s" % (prof.paths, os.listdir(outdir)))
    steps = [sorted(e["name"] for e in _json(p)["traceEvents"]
                    if e["name"].startswith("ProfilerStep#")) for p in want]
    if (steps != [["ProfilerStep#2", "ProfilerStep#3"], ["ProfilerStep#6", "ProfilerStep#7"]] or
            seen != [4, 8]):
        fail("steps %s, on_trace_ready at %s" % (steps, seen))


main(globals())
