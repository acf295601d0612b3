"""import.py — the checks of func/t-import.sh on what tprof-analyze --import made: Chrome
traces (merged with a profile of apps/imp-writer or converted alone), JSON summaries, the
framework traces imp-writer wrote, and what pftrace.py and otf2-print said of the other
formats.  Two helpers write the inputs: a framework trace with one step moved late, and one
with args longer than a record holds."""
import collections
import json

from checklib import fail, main
from chrome_trace import events, load, ns, numbered, procs, tracknames


def merged(path, mode, tol):
    """The checks of one merged Chrome trace (mode: base, epoch or relative; tol in us):
    each imported slice lies where its twin does, on a framework track of the program's own
    process, ops inside their step."""
    tol = float(tol)
    d = load(path)
    ev = events(d)
    names = tracknames(d)
    pn = procs(d)
    steps = numbered(ev, "step ")
    ps = numbered(ev, "ProfilerStep#")
    ops = sorted((e for e in ev if e["ph"] == "X" and e["name"] == "aten::op"),
                 key=lambda e: e["ts"])
    rops = sorted((e for e in ev if e["ph"] == "X" and e["name"].startswith("op ")),
                  key=lambda e: e["ts"])
    bad = []
    if len(ps) != 6 or sorted(ps) != sorted(set(steps) - {7}):
        bad.append("ProfilerStep#N %s against tprof steps %s" % (sorted(ps), sorted(steps)))
    for n, e in ps.items():
        if n in steps and abs(e["ts"] - steps[n]["ts"]) > tol:
            bad.append("ProfilerStep#%d at %.3f us, step %d at %.3f us" %
                       (n, e["ts"], n, steps[n]["ts"]))
    if len(ops) != 18 or len(rops) != 18:
        bad.append("%d aten::op, %d op ranges" % (len(ops), len(rops)))
    for a, b in zip(ops, rops):
        if abs(a["ts"] - b["ts"]) > tol or abs(a["dur"] - b["dur"]) > tol:
            bad.append("aten::op at %.3f+%.3f, its range at %.3f+%.3f" %
                       (a["ts"], a["dur"], b["ts"], b["dur"]))
    tracks = {(e["pid"], e["tid"]) for e in list(ps.values()) + ops}
    rtrack = {(e["pid"], e["tid"]) for e in rops}
    if len(tracks) != 1 or len(rtrack) != 1:
        bad.append("imported on tracks %s, ranges on %s" % (tracks, rtrack))
    else:
        t, r = tracks.pop(), rtrack.pop()
        if t[0] != r[0]:
            bad.append("imported in process %s, the ranges in %s" % (pn.get(t[0]), pn.get(r[0])))
        if (not names.get(t, "").endswith(" framework") or
                names.get(t) != names.get(r) + " framework"):
            bad.append("imported track named %r, the thread %r" % (names.get(t), names.get(r)))
    for o in ops:
        if not any(s["ts"] <= o["ts"] and o["ts"] + o["dur"] <= s["ts"] + s["dur"]
                   for s in ps.values()):
            bad.append("aten::op at %.3f is in no ProfilerStep" % o["ts"])
            break
    if bad:
        fail("; ".join(bad[:6]))


def gpu_work(path, tol):
    """Kineto's GPU work (pid 0 "GPU 0", tid 7, args device 0 and stream 7) joins the recorded
    process's device track of GPU 0, and the ac2g flows end there."""
    d = load(path)
    e = events(d)
    names = tracknames(d)
    pnames = {p: label for p, (label, _) in procs(d).items()}
    k = [x for x in e if x["ph"] == "X" and x["name"].startswith("gpu op ")]
    where = {(x["pid"], x["tid"]) for x in k}
    f = [x for x in e if x["ph"] == "f" and x.get("cat") == "ac2g"]
    ops = sorted(x["ts"] + x["dur"] for x in e if x["ph"] == "X" and x["name"].startswith("op "))
    late = [round(b["ts"] - a, 3) for a, b in zip(ops, sorted(k, key=lambda x: x["ts"]))]
    bad = []
    if len(k) != 18 or len(where) != 1:
        bad.append("kernels %d on %s" % (len(k), where))
    else:
        pid, tid = next(iter(where))
        if (not pnames.get(pid, "").startswith("imp-writer") or
                names.get((pid, tid)) != "GPU 0 stream 1"):
            bad.append("kernels on %s of %s" % (names.get((pid, tid)), pnames.get(pid)))
        if len(f) != 18 or {(x["pid"], x["tid"]) for x in f} != where:
            bad.append("flow ends %s" % f[:2])
    if not bad and any(abs(lag - 10) > float(tol) for lag in late):
        bad.append("kernel starts after their ops: %s" % late)
    empty = [n for n in pnames.values() if "(imported from" in n]
    if empty:
        bad.append("imported processes named though nothing is drawn in them: %s" % empty)
    if bad:
        fail("; ".join(bad))


def make_late_step(path, out):
    """Writes to out the framework trace at path with ProfilerStep#3 4 ms later (a preempted
    thread's step that started late)."""
    d = json.load(open(path))
    ev = d["traceEvents"] if isinstance(d, dict) else d
    late = [e for e in ev if e.get("name") == "ProfilerStep#3"]
    if len(late) != 1:
        fail("ProfilerStep#3: %d" % len(late))
    late[0]["ts"] = float(late[0]["ts"]) + 4000
    json.dump(d, open(out, "w"))


