"""standin-nrt.py — the checks of stand-ins/tests/t-nrt.sh on the trace file the stand-in
libnrt.so.1 wrote while test-nrt ran (the per-process files put together: a JSON object a
line, its loads and executions)."""
import collections
import json

from checklib import fail, main


class _Trace:
    """loads: {model: its load line}; ex: the executions in the order they were called (the
    files come in the order of their pids' digits, and a forked child's pid can be the lower
    one: pids wrap); by: {model: its executions in that order}."""

    def __init__(self, path):
        lines = [json.loads(line) for line in open(path)]
        self.loads = {x["model"]: x for x in lines if x["event"] == "load"}
        self.ex = sorted((x for x in lines if x["event"] == "exec"),
                         key=lambda x: x.get("entry_ns", 0))
        self.by = collections.defaultdict(list)
        for e in self.ex:
            self.by[e["model"]].append(e)


def executions(path):
    """Every line is JSON; executions name their model, core and times."""
    t = _Trace(path)
    for e in t.ex:
        for k in ("model", "nc", "core", "entry_ns", "start_ns", "end_ns", "return_ns",
                  "status", "ran", "tid"):
            if k not in e:
                fail("no %s in %s" % (k, e))
    ran = [e for e in t.ex if e["ran"]]
    if len(ran) < 10:
        fail("%d executions ran" % len(ran))
    for e in ran:
        if not e["entry_ns"] <= e["start_ns"] < e["end_ns"] <= e["return_ns"]:
            fail("times %s" % e)
    a = t.by["alpha"]
    # missing input, no output set, one execution, one repeated x3, the forked child's execution
    if ([e["status"] for e in a] != [1002, 2, 0, 0, 0] or
            [e["ran"] for e in a] != [False, False, True, True, True]):
        fail("alpha statuses %s" % [e["status"] for e in a])
    if [e["status"] for e in t.by["nan"]] != [1003]:
        fail("nan statuses %s" % t.by["nan"])
    if a[0]["nc"] != 0 or a[0]["core"] != 1:
        fail("alpha on vnc %d core %d, want 0 and 1" % (a[0]["nc"], a[0]["core"]))


def run_times(path):
    """Each execution lasts at least its model's run time (x the repeat count) from when it had
    its core.  Never shorter; longer only by what the host scheduler took (not checked: a
    loaded machine)."""
    t = _Trace(path)
    for e in t.ex:
        if not e["ran"]:
            continue
        want = t.loads[e["model"]]["exec_ns"] * e["repeat"]
        got = e["end_ns"] - e["start_ns"]
        if got < want:
            fail("%s ran %d ns, want %d" % (e["model"], got, want))
    if [e["repeat"] for e in t.by["alpha"] if e["ran"]][:2] != [1, 3]:
        fail("repeat counts")


def one_core(path):
    """Two threads on one NeuronCore never run at once."""
    t = _Trace(path)
    s = sorted(t.by["same0"] + t.by["same1"], key=lambda e: e["start_ns"])
    if len(s) != 6 or len({e["tid"] for e in s}) != 2:
        fail("%d executions" % len(s))
    for x, y in zip(s, s[1:]):
        if y["start_ns"] < x["end_ns"]:
            fail("overlap %s %s" % (x, y))


def two_cores(path):
    """Two threads on two NeuronCores run at once: an execution that comes in while another
    core is busy starts without waiting for it.  (If the scheduler kept one thread from even
    calling until the other had finished, there is nothing to see: said, not failed.)"""
    t = _Trace(path)
    p, q = sorted([t.by["par0"][0], t.by["par1"][0]], key=lambda e: e["entry_ns"])
    if sorted([p["core"], q["core"]]) != [2, 3]:
        fail("cores %d %d" % (p["core"], q["core"]))
    if q["entry_ns"] >= p["end_ns"]:
        print("# the second thread called only after the first had finished: overlap not seen")
    elif q["start_ns"] >= p["end_ns"]:
        fail("the second execution waited for the other core: %s %s" % (p, q))


main(globals())
