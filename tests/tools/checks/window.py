"""window.py — the checks of func/t-window.sh on the Chrome traces of ten steps of known shape
(apps/steps.c): the full trace (FULL), those of windows (GOT, against what window_check works
out from FULL) and the summaries of windows (text)."""
import collections
import re

from checklib import fail, main
from chrome_trace import events, load, ns
from window_check import EVENTS, compare, step_bounds


def full_trace(full):
    """The full trace holds steps 0-9 and every range, mark and counter sample, none
    flagged."""
    d = load(full)
    ev = events(d)
    steps = sorted(e["args"]["step"] for e in ev if e.get("cat") == "step")
    c = collections.Counter((e["ph"], e["name"]) for e in ev if e.get("cat") != "step")
    want = collections.Counter({("X", "cross-a"): 1, ("X", "cross-b"): 1, ("C", "c"): 10})
    for s in range(10):
        want.update([("X", "r %d" % s), ("i", "m %d" % s), ("i", "late %d" % s)])
    flagged = [e for e in ev
               if e.get("args", {}).get("clipped") or e.get("args", {}).get("unfinished")]
    if steps != list(range(10)) or c != want or flagged:
        fail("steps %s, events %s, flagged %s" % (steps, dict(c), flagged))


def valid_json(full, got):
    """The windowed Chrome trace is valid JSON."""
    load(got)


def steps_events(full, got, first, last):
    """Exactly the ranges, marks and counter samples of steps FIRST to LAST."""
    full, got = load(full), load(got)
    S, E = step_bounds(full, int(first), int(last))
    compare(full, got, S, E, EVENTS)


def steps_steps(full, got, first, last):
    """The step track holds steps FIRST to LAST, whole, and nothing of the others."""
    full, got = load(full), load(got)
    S, E = step_bounds(full, int(first), int(last))
    compare(full, got, S, E, ("step",))


def steps_all(full, got, first, last):
    """Exactly steps FIRST to LAST and what lies in them."""
    full, got = load(full), load(got)
    S, E = step_bounds(full, int(first), int(last))
    compare(full, got, S, E, EVENTS + ("step",))


def summary_ranges(summary):
    """--steps 3:5: the summary names the window and lists exactly its five ranges."""
    s = open(summary).read()
    if not re.search(r"^  window: +steps 3 to 5: \+[0-9.]+ ms to \+[0-9.]+ ms", s, re.M):
        fail("no window line:\n" + s)
    ranges = s.split("\nRanges\n")[1].split("\n\n")[0].split("\n")[1:]
    names = sorted(l.split("  ")[-1] for l in ranges)
    if names != ["cross-a", "cross-b", "r 3", "r 4", "r 5"]:
        fail("Ranges rows: %s" % names)


def summary_counts(summary):
    """--steps 3:5: the summary counts 3 steps and 17 events (5 ranges, 6 marks, 3 samples,
    3 steps)."""
    s = open(summary).read()
    m = re.search(r"\nSteps\n.*\n +(\d+) ", s)
    e = re.search(r"events: ([\d,]+)", s)
    if not m or m.group(1) != "3" or not e or e.group(1) != "17":
        fail("steps row %s, events %s:\n%s" % (m and m.group(1), e and e.group(1), s))


def print_middles(full):
    """Prints the middles of "r 2" and "r 6" in microseconds (with three decimals): the
    bounds of a --start/--end window."""
    d = load(full)
    r = {e["name"]: e for e in events(d) if e["ph"] == "X"}

    def mid(e):
        return ns(e["ts"]) + ns(e["dur"]) // 2
    print("%d.%03d %d.%03d" % (mid(r["r 2"]) // 1000, mid(r["r 2"]) % 1000,
                               mid(r["r 6"]) // 1000, mid(r["r 6"]) % 1000))


def start_end(full, got, start_us, end_us):
    """--start/--end in microseconds: exactly the expected events, clipped at the bounds."""
    full, got = load(full), load(got)
    S, E = ns(float(start_us)), ns(float(end_us))
    compare(full, got, S, E, EVENTS + ("step",))


def open_range(trace):
    """A range open at exit is in the trace once, flagged unfinished:true, and nothing else
    is."""
    d = load(trace)
    tail = [e for e in events(d) if e["name"] == "tail"]
    others = [e for e in events(d) if e["name"] != "tail" and e.get("args", {}).get("unfinished")]
    if len(tail) != 1 or tail[0]["args"].get("unfinished") is not True or others:
        fail("tail: %s; other unfinished: %s" % (tail, others))


main(globals())