def late_step_placement(a, b, most, tol):
    """The file stays where its other steps put it (a mean of the offsets would move it by
    4/6 ms): the median of the offsets moves by no more than their spread, the longest
    tprof_step call.  a, b: where the file was placed without and with the late step; most:
    the largest residual; all in us."""
    a, b, most, tol = (float(x) for x in (a, b, most, tol))
    if abs(a - b) >= tol:
        fail("placed at %.3f us, %.3f us without the late step (%.3f us allowed)" % (b, a, tol))
    if abs(most - 4000) >= 100 + tol:
        fail("the late step %.3f us off, want 4000 us within %.3f us" % (most, 100 + tol))


def offset_placement(path):
    """--import-offset 250: the first imported step starts 250 us into the profile."""
    e = events(load(path))
    first = min(x["ts"] for x in e if x["ph"] == "X" and x["name"].startswith("ProfilerStep#"))
    if not abs(first - 250) < 1:
        fail("first imported event at %.3f us" % first)


def framework_ops(summary, trace):
    """Durations are compared with those the file gives (imp-writer's ops spin for 300 us of
    wall time, which a busy machine can stretch): the op's total to 1 us each."""
    s = json.load(open(summary))
    f = json.load(open(trace))["traceEvents"]
    want = sum(e["dur"] for e in f if e.get("name") == "aten::op") * 1000
    rows = {r["name"]: r for r in s["framework_ops"]["rows"]}
    op = rows.get("aten::op")
    ok = (op and op["count"] == 18 and abs(op["self_ns"] - want) <= 18e3 and
          op["self_ns"] == op["total_ns"])
    ok = ok and not any(n.startswith("ProfilerStep#") for n in rows)
    names = [r["name"] for r in s["ranges"]["rows"]] if "ranges" in s else []
    if not (ok and "aten::op" not in names):
        fail("framework_ops %s (the file: %d ns); ranges %s" % (rows, want, names))


def imported_steps(summary, trace):
    """The Steps table's steps are the file's ProfilerStep#N, the median to 1 us."""
    s = json.load(open(summary))["steps"]
    d = sorted(e["dur"] * 1000 for e in json.load(open(trace))["traceEvents"]
               if e.get("name", "").startswith("ProfilerStep#"))
    if not (s and s["count"] == 6 == len(d) and abs(s["median_ns"] - d[3]) <= 1e3):
        fail("%s; steps in the file: %s" % (s, d))


def _window(path, steps, nops):
    """The trace holds the ProfilerStep#N named in steps (comma-separated) and nops ops."""
    e = [x for x in events(load(path)) if x["ph"] == "X"]
    got = sorted(x["name"] for x in e if x["name"].startswith("ProfilerStep#"))
    ops = [x for x in e if x["name"] == "aten::op"]
    if not (got == ["ProfilerStep#" + n for n in steps.split(",")] and len(ops) == nops):
        fail("%s, %d ops" % (got, len(ops)))


def steps_2_3(path):
    _window(path, "2,3", 6)


def steps_3_only(path):
    _window(path, "3", 2)


def every_phase_chrome(path):
    """5 slices (X, B..E), 2 instants, 4 counter samples, async b/e, flow s/f; args,
    categories and ns kept."""
    e = events(load(path))
    c = collections.Counter(x["ph"] for x in e)
    x = {x["name"]: x for x in e if x["ph"] == "X"}
    want = {"X": 5, "i": 2, "C": 4, "b": 1, "e": 1, "s": 1, "f": 1}
    bad = {k: (c.get(k, 0), v) for k, v in want.items() if c.get(k, 0) != v}
    if not bad and (x["step"]["args"] != {"n": 1, "s": "x", "f": 2.5, "b": True,
                                          "l": [1, "two", {"three": 3}]}
                    or x["step"]["cat"] != "user_annotation" or ns(x["step"]["dur"]) != 1000250
                    or ns(x["mm"]["ts"] - x["step"]["ts"]) != 99501 or x["inner"]["dur"] != 100):
        bad = {"step": x["step"], "mm": x["mm"]}
    if bad:
        fail("counts (got, want) or slices wrong: %s" % bad)


def every_phase_perfetto(path):
    """pftrace.py's counts: 6 slices (5 and the async range), 2 instants, 4 counter samples,
    1 flow."""
    s = json.load(open(path))
    if (s["slices"], s["instants"], s["counters"], s["flows"]) != (6, 2, 4, 1):
        fail(str(s))


def every_phase_otf2(path):
    """Slices and instants enter and leave (instants: a region of their own); counters are
    metrics; the async range is an enter and leave of its own location.  path: what
    otf2-print printed."""
    c = collections.Counter(ln.split()[0] for ln in open(path) if ln[:1].isupper() and ln.split())
    want = {"ENTER": 8, "LEAVE": 8, "METRIC": 4}
    if not all(c[k] == v for k, v in want.items()):
        fail(str(dict(c)))


def make_big_args(path):
    """Writes a framework trace whose first slice has args of 100 kB, longer than a record
    holds."""
    json.dump({"traceEvents": [
        {"ph": "X", "name": "big", "pid": 1, "tid": 1, "ts": 10, "dur": 5,
         "args": {"blob": "x" * 100000}},
        {"ph": "X", "name": "small", "pid": 1, "tid": 1, "ts": 20, "dur": 5, "args": {"n": 7}}]},
        open(path, "w"))


def big_args(path):
    """The slice is kept, its args said to be left out; the next event's args kept."""
    x = {e["name"]: e for e in events(load(path)) if e["ph"] == "X"}
    ok = (x["big"]["args"] == {"args": "left out: longer than a record holds"} and
          x["small"]["args"] == {"n": 7})
    if not ok:
        fail("%s %s" % (x["big"].get("args"), x["small"].get("args")))


main(globals())
