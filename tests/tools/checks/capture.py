"""capture.py — for func/t-capture.sh: the facts of a profile (one JSON line, from its JSON
summary and its Chrome trace), the checks of those facts (each given that line; a failed one
prints them), the check of the HIP copy in flight at hipProfilerStop, and the Python program
run under the recorder to pause itself with tprof.stop() and tprof.start()."""
import json

from checklib import fail, main


def _trace_events(path):
    """The events of a Chrome trace (an object or a bare array)."""
    ev = json.load(open(path))
    return ev["traceEvents"] if isinstance(ev, dict) else ev


def facts(summary, trace):
    """Prints what the profile holds, one JSON line: the capture windows (the summary's JSON),
    the steps, the events of each name (its Chrome trace), the pops without a push."""
    h = json.load(open(summary))["header"]
    c = h.get("capture") or {}
    steps, names = [], {}
    for e in _trace_events(trace):
        if e.get("ph") == "M":
            continue
        if e.get("cat") == "step":
            steps.append(e["args"]["step"])
        else:
            names[e["name"]] = names.get(e["name"], 0) + 1
    print(json.dumps({"windows": c.get("windows"), "opened": c.get("opened_by"),
                      "closed": c.get("closed_by"), "recorded": c.get("recorded_ns"),
                      "wall": h["wall_time_ns"], "steps": sorted(steps), "names": names,
                      "unmatched": h["skipped"].get("unmatched_pops", 0)}))


def _expect(text, ok):
    """Passes when ok is true of the facts (text, their JSON line), else fails with them."""
    if not ok(json.loads(text)):
        fail("facts: %s" % text)


def steps_3_5(text):
    """--steps 3:5 records steps 3, 4 and 5 alone, a range and a mark each, one window opened
    and closed by --steps."""
    _expect(text, lambda f: f["steps"] == [3, 4, 5] and f["names"].get("work") == 3 and
            f["names"].get("tick") == 3 and "outer" not in f["names"] and f["windows"] == 1 and
            f["opened"] == "--steps" and f["closed"] == "--steps" and
            f["recorded"] < f["wall"] and f["unmatched"] == 0)


def delay_duration(text):
    """One window opened by --delay, closed by --duration, some of the 30 steps in it, in a
    row, not all."""
    _expect(text, lambda f: f["windows"] == 1 and f["opened"] == "--delay" and
            f["closed"] == "--duration" and 0 < len(f["steps"]) < 30 and
            f["steps"] == list(range(f["steps"][0], f["steps"][-1] + 1)) and
            "outer" not in f["names"])


def capture_signal(text):
    """Both processes record from the first signal to the second: steps from 5 on, 13 at
    most, a tick with each step but where a signal fell between the two: the window may
    open after a process's step and before its tick, or close between them (one each, each
    edge, each process)."""
    _expect(text, lambda f: f["opened"] == "the capture signal" and
            f["closed"] == "the capture signal" and len(f["steps"]) >= 2 and
            min(f["steps"]) >= 5 and max(f["steps"]) <= 13 and
            abs(f["names"].get("tick", 0) - len(f["steps"])) <= 2)


def stop_start(text):
    """Steps 0-2 and 6-9 recorded, the range begun inside kept whole, none begun outside, no
    pop without a push."""
    _expect(text, lambda f: f["steps"] == [0, 1, 2, 6, 7, 8, 9] and
            f["names"].get("kept") == 1 and "unseen" not in f["names"] and
            f["unmatched"] == 0 and f["windows"] == 2 and
            f["opened"] == "tprof_start/tprof_stop")


def python_program():
    """The program, not a check: marks before tprof.stop(), while stopped and after
    tprof.start()."""
    import tprof
    tprof.mark("before")
    tprof.stop()
    tprof.mark("paused")
    tprof.start()
    tprof.mark("after")


def python_marks(text):
    """The marks before the stop and after the start alone."""
    _expect(text, lambda f: f["names"].get("before") == 1 and f["names"].get("after") == 1 and
            "paused" not in f["names"])


def hip_range(text):
    """hipProfilerStart..Stop and roctxProfilerResume..Pause recorded alone; the copy in
    flight at the stop kept."""
    _expect(text, lambda f: f["names"].get("hipMemcpyAsync") == 1 and
            f["names"].get("copy HtoD") == 1 and f["names"].get("hipGetDeviceCount") == 1 and
            "hipMemcpy" not in f["names"] and "hipDeviceSynchronize" not in f["names"] and
            "hipFree" not in f["names"] and f["windows"] == 2)


def copy_after_stop(trace):
    """The copy's device span ends after hipProfilerStop returned."""
    by = {e["name"]: e for e in _trace_events(trace) if e.get("ph") == "X"}
    stop, copy = by["hipProfilerStop"], by["copy HtoD"]
    if not copy["ts"] + copy["dur"] > stop["ts"] + stop["dur"]:
        fail("the copy %s ends before hipProfilerStop %s returns" % (copy, stop))


main(globals())
