"""python-api.py — the checks of func/t-python-api.sh on apps/python-api.py, and the two small
programs it runs with libtprof.so (global-library, through-ctypes), run by Debian's python3
too.  The files: the facts the program wrote (JSON), its output, the directories it ran in,
the --summary=json and the Chrome trace tprof-analyze made of its profile."""
import ctypes
import json
import os

from checklib import fail, main
from chrome_trace import events, load, ns


def plain_facts(facts, rundir, stderr):
    """Without the profiler: tprof.enabled() is False, import tprof loaded no torch, nothing
    was written (in the directory it ran in or on stderr)."""
    f = json.load(open(facts))
    if f["enabled"] is not False or f["torch_loaded"] is not False:
        fail("facts %s" % f)
    if os.listdir(rundir):
        fail("files %s" % os.listdir(rundir))
    if open(stderr).read():
        fail("stderr: %s" % open(stderr).read())


def recorded_facts(facts, pydir):
    """Under tprof-inspect: tprof.enabled() is True; tprof came from PYDIR, put first on
    PYTHONPATH."""
    f = json.load(open(facts))
    if f["enabled"] is not True or f["torch_loaded"] is not False:
        fail("facts %s" % f)
    if f["pythonpath"] != pydir + ":/user/entry":
        fail("PYTHONPATH %s" % f["pythonpath"])
    if f["module"] != os.path.join(pydir, "tprof", "__init__.py"):
        fail("module %s" % f["module"])


def summary_calls(summary):
    """The summary has every range, mark and step, each as often as it was called (no step -1,
    none of the calls that raised)."""
    d = json.load(open(summary))
    ranges = {r["name"]: r["calls"] for r in d["ranges"]["rows"]}
    want = {"step body": 4, "Model.forward": 4, "matmul": 4, "loss": 4, "update": 4,
            "failing": 1, "inside failing": 1, "after failure": 1, "worker outer": 3,
            "worker inner": 3}
    if ranges != want:
        fail("ranges %s" % ranges)
    marks = {r["name"]: r["count"] for r in d["marks"]["rows"]}
    want = {"after forward": 4, "closing": 1, "worker mark": 3, "bytes name": 1,
            "unicode \u00e9\u4e2d": 1, "12": 1, "steps over": 1}
    if marks != want:
        fail("marks %s" % marks)
    s = d["steps"]
    if s is None or s["count"] != 4 or sorted(x["step"] for x in s["slowest"]) != [0, 1, 2, 3]:
        fail("steps %s" % s)
    if d["header"]["unfinished"] != 0 or d["header"]["skipped"]["unmatched_pops"] != 0:
        fail("header %s" % d["header"])


def summary_counters(summary):
    """Counter values: loss 0, 1.5, 3, 4.5 then 0.25 (not None or "2"); the worker's 7."""
    rows = {r["name"]: r for r in json.load(open(summary))["counters"]["rows"]}
    loss, w = rows.get("loss"), rows.get("worker counter")
    if not loss or (loss["samples"], loss["min"], loss["max"], loss["last"]) != (5, 0, 4.5, 0.25):
        fail("loss %s" % loss)
    if not w or (w["samples"], w["last"]) != (1, 7):
        fail("worker counter %s" % w)


def nested_ranges(trace, facts):
    """Each thread's ranges are on its own track, nested as the program opened them."""
    f = json.load(open(facts))
    ev = events(load(trace))
    ranges = [e for e in ev if e["ph"] == "X" and e.get("cat") == "range"]
    tids = {e["name"]: e["tid"] for e in ranges}
    for n, t in tids.items():
        want = f["worker_tid"] if n.startswith("worker") else f["main_tid"]
        if t != want:
            fail("range %s on tid %s, want %s" % (n, t, want))

    def spans(name):
        return sorted((ns(e["ts"]), ns(e["ts"]) + ns(e["dur"])) for e in ranges
                      if e["name"] == name)

    def inside(inner, outer):
        return all(any(a <= c and d <= b for a, b in spans(outer)) for c, d in spans(inner))

    for inner, outer in (("matmul", "Model.forward"), ("Model.forward", "step body"),
                         ("loss", "step body"), ("inside failing", "failing"),
                         ("worker inner", "worker outer")):
        if not inside(inner, outer):
            fail("%s not inside %s" % (inner, outer))
    for name, outer in (("update", "step body"), ("loss", "Model.forward"),
                        ("after failure", "failing")):
        if inside(name, outer):
            fail("%s inside %s" % (name, outer))
    (fa, fb), = spans("failing")
    (aa, ab), = spans("after failure")
    if aa < fb:
        fail("after failure starts at %d, before failing ends at %d" % (aa, fb))


def marks_steps_counters(trace, facts):
    """Marks on their threads, inside their ranges; steps 0 to 3 in order, the last ended by
    step_end(); counter values in order."""
    f = json.load(open(facts))
    ev = events(load(trace))
    marks = [e for e in ev if e["ph"] == "i"]
    for e in marks:
        want = f["worker_tid"] if e["name"] == "worker mark" else f["main_tid"]
        if e["tid"] != want:
            fail("mark %s on tid %s" % (e["name"], e["tid"]))
    body = [(ns(e["ts"]), ns(e["ts"]) + ns(e["dur"])) for e in ev if e.get("name") == "step body"]
    for e in marks:
        if e["name"] == "after forward" and not any(a <= ns(e["ts"]) <= b for a, b in body):
            fail("after forward at %s outside the step bodies" % e["ts"])
    steps = sorted((e["ts"], e["args"]["step"]) for e in ev if e.get("cat") == "step")
    if [s for _, s in steps] != [0, 1, 2, 3]:
        fail("steps %s" % steps)
    last = [e for e in ev if e.get("cat") == "step" and e["args"]["step"] == 3][0]
    over = [e for e in marks if e["name"] == "steps over"][0]
    if ns(last["ts"]) + ns(last["dur"]) > ns(over["ts"]):
        fail("step 3 ends at %s, after the mark that follows tprof.step_end() (%s)" %
             (last["ts"] + last["dur"], over["ts"]))
    loss = [e["args"]["value"] for e in sorted(ev, key=lambda e: e["ts"])
            if e["ph"] == "C" and e["name"] == "loss"]
    if loss != [0, 1.5, 3, 4.5, 0.25]:
        fail("loss %s" % loss)


def disabled_run(facts, plain_out, out, rundir):
    """With TPROF_ENABLE=0 and the recorder preloaded: it prints the same, tprof.enabled() is
    False and nothing is recorded."""
    if json.load(open(facts))["enabled"] is not False:
        fail("enabled")
    if open(plain_out).read() != open(out).read():
        fail("output differs")
    if os.listdir(rundir):
        fail("files %s" % os.listdir(rundir))


def global_library(libtprof):
    """A program, not a check: loads libtprof.so (LIBTPROF) into the global scope before
    import tprof, prints tprof.enabled(), and marks once through tprof and once through the
    library's own handle."""
    ctypes.CDLL(libtprof, mode=ctypes.RTLD_GLOBAL)
    import tprof
    print(tprof.enabled())
    tprof.mark("through tprof")
    ctypes.CDLL(libtprof).tprof_mark(b"through the libtprof handle")


def both_marks(summary):
    """tprof's calls reach the recorder, and so does a call through libtprof.so's own handle."""
    marks = {r["name"]: r["count"] for r in json.load(open(summary))["marks"]["rows"]}
    if marks != {"through tprof": 1, "through the libtprof handle": 1}:
        fail("marks %s" % marks)


def through_ctypes(libtprof):
    """A program, not a check: ctypes.CDLL("libtprof.so"), the natural route without the
    module: libtprof hands every call to the recorder, the step end too.  Prints what
    tprof_range_push and tprof_range_pop return."""
    lib = ctypes.CDLL(libtprof)
    lib.tprof_step.argtypes = [ctypes.c_uint64]
    lib.tprof_counter.argtypes = [ctypes.c_char_p, ctypes.c_double]
    lib.tprof_step(7)
    print(lib.tprof_range_push(b"ctypes range"))
    lib.tprof_mark(b"ctypes mark")
    lib.tprof_counter(b"ctypes counter", 2.5)
    print(lib.tprof_range_pop())
    lib.tprof_step_end()
    lib.tprof_mark(b"after the step")


def ctypes_trace(trace, printed):
    """ctypes.CDLL(libtprof.so) under the recorder: range (level 0), mark, counter, step 7
    ended by tprof_step_end (PRINTED: what through-ctypes printed, on one line)."""
    ev = events(load(trace))
    got = {(e.get("cat"), e["name"]) for e in ev if e["ph"] in ("X", "i", "C")}
    want = {("range", "ctypes range"), ("mark", "ctypes mark"), ("step", "step 7")}
    step = [e for e in ev if e.get("cat") == "step"]
    after = [e for e in ev if e["name"] == "after the step"]
    if (printed != "0 0" or not want <= got or not any(e["ph"] == "C" for e in ev) or
            len(step) != 1 or not after or
            ns(step[0]["ts"]) + ns(step[0]["dur"]) > ns(after[0]["ts"])):
        fail("printed %r; %s" % (printed, sorted(got)))


main(globals())
